# Where the bench runs: NUMA=none|local|interleave and CPU=none|last|N[,N...],
# through numactl.  The munlock thread's second measurement set ran under
# `numactl --interleave`; binding to one CPU keeps the scheduler from
# migrating the bench mid-region.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_SYSTEM_NUMA:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_SYSTEM_NUMA=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"

# The NUMA nodes the bench will run on: a --kernel guest's (--vm-numa) when
# this is the host of one, else this machine's.
numa_node_count() {
	if [ -n "$VM_KERNEL" ]; then echo "$VM_NUMA"; return; fi
	find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' 2>/dev/null | wc -l
}

# numa_problem NUMA CPU: nothing when both can be used here, else "KEY why".
numa_problem() {
	local numa=$1 cpu=$2 c
	case $numa in
	none | local) ;;
	interleave)
		# Interleaving over one node is the local run under another name:
		# the munlock thread's second table needs pages on two nodes.
		c=$(numa_node_count)
		if [ "$c" -lt 2 ]; then
			if [ -n "$VM_KERNEL" ]; then
				echo "NUMA needs two NUMA nodes to interleave pages over, the guest has $c (--vm-numa 2 gives it two)"
			else
				echo "NUMA needs two NUMA nodes to interleave pages over, this machine has $c (under --kernel, --vm-numa 2 gives the guest two)"
			fi
			return 0
		fi ;;
	*) echo "NUMA must be one of none local interleave"; return 0 ;;
	esac
	[ "$cpu" != none ] && [ "$cpu" != last ] || return 0
	if ! [[ $cpu =~ ^[0-9]+(,[0-9]+)*$ ]]; then
		echo "CPU must be none, last or CPU numbers like 1 or 0,1"
		return 0
	fi
	for c in ${cpu//,/ }; do
		[ -d "/sys/devices/system/cpu/cpu$c" ] || { echo "CPU this machine has no CPU $c"; return 0; }
	done
}

# Print the command prefix for NUMA and CPU, one word per line (numa_problem
# has accepted both).
numa_prefix() {
	local numa=$1 cpu=${2:-none} words=()
	case $numa in
	local) words+=(--membind=0); [ "$cpu" != none ] || words+=(--cpunodebind=0) ;;
	interleave) words+=(--interleave=all) ;;
	esac
	# "last": the highest online CPU, away from CPU 0, which takes most
	# interrupts, on any machine.
	[ "$cpu" != last ] || cpu=$(awk -F'[-,]' '{ print $NF }' /sys/devices/system/cpu/online)
	[ "$cpu" = none ] || words+=(--physcpubind="$cpu")
	[ ${#words[@]} -eq 0 ] || printf '%s\n' numactl "${words[@]}"
}
