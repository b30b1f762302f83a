# sparsemunmap: munmap() of a huge untouched or sparsely touched mapping
# (see bench/sparsemunmap.c).
# shellcheck shell=bash

# shellcheck disable=SC2034  # read by drivers/lib/config.sh
DRIVER_KEYS="SIZE BACKING DIR TOUCH_STRIDE CYCLES PLACEMENT"

driver_args() {
	# SIZE is address space; --cap-size shrinks it only when its touched
	# pages would not fit in memory.
	cfg_size_arg SIZE --size
	cfg_args BACKING:--backing DIR:--dir TOUCH_STRIDE:--touch-stride CYCLES:--cycles \
		PLACEMENT:--placement
}
