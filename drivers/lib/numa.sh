# Where the bench runs: NUMA=none|local|interleave and CPU=none|last|N[,N...],
# through numactl.  The munlock thread's second measurement set ran under
# `numactl --interleave`; binding to one CPU keeps the scheduler from
# migrating the bench mid-region.
# shellcheck shell=bash

# Print the command prefix for NUMA and CPU, one word per line.
numa_prefix() {
	local numa=$1 cpu=${2:-none} words=()
	case $numa in
	none) ;;
	local) words+=(--membind=0); [ "$cpu" != none ] || words+=(--cpunodebind=0) ;;
	interleave) words+=(--interleave=all) ;;
	*) die "NUMA=$numa: must be one of none local interleave" ;;
	esac
	# "last": the highest online CPU, away from CPU 0, which takes most
	# interrupts, on any machine.
	[ "$cpu" != last ] || cpu=$(awk -F'[-,]' '{ print $NF }' /sys/devices/system/cpu/online)
	if [ "$cpu" != none ]; then
		[[ $cpu =~ ^[0-9]+(,[0-9]+)*$ ]] || die "CPU=$cpu: must be none, last or CPU numbers like 1 or 0,1"
		local c
		for c in ${cpu//,/ }; do
			[ -d "/sys/devices/system/cpu/cpu$c" ] || die "CPU=$cpu: this machine has no CPU $c"
		done
		words+=(--physcpubind="$cpu")
	fi
	[ ${#words[@]} -eq 0 ] || printf '%s\n' numactl "${words[@]}"
}
