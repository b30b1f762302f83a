# --kernel runs: boot a kernel image under qemu and run the same run.sh
# inside it, from an initramfs built here; the guest sends its run directory
# back on ttyS1 and the host completes it.  run.sh parses the options with
# vm_option and hands over to vm_run once the run directory exists.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_VM:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_VM=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"

source "${BASH_SOURCE[0]%/*}/image.sh"  # the kernel image: checked, its release
source "${BASH_SOURCE[0]%/*}/accel.sh"  # KVM or TCG, icount or realtime
source "${BASH_SOURCE[0]%/*}/qemu.sh"  # qemu's command line and process
source "${BASH_SOURCE[0]%/*}/cmdline.sh"  # vm_cmdline, vm_config_facts, vm_timeout
source "${BASH_SOURCE[0]%/*}/initramfs.sh"  # the guest's userland
source "${BASH_SOURCE[0]%/*}/frame.sh"  # results over ttyS1
source "${BASH_SOURCE[0]%/*}/meta.sh"  # the host's and the guest's meta
source "${BASH_SOURCE[0]%/*}/insns.sh"  # the insns monitor's plugin and its counts
source "${BASH_SOURCE[0]%/*}/../core/build.sh"  # need_built
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, phase, say
source "${BASH_SOURCE[0]%/*}/../config/config.sh"  # config_load
source "${BASH_SOURCE[0]%/*}/resolution.sh"  # VM_ITERATIONS_RULE
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # meta_set, run_meta_head, rundir_finish
source "${BASH_SOURCE[0]%/*}/../system/noise.sh"  # load_check
source "${BASH_SOURCE[0]%/*}/../system/settings.sh"  # settings_off

VM_OPTIONS_GIVEN=0

vm_usage() {
	cat <<EOF
  --kernel IMAGE     boot IMAGE (bzImage/vmlinuz) under qemu, run there; NAME defaults to its release
                     repeatable: one run per image, named RELEASE (NAME-RELEASE with -n)
  --jobs N           with several --kernel: guests booted at once (default: what
                     the CPUs and memory allow)
  --vm-mem SIZE      guest memory, e.g. 512M or 4G (default 2G)
  --vm-cpus N        guest CPUs (default 1; icount needs 1)
  --vm-clock CLOCK   icount (the default without KVM: repeatable) or realtime
  --vm-numa N        guest NUMA nodes, the memory split evenly (default 1)
  --vm-append ARGS   more guest kernel command line
  --vm-timeout SECS  give up on the guest after SECS (default: scaled to the work)
EOF
}

# vm_option OPTION VALUE, for run.sh's parser.
# shellcheck disable=SC2034  # VM_APPEND, VM_TIMEOUT: read by cmdline.sh
vm_option() {
	[ "$1" = --kernel ] || VM_OPTIONS_GIVEN=1
	case $1 in
	--kernel) VM_KERNEL=$2 ;;
	--vm-mem) VM_MEM=$2 ;;
	--vm-cpus) [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--vm-cpus $2: must be a whole number > 0"; VM_CPUS=$2 ;;
	--vm-clock) [[ $2 == icount || $2 == realtime ]] || die "--vm-clock $2: must be icount or realtime"; VM_CLOCK=$2 ;;
	--vm-numa) [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--vm-numa $2: must be a whole number of nodes > 0"; VM_NUMA=$2 ;;
	--vm-append) VM_APPEND=$2 ;;
	--vm-timeout) [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--vm-timeout $2: must be whole seconds > 0"; VM_TIMEOUT=$2 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
}

# After option parsing, before any work: check the VM options and the
# image, and name the run after the image's release unless -n did.
vm_options_done() {
	if [ -z "$VM_KERNEL" ]; then
		[ "$VM_OPTIONS_GIVEN" = 0 ] || die "--vm-* options need --kernel IMAGE"
		return 0
	fi
	vm_check_options
	vm_image_check "$VM_KERNEL"
	if [ -z "$NAME" ]; then
		NAME=$(vm_image_release "$VM_KERNEL")
		[ -n "$NAME" ] || die "--kernel $VM_KERNEL: no release in its header; name the run with -n"
	fi
	settings_off
}

# The host's busy-machine check.  An icount guest's figures do not depend
# on what else the host runs, so its load is recorded, never refused; a
# realtime guest is timed by the host's clock and refused like a host run.
# vm_load_check IGNORE_LOAD (1 to measure regardless).
vm_load_check() {
	if [ "$VM_CLOCK" = icount ]; then load_check 1; else load_check "$1"; fi
}

# The --vm-* options together, and what they need on the host; no image
# needed (bisect.sh checks them before it has built one).
vm_check_options() {
	[[ $VM_MEM =~ ^([1-9][0-9]*)([MG])$ ]] || die "--vm-mem $VM_MEM: give megabytes or gigabytes, e.g. 512M or 2G"
	VM_MEM_MB=${BASH_REMATCH[1]}
	[ "${BASH_REMATCH[2]}" = M ] || VM_MEM_MB=$((VM_MEM_MB * 1024))
	# qemu takes node memory in whole MiB, and a node below 128M cannot
	# hold a bench.
	[ $((VM_MEM_MB / VM_NUMA)) -ge 128 ] ||
		die "--vm-numa $VM_NUMA: $VM_MEM leaves $((VM_MEM_MB / VM_NUMA)) MiB a node; give each at least 128M (--vm-mem)"
	# qemu and the guest's userland are installed on the first --kernel run.
	"$MMDELTA_ROOT/libexec/deps.sh" vm || die "missing dependencies of --kernel (see above)"
	vm_qemu_check
	vm_choose_accel
}

# The benches the configs name, once each.
vm_benches() {
	local c bench
	for c in "${CONFIGS[@]}"; do
		read -r bench _ < <(vm_config_facts "$c")
		echo "$bench"
	done | sort -u
}

