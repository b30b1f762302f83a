# procmunmap: munmap() of a large populated area while other processes read
# /proc/PID files of the bench (see bench/procmunmap.c).
# shellcheck shell=bash

# shellcheck disable=SC2034  # read by drivers/lib/config.sh
DRIVER_KEYS="SIZE READERS PROC_FILE CHUNK FAULT_THREADS IDLE_MS READER_CPUS READ_GAP_US"

# The mmap_lock hold-time monitor (MONITORS=mmaplock) needs nothing from this
# driver: the bench does all its set-up, the populate and the idle window
# before --trigger says "ready", and its measured phase is the munmap alone,
# so the monitor sees exactly the exclusive hold the thread was about.

driver_args() {
	cfg_size_arg SIZE --size
	cfg_args READERS:--readers PROC_FILE:--proc-file CHUNK:--chunk \
		FAULT_THREADS:--fault-threads IDLE_MS:--idle-ms READER_CPUS:--reader-cpus \
		READ_GAP_US:--read-gap-us
}
