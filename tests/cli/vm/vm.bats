#!/usr/bin/env bats
# run.sh --kernel: the oldest and newest of Debian's 6.1 cloud kernels and a
# 6.12 one booted under qemu (TCG, icount clock) running timedmunlock at
# 256M, and the ways a VM run fails.  The four good boots run once, in
# parallel, in setup_file: icount figures do not depend on host load, which
# the repeat test relies on too.

bats_require_minimum_version 1.5.0
load ../helpers

ARGS=(--vm-clock icount -i 5 --set SIZE=256M timedmunlock)

setup_file() {
	local kernels status=0
	kernels=$("$ROOT/tests/kernels/fetch-debian-kernels.sh") || status=$?
	[ "$status" != 2 ] || skip "Debian's linux-image-6.1.0-*-cloud-amd64-unsigned packages cannot be downloaded"
	[ "$status" = 0 ]
	make -s -C "$ROOT" static
	VM_RES=$BATS_FILE_TMPDIR/results
	# The oldest and newest 6.1 builds, and the newest 6.12.
	local a b n
	a=$(grep '^6\.1\.0-' <<<"$kernels" | head -n 1) b=$(grep '^6\.1\.0-' <<<"$kernels" | tail -n 1)
	n=$(grep '^6\.12\.' <<<"$kernels" | tail -n 1)
	A_REL=$(cut -f1 <<<"$a") A_IMG=$(cut -f2 <<<"$a")
	B_REL=$(cut -f1 <<<"$b") B_IMG=$(cut -f2 <<<"$b")
	N_REL=$(cut -f1 <<<"$n") N_IMG=$(cut -f2 <<<"$n")
	export VM_RES A_REL A_IMG B_REL B_IMG N_REL N_IMG
	local t0=$SECONDS
	"$ROOT/run.sh" --kernel "$A_IMG" -o "$VM_RES" "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/a.err" &
	"$ROOT/run.sh" --kernel "$B_IMG" -o "$VM_RES" "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/b.err" &
	"$ROOT/run.sh" --kernel "$A_IMG" -n repeat -o "$VM_RES" "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/r.err" &
	"$ROOT/run.sh" --kernel "$N_IMG" -o "$VM_RES" "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/n.err" &
	wait
	echo "# four boots in parallel: $((SECONDS - t0)) s" >&3
}

setup() { common_setup; }
teardown() { common_teardown; }

meta() { awk -v k="$2" 'index($0, k ": ") == 1 { print substr($0, length(k) + 3) }' "$VM_RES/$1/meta"; }
elapsed() { awk -F'\t' '$1 == "elapsed" { print $3, $4 }' "$VM_RES/$1/timedmunlock/samples.tsv"; }
# No qemu of this test is left: its command line names the results root.
no_qemu_left() { ! pgrep -f "qemu-system.*$1" >/dev/null; }

@test "both kernels' runs complete under the names of their releases" {
	[ "$(meta "$A_REL" status)" = complete ]
	[ "$(meta "$B_REL" status)" = complete ]
	[ "$(elapsed "$A_REL" | wc -l)" -eq 5 ]
	[ "$(elapsed "$B_REL" | wc -l)" -eq 5 ]
	[ ! -e "$VM_RES/.$A_REL.partial" ] && [ ! -e "$VM_RES/.$B_REL.partial" ]
}

@test "meta names the two guest kernels, read inside the guests" {
	[ "$A_REL" != "$B_REL" ]
	[ "$(meta "$A_REL" kernel_release)" = "$A_REL" ]
	[ "$(meta "$B_REL" kernel_release)" = "$B_REL" ]
	[[ $(meta "$A_REL" kernel_version) == *Debian\ 6.1.* ]]
	[ "$(meta "$A_REL" cpu_model)" != "$(meta "$A_REL" vm_host_cpu_model)" ]
}

@test "meta records the VM: qemu, acceleration, clock, memory, CPUs" {
	[ "$(meta "$A_REL" vm)" = qemu ]
	[ "$(meta "$A_REL" vm_accel)" = tcg ]
	[ "$(meta "$A_REL" vm_clock)" = icount ]
	[ "$(meta "$A_REL" clock)" = icount ]	# what compare.sh reads, not the guest's realtime
	[[ $(meta "$A_REL" vm_clock_note) == *"executed instructions"*"not cache, TLB or lock-contention"* ]]
	[[ $(meta "$A_REL" vm_timing_note) == *"never against the host"* ]]
	[[ $(meta "$A_REL" vm_qemu_version) == [0-9]* ]]
	[ "$(meta "$A_REL" vm_cpu_model)" = qemu64 ]
	[ "$(meta "$A_REL" vm_memory)" = $((2 << 30)) ]
	[ "$(meta "$A_REL" vm_cpus)" = 1 ] && [ "$(meta "$A_REL" cpus)" = 1 ]
	[ "$(meta "$A_REL" vm_image)" = "$(realpath "$A_IMG")" ]
	[[ $(meta "$A_REL" vm_boot_seconds) =~ ^[0-9]+\.[0-9]+$ ]]
}

