# timedmunlock: munlock() of a locked, populated area (see bench/timedmunlock.c).
# shellcheck shell=bash

# shellcheck disable=SC2034  # read by drivers/lib/config.sh
DRIVER_KEYS="SIZE LOCK MADVISE"

driver_args() {
	cfg_size_arg SIZE --size
	if [ -n "$(cfg LOCK)" ]; then printf '%s\n' --lock "$(cfg LOCK)"; fi
	if [ -n "$(cfg MADVISE)" ]; then printf '%s\n' --madvise "$(cfg MADVISE)"; fi
}
