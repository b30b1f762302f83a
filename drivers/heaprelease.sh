# heaprelease: threads releasing their heap with mprotect + mmap(MAP_FIXED)
# against madvise (see bench/heaprelease.c).
# shellcheck shell=bash

# shellcheck disable=SC2034  # read by drivers/lib/config.sh
DRIVER_KEYS="PATTERN THREADS OPS HEAP_SIZE PIN"

driver_args() {
	local key opt
	for key in PATTERN:--pattern THREADS:--threads OPS:--ops HEAP_SIZE:--heap-size; do
		opt=${key#*:} key=${key%%:*}
		if [ -n "$(cfg "$key")" ]; then printf '%s\n' "$opt" "$(cfg "$key")"; fi
	done
	# driver_args runs in a process substitution, where a die would not stop
	# run.sh: a PIN that is neither yes nor no is handed to the bench as a
	# stray argument, so that its --check refuses it in one line naming it.
	case $(cfg PIN) in
	yes) echo --pin ;;
	no | "") ;;
	*) printf '%s\n' "PIN=$(cfg PIN)" ;;
	esac
}