@test "a 6.12 kernel runs: the guest leaves the busy-machine check to the host" {
	[ "$(meta "$N_REL" status)" = complete ]
	[[ $(meta "$N_REL" kernel_version) == *Debian\ 6.12.* ]]
	[ "$(elapsed "$N_REL" | wc -l)" -eq 5 ]
	# The host's reading (its CPUs), not the guest's one fully busy CPU.
	[[ $(meta "$N_REL" load_at_start) == "cpu busy "*" of $(nproc) CPUs, loadavg "* ]]
	grep -q -- '--ignore-load' "$VM_RES/$N_REL/vm-console.log"
}

@test "THP=never from the config reaches the guest's command line and is read back" {
	[[ " $(meta "$A_REL" cmdline) " == *" transparent_hugepage=never "* ]]
	[ "$(meta "$A_REL" thp_enabled)" = never ]
	[ -s "$VM_RES/$A_REL/kernel-config" ]
}

@test "a second boot of one kernel gives bit-identical icount figures" {
	[ "$(meta repeat kernel_release)" = "$A_REL" ]
	[ "$(elapsed repeat)" = "$(elapsed "$A_REL")" ]
	cmp "$VM_RES/repeat/timedmunlock/samples.tsv" "$VM_RES/$A_REL/timedmunlock/samples.tsv"
}

@test "compare.sh tells the two kernels apart: the mean row is marked significant" {
	run --separate-stderr "$ROOT/compare.sh" -o "$VM_RES" "$A_REL" "$B_REL"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output"
	[[ $output == *"timedmunlock"* ]]
	grep -Eq '^Elapsed mean +[0-9.]+ \( *0\.00%\) +[0-9.]+ \*' <<<"$output"
}

@test "a guest that never reaches the marker: panic reported, run partial, no qemu left" {
	run --separate-stderr "$ROOT/run.sh" --kernel "$A_IMG" -n noinit -o "$RES" \
		--vm-append rdinit=/bin/false -i 1 --set SIZE=64M timedmunlock
	[ "$status" -ne 0 ]
	[[ $stderr == *"mmdelta: the guest kernel panicked: Kernel panic - not syncing: Attempted to kill init!"* ]]
	grep -q '^status: failed$' "$RES/.noinit.partial/meta"
	grep -q '^reason: the guest kernel panicked' "$RES/.noinit.partial/meta"
	[ ! -e "$RES/noinit" ]
	no_qemu_left "$RES"
}

@test "a hung guest is stopped at the timeout: qemu killed, run partial" {
	# /bin/sh waits for console input that never comes.
	run --separate-stderr timeout 60 "$ROOT/run.sh" --kernel "$A_IMG" -n hung -o "$RES" \
		--vm-append rdinit=/bin/sh --vm-timeout 10 -i 1 --set SIZE=64M timedmunlock
	[ "$status" -eq 1 ]
	[[ $stderr == *"mmdelta: the guest did not finish within 10 s (no completion marker); qemu was stopped"* ]]
	grep -q '^phase: vm boot$' "$RES/.hung.partial/meta"
	no_qemu_left "$RES"
}

@test "a file that is not a kernel: one line, nothing written" {
	echo "not a kernel" >"$RES/bzImage"
	run --separate-stderr "$ROOT/run.sh" --kernel "$RES/bzImage" -o "$RES/out" timedmunlock
	assert_one_line_error
	[[ $stderr == *"not a Linux kernel image"* ]]
	[ ! -e "$RES/out" ]
}

@test "no qemu: one line, nothing written" {
	run --separate-stderr env MMDELTA_QEMU=/nonexistent/qemu-system-x86_64 \
		"$ROOT/run.sh" --kernel "$A_IMG" -o "$RES/out" timedmunlock
	assert_one_line_error
	[[ $stderr == *"qemu-system-x86_64 not found"* ]]
	[ ! -e "$RES/out" ]
}

@test "icount with more than one vCPU is refused, saying why" {
	run --separate-stderr "$ROOT/run.sh" --kernel "$A_IMG" --vm-clock icount --vm-cpus 2 -o "$RES/out" timedmunlock
	assert_one_line_error
	[[ $stderr == *"icount needs exactly one vCPU"* ]]
	[ ! -e "$RES/out" ]
}
