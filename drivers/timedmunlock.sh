# timedmunlock: munlock() of a locked, populated area (see bench/timedmunlock.c).
# shellcheck shell=bash

# shellcheck disable=SC2034  # read by drivers/lib/config.sh
DRIVER_KEYS="SIZE LOCK MADVISE"

driver_args() {
	cfg_size_arg SIZE --size
	cfg_args LOCK:--lock MADVISE:--madvise
}
