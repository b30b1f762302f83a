# heaprelease: threads releasing their heap with mprotect + mmap(MAP_FIXED)
# against madvise (see bench/heaprelease.c).
# shellcheck shell=bash

# shellcheck disable=SC2034  # read by drivers/lib/config.sh
DRIVER_KEYS="PATTERN THREADS OPS HEAP_SIZE PIN"
DRIVER_FLAGS="PIN"	# yes|no

driver_args() {
	cfg_args PATTERN:--pattern THREADS:--threads OPS:--ops HEAP_SIZE:--heap-size
	cfg_flag PIN --pin
}