# Called by run.sh with RUN_DIR created and its exit trap set: any die here
# leaves the run partial with status and phase, and the trap stops qemu.
vm_run() {
	local -a benches argv
	local rc=0 t0 work=$RUN_DIR/.vm
	phase "vm set-up"
	# shellcheck disable=SC2034  # read by qemu.sh's vm_timeline
	VM_T0=${EPOCHREALTIME/./}
	vm_accel_note
	vm_initramfs_check
	mapfile -t benches < <(vm_benches)
	need_built "${benches[@]/#/static/}" static/mmconfig static/mmci static/mmstat
	VM_APPEND_LINE=$(vm_cmdline)
	VM_TIMEOUT_S=$(vm_timeout)
	vm_meta_start "$@" >"$RUN_DIR/meta"
	vm_iterations_note
	mkdir "$work"
	vm_insns_setup "$work"
	vm_initramfs_build "$work/initramfs.cpio.gz" "${benches[@]}"
	vm_timeline "initramfs ready ($VM_INITRAMFS_HOW)"
	say "initramfs: $(vm_initramfs_said)"
	meta_set "$RUN_DIR" vm_initramfs "$VM_INITRAMFS_HOW $VM_INITRAMFS_BASE"
	phase "vm boot"
	mapfile -t argv < <(vm_qemu_args "$work/initramfs.cpio.gz" "$work/ttyS1" "$VM_APPEND_LINE")
	say "booting $VM_KERNEL under qemu ($VM_ACCEL, $VM_CLOCK clock, $VM_MEM, $VM_CPUS CPU); giving up after $VM_TIMEOUT_S s"
	t0=$SECONDS
	vm_qemu_run "$VM_TIMEOUT_S" "$RUN_DIR/vm-console.log" "${argv[@]}" || rc=$?
	rm -f "$work/initramfs.cpio.gz"
	meta_set "$RUN_DIR" vm_wall_seconds $((SECONDS - t0))
	vm_collect "$rc" "$work"
	vm_insns_collect "$work"
	vm_timeline "results in"
	rm -rf "$work"
	meta_set "$RUN_DIR" end_time "$(date -Is)"
	meta_set "$RUN_DIR" status complete
	rundir_finish
	say "complete: $FINAL_DIR"
}

# Which rule chose each config's count (resolution.sh), in the log and in
# meta as vm_iterations_BENCH.
vm_iterations_note() {
	local c bench rule
	for c in "${CONFIGS[@]}"; do
		IFS=$'\t' read -r bench rule < <(config_load "$c" && printf '%s\t%s\n' "${CFG[BENCH]}" "$VM_ITERATIONS_RULE")
		[ -n "$rule" ] || continue
		say "$bench: $rule"
		meta_set "$RUN_DIR" "vm_iterations_$bench" "$rule"
	done
}

vm_meta_start() {
	run_meta_head "$@"
	vm_meta_host
}

# Take the guest's run directory into RUN_DIR, or die saying why there is none.
vm_collect() {
	local qemu_rc=$1 work=$2 status guest
	status=$(frame_status "$work/ttyS1")
	[ -n "$status" ] || vm_fail "$(vm_no_marker_reason "$qemu_rc")"
	phase "vm results"
	frame_receive "$work/ttyS1" "$work/guest" || vm_fail "the guest's results did not arrive intact (see $work/ttyS1)"
	guest=$work/guest/results/$VM_GUEST_NAME
	[ -d "$guest" ] || guest=$work/guest/results/.$VM_GUEST_NAME.partial
	if [ -d "$guest" ]; then
		find "$guest" -mindepth 1 -maxdepth 1 ! -name meta -exec mv -t "$RUN_DIR" {} +
		vm_meta_merge "$RUN_DIR" "$guest/meta" "$work/guest/guest-facts"
	else
		[ "$status" = 0 ] || vm_refused "$(vm_guest_error)"
		vm_meta_merge "$RUN_DIR" "$work/guest/guest-facts"
	fi
	vm_kernel_config
	[ "$status" = 0 ] || vm_fail "the run inside the guest failed: $(vm_guest_error)"
}

# Why the completion marker never came, from qemu's status and the console.
vm_no_marker_reason() {
	local rc=$1 console=$RUN_DIR/vm-console.log panic
	panic=$(tr -d '\r' <"$console" | grep -m1 -o 'Kernel panic - not syncing:.*' || true)
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "the guest did not finish within $VM_TIMEOUT_S s (no completion marker); qemu was stopped; console in $console"
	elif [ -n "$panic" ]; then
		echo "the guest kernel panicked: $panic (console in $console)"
	elif [ "$rc" != 0 ]; then
		echo "qemu failed (exit $rc): $(tr -d '\r' <"$console" | grep -m1 "qemu" || tail -n 1 "$console")"
	else
		echo "the guest stopped without sending results (no completion marker); console in $console"
	fi
}

# The guest run.sh's own reason: its last message before the partial notice.
vm_guest_error() {
	tr -d '\r' <"$RUN_DIR/vm-console.log" | grep '^mmdelta: ' |
		grep -v '^mmdelta: run left partial' | tail -n 1 | sed 's/^mmdelta: //'
}

# The guest's run.sh stopped before it made a run directory: it refused
# the run (what the kernel lacks, caps.sh, when the image did not say)
# before any bench.  Nothing was measured, so nothing is kept, and a retry
# needs no --force.
vm_refused() {
	local dir=$RUN_DIR
	RUN_DIR=""
	rm -rf "$dir"
	die "the guest refused the run before any bench ran (nothing kept): $1"
}

vm_fail() {
	meta_set "$RUN_DIR" reason "$1"
	die "$1"
}
