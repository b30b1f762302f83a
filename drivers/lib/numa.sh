# NUMA placement: NUMA=none|local|interleave, through numactl.  The munlock
# thread's second measurement set ran under `numactl --interleave`.
# shellcheck shell=bash

# Print the command prefix, one word per line.
numa_prefix() {
	case $1 in
	none) ;;
	local) printf '%s\n' numactl --cpunodebind=0 --membind=0 ;;
	interleave) printf '%s\n' numactl --interleave=all ;;
	*) die "NUMA=$1: must be one of none local interleave" ;;
	esac
}
