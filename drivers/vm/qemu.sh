# The qemu process of a --kernel run: its command line, and starting,
# waiting for and stopping it.  Success is never qemu's exit status: with
# -no-reboot and panic=-1 a panicking guest makes qemu exit 0 as well.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_QEMU:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_QEMU=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die
source "${BASH_SOURCE[0]%/*}/insns.sh"  # vm_insns_qemu_args

VM_QEMU=${MMDELTA_QEMU:-qemu-system-x86_64}
# A fixed guest RTC: the host's date would make icount boots differ (it
# reaches timekeeping and the entropy pool).
VM_RTC_BASE=2024-01-01T00:00:00
# And a fixed seed for the random bytes qemu hands the guest (the boot
# protocol's RNG seed): from the host's generator they gave every boot its
# own address-space layout, and procmunmap's and sparsemunmap's figures
# then differed from boot to boot.  The layout is still randomised, the
# same way in every boot.
VM_ICOUNT_SEED=1

vm_qemu_check() {
	command -v "$VM_QEMU" >/dev/null ||
		die "$VM_QEMU not found: --kernel runs need qemu (apt-get install qemu-system-x86)"
}

vm_qemu_version() {
	"$VM_QEMU" --version | awk 'NR == 1 { sub(/^QEMU emulator version /, ""); print }'
}

# The argv, one word per line: INITRAMFS SERIAL1_FILE APPEND.
# ttyS0 (console, and qemu's monitor) goes to stdout; ttyS1 is the results
# channel and goes to a file.  -nodefaults drops the NIC and VGA, whose
# option ROMs only slow an emulated boot.
vm_qemu_args() {
	local initramfs=$1 serial1=$2 append=$3
	printf '%s\n' "$VM_QEMU" -nodefaults -nographic -no-reboot \
		-machine pc -cpu "$VM_CPU_MODEL" -m "$VM_MEM_MB" -smp "$VM_CPUS" \
		-rtc "base=$VM_RTC_BASE,clock=vm" \
		-kernel "$VM_KERNEL" -initrd "$initramfs" -append "$append" \
		-serial mon:stdio -serial "file:$serial1"
	vm_qemu_numa_args
	printf '%s\n' -accel "$VM_ACCEL"
	if [ "$VM_CLOCK" = icount ]; then printf '%s\n' -icount shift=0,sleep=off -seed "$VM_ICOUNT_SEED"; fi
	vm_insns_qemu_args
}

# --vm-numa N: N memory nodes, the memory split evenly (node 0 takes what
# does not divide), every vCPU on node 0: the bench's interleave then spreads
# its pages over nodes as numactl --interleave did in the munlock thread.
vm_qemu_numa_args() {
	local n size first
	[ "$VM_NUMA" -gt 1 ] || return 0
	size=$((VM_MEM_MB / VM_NUMA))
	first=$((VM_MEM_MB - size * (VM_NUMA - 1)))
	for ((n = 0; n < VM_NUMA; n++)); do
		printf '%s\n' -object "memory-backend-ram,id=mem$n,size=$((n == 0 ? first : size))M"
		if [ "$n" = 0 ]; then
			printf '%s\n' -numa "node,nodeid=0,cpus=0-$((VM_CPUS - 1)),memdev=mem0"
		else
			printf '%s\n' -numa "node,nodeid=$n,memdev=mem$n"
		fi
	done
}

# vm_qemu_run TIMEOUT CONSOLE_LOG ARGV...: run qemu for at most TIMEOUT
# seconds, console to CONSOLE_LOG; the guest's "mmdelta:" lines are echoed
# on stderr as they come, and kept in the timeline (vm_timeline) with the
# host's time they came at.  Returns qemu's status, 124 on timeout.
# BENCH_PID lets run.sh's exit trap stop qemu on an interrupt.
vm_qemu_run() {
	local limit=$1 console=$2 rc=0 echo_pid; shift 2
	: >"$console"
	vm_timeline "qemu started"
	timeout --kill-after=10 "$limit" "$@" </dev/null >"$console" 2>&1 &
	BENCH_PID=$!
	vm_echo_progress "$console" "$BENCH_PID" &
	echo_pid=$!
	wait "$BENCH_PID" || rc=$?
	BENCH_PID=""
	wait "$echo_pid" 2>/dev/null || true
	vm_timeline "qemu exited ($rc)"
	return "$rc"
}

# Follow the console until qemu is gone; show the guest run.sh's messages.
vm_echo_progress() {
	local console=$1 pid=$2 line
	tail -n +1 -s 0.5 --pid="$pid" -f "$console" 2>/dev/null | while IFS= read -r line; do
		line=${line%$'\r'}
		[[ $line == "mmdelta: "* ]] || continue
		printf 'mmdelta: [guest] %s\n' "${line#mmdelta: }" >&2
		vm_timeline "guest: ${line#mmdelta: }"
	done || true
}

# Where a --kernel run's wall time goes: vm-timeline.tsv in the run
# directory, one line per event, seconds since the run's VM set-up began
# (VM_T0, microseconds) and what happened: the initramfs ready, qemu started,
# each guest message as it reached the host, qemu exited, results in.
vm_timeline() {
	local us=$((${EPOCHREALTIME/./} - VM_T0))
	printf '%d.%01d\t%s\n' $((us / 1000000)) $((us % 1000000 / 100000)) "$1" >>"$RUN_DIR/vm-timeline.tsv"
}
