#!/usr/bin/env bats
# run.sh --kernel: the oldest and newest of Debian's 6.1 cloud kernels and a
# 6.12 one booted under qemu (TCG, icount clock) running timedmunlock at
# 256M, and the ways a VM run fails.  The four good boots run once, in
# parallel, in setup_file: icount figures do not depend on host load, which
# the repeat test relies on too.  The oldest kernel's two boots have the
# insns monitor (docs/monitors.md), whose tests are here to add no boot.

bats_require_minimum_version 1.5.0
load ../helpers

ARGS=(--vm-clock icount -i 5 --set SIZE=256M timedmunlock)

setup_file() {
	debian_kernels
	# built once here: the parallel runs below would each run make otherwise
	make -s -C "$ROOT" static build/lib/insns-plugin.so build/bin/mmprofile
	VM_RES=$BATS_FILE_TMPDIR/results
	# the kept initramfs archives: the test's own, not the user's cache
	export XDG_CACHE_HOME=$BATS_FILE_TMPDIR/cache
	# The oldest and newest 6.1 builds, and the newest 6.12.
	local a b n
	a=$(grep '^6\.1\.0-' <<<"$KERNELS" | head -n 1) b=$(grep '^6\.1\.0-' <<<"$KERNELS" | tail -n 1)
	n=$(grep '^6\.12\.' <<<"$KERNELS" | tail -n 1)
	A_REL=$(cut -f1 <<<"$a") A_IMG=$(cut -f2 <<<"$a")
	B_REL=$(cut -f1 <<<"$b") B_IMG=$(cut -f2 <<<"$b")
	N_REL=$(cut -f1 <<<"$n") N_IMG=$(cut -f2 <<<"$n")
	# the 6.12 image alone, without its config: the guest checks what the
	# configs need before its first bench (drivers/vm/caps.sh)
	cp "$N_IMG" "$BATS_FILE_TMPDIR/"
	N_IMG=$BATS_FILE_TMPDIR/${N_IMG##*/}
	export VM_RES A_REL A_IMG B_REL B_IMG N_REL N_IMG
	local t0=$SECONDS
	"$ROOT/run.sh" --kernel "$A_IMG" -o "$VM_RES" --monitors vmstat,insns "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/a.err" &
	"$ROOT/run.sh" --kernel "$B_IMG" -o "$VM_RES" "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/b.err" &
	"$ROOT/run.sh" --kernel "$A_IMG" -n repeat -o "$VM_RES" --monitors vmstat,insns "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/r.err" &
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
	# shown when it fails: why a run did not complete
	tail -n 3 "$BATS_FILE_TMPDIR"/?.err
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
	[ "$(meta "$A_REL" vm_cpu_model)" = qemu64,+rdrand ]
	[ "$(meta "$A_REL" vm_memory)" = $((2 << 30)) ]
	[ "$(meta "$A_REL" vm_cpus)" = 1 ] && [ "$(meta "$A_REL" cpus)" = 1 ]
	[ "$(meta "$A_REL" vm_image)" = "$(realpath "$A_IMG")" ]
	[[ $(meta "$A_REL" vm_boot_seconds) =~ ^[0-9]+\.[0-9]+$ ]]
}

@test "a run keeps where its wall time went, the rule of its count and the initramfs it booted" {
	local t=$VM_RES/$A_REL/vm-timeline.tsv
	# in order: set-up, boot, the guest's lines, qemu's end, the results
	cut -f2 "$t" | grep -n . | grep -E '^1:initramfs ready \((built|kept)\)$'
	[ "$(cut -f2 "$t" | sed -n 2p)" = "qemu started" ]
	[[ $(cut -f2 "$t" | sed -n 3p) == "guest: guest $A_REL up after "* ]]
	grep -qP '\tguest: timedmunlock \[5/5\] elapsed ' "$t"
	[ "$(cut -f2 "$t" | tail -n 2 | head -n 1)" = "qemu exited (0)" ]
	[ "$(cut -f2 "$t" | tail -n 1)" = "results in" ]
	# seconds since the set-up began, never going back
	awk -F'\t' '$1 !~ /^[0-9]+\.[0-9]$/ || $1 + 0 < last { exit 1 } { last = $1 + 0 }' "$t"
	[ "$(meta "$A_REL" vm_iterations_timedmunlock)" = "ITERATIONS=5: given with -i" ]
	[[ $(meta "$A_REL" vm_initramfs) =~ ^(built|kept)\ $BATS_FILE_TMPDIR/cache/mmdelta/initramfs/[^/]+-[0-9a-f]{64}\.cpio\.gz$ ]]
	# no monitor of the run runs perf: none in the archive it booted
	run bash -c "gzip -dc <'$(meta "$A_REL" vm_initramfs | cut -d' ' -f2)' | cpio -it --quiet | grep -c 'bin/perf$'"
	[ "$output" = 0 ]
}

@test "a 6.12 kernel runs: the guest leaves the busy-machine check to the host" {
	[ "$(meta "$N_REL" status)" = complete ]
	[[ $(meta "$N_REL" kernel_version) == *Debian\ 6.12.* ]]
	[ "$(elapsed "$N_REL" | wc -l)" -eq 5 ]
	# The host's reading (its CPUs), not the guest's one fully busy CPU.
	[[ $(meta "$N_REL" load_at_start) == "cpu busy "*" of $(nproc) CPUs, loadavg "* ]]
	grep -q -- '--ignore-load' "$VM_RES/$N_REL/vm-console.log"
}

@test "what the kernel can do: read from the config beside the image, or by the guest when there is none" {
	[ "$(meta "$A_REL" vm_kernel_caps)" = "config-$A_REL beside the image" ]
	[[ $(meta "$N_REL" vm_kernel_caps) == "the guest, before its first bench "* ]]
	[ "$(meta "$N_REL" thp_enabled)" = never ]
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

# insns: sum of a function table's counts, and a metric's values.
table_sum() { awk -F'\t' '{ s += $2 } END { printf "%.0f\n", s }' "$1"; }
values() { awk -F'\t' -v m="$2" '$1 == m { print $3, $4 }' "$VM_RES/$1/timedmunlock/samples.tsv"; }

@test "insns: every region's instructions account for its icount figure, and the tables add up" {
	local khz it el total row
	khz=$(meta "$A_REL" vm_tsc_khz)
	[[ $khz =~ ^99999[0-9]$|^1000000$ ]]
	[ "$(values "$A_REL" insns_total | wc -l)" -eq 5 ]
	while read -r it el; do
		total=$(values "$A_REL" insns_total | awk -v i="$it" '$1 == i { print $2 }')
		# the plugin's own figures: blocks left early, and what they may
		# have counted that did not run (at 256M, 24-27 exits at the ticks)
		row=$(awk -F'\t' -v i="$it" '$2 == i { print $7, $8, $9 }' "$VM_RES/$A_REL/insns.tsv")
		# elapsed in TSC cycles (1 an instruction) less the clock reads'
		# 75: the gap insns.tsv states, and within 2 ns of truncation, one
		# a block left early, and the plugin's bound
		awk -v e="$el" -v k="$khz" -v t="$total" -v r="$row" 'BEGIN { split(r, f, " ")
			g = e * 1e9 * k / 1e6 - t - 75; if (sprintf("%.0f", g) != f[3]) exit 1
			if (g < 0) g = -g; exit !(g <= 2 + f[1] + f[2]) }'
		[ "$(table_sum "$VM_RES/$A_REL/timedmunlock/monitors/insns.$it.tsv")" = "$total" ]
	done < <(elapsed "$A_REL")
	[ "$(awk -F'\t' 'NR > 1 && $11 != "ok"' "$VM_RES/$A_REL/insns.tsv" | wc -l)" = 0 ]
	# munlock's own path, named from the guest's kallsyms
	grep -q '^munlock_page	\|^mlock_pagevec	\|^mlock_folio_batch	' "$VM_RES/$A_REL/timedmunlock/monitors/insns.1.tsv"
	zcat "$VM_RES/$A_REL/kallsyms.gz" | grep -q ' T __x64_sys_munlock$'
}

@test "insns: two boots of one kernel give byte-identical profiles" {
	local f
	for f in "$VM_RES/$A_REL"/timedmunlock/monitors/insns.*; do
		cmp "$f" "$VM_RES/repeat/timedmunlock/monitors/${f##*/}"
	done
	[ "$(ls "$VM_RES/repeat"/timedmunlock/monitors/insns.*.tsv | wc -l)" -eq 6 ]
}

@test "insns: compare.sh --profile puts the mean count of each function in its where block" {
	local top base
	run --separate-stderr "$ROOT/compare.sh" -o "$VM_RES" --profile --top 3 "$A_REL" repeat
	[ "$status" -eq 0 ]
	printf '%s\n' "$output"
	# identical boots: no change anywhere, the first line and [rest] and the total included
	# (No change when the five iterations are equal too, else No difference proven: p 1)
	grep -Eq "^timedmunlock: No (change|difference proven) in Elapsed, nor in any function, $A_REL -> repeat" <<<"$output"
	# (p 1, or exact: the same count in every iteration)
	[ "$(grep -cE ' \+0 +[0-9]+ +- +(1|exact)$' <<<"$output")" -eq 5 ]
	# a row's count is the function's mean over the 5 iterations
	top=$(grep -A1 '^function ' <<<"$output" | tail -n 1 | awk '{ print $1 }')
	base=$(cat "$VM_RES/$A_REL"/timedmunlock/monitors/insns.[0-9].tsv |
		awk -F'\t' -v f="$top" '$1 == f { s += $2 } END { printf "%.0f", s / 5 }')
	# (by field, not as a pattern: [user] would be a bracket expression)
	awk -v f="$top" -v b="$base" '$1 == f && $2 == b && $3 == b { ok = 1 } END { exit !ok }' <<<"$output"
	# no profile in the other kernel's run: one line naming the monitor
	run --separate-stderr "$ROOT/compare.sh" -o "$VM_RES" --profile "$A_REL" "$B_REL"
	grep -q "^timedmunlock: $A_REL -> $B_REL: no profile in $B_REL: a --kernel run without the insns monitor: run it with --monitors vmstat,insns\.$" <<<"$output"
}

@test "insns: the guest is the same with the monitor on and off but for one byte it reads after the benches" {
	local d=$BATS_TEST_TMPDIR base
	export XDG_CACHE_HOME=$d/cache
	build() {
		(source "$ROOT/drivers/vm/vm.sh"
		CONFIGS=("$ROOT/configs/timedmunlock") SETS=("MONITORS=$1") VM_INSNS=$2
		vm_initramfs_build "$d/$3" timedmunlock)
	}
	build vmstat,insns 1 on
	build vmstat 0 off
	# the gzipped archive and the plain one after it: one byte apart
	[ "$(cmp -l "$d/on" "$d/off" | wc -l)" -eq 1 ]
	# the plain one ends the file and holds the byte the guest reads
	: >"$d/flag"
	(source "$ROOT/drivers/vm/vm.sh"; VM_INSNS=1; vm_initramfs_flag "$d/flag")
	tail -c "$(stat -c %s "$d/flag")" "$d/on" | cmp - "$d/flag"
	mkdir "$d/x"
	(cd "$d/x" && cpio -i --quiet -d <"$d/flag")
	[ "$(cat "$d/x/mmdelta/insns-counted")" = 1 ]
	# the guest's run.sh never sees the monitor: its arguments are in the
	# plain archive after the kept, gzipped one (4-byte aligned)
	base=$(stat -c %s "$d"/cache/mmdelta/initramfs/*.cpio.gz)
	(cd "$d/x" && tail -c +$((base + (4 - base % 4) % 4 + 1)) "$d/on" | cpio -i --quiet -d mmdelta/vm-args)
	[ "$(tr '\0' '\n' <"$d/x/mmdelta/vm-args" | grep '^MONITORS=')" = MONITORS=vmstat ]
}

@test "a guest that never reaches the marker: panic reported, run partial, no qemu left" {
	run --separate-stderr "$ROOT/run.sh" --kernel "$A_IMG" -n noinit -o "$RES" \
		--vm-append rdinit=/bin/false -i 1 --set SIZE=64M timedmunlock
	[ "$status" -eq 2 ]  # a run that could not complete, never a verdict
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
	[ "$status" -eq 2 ]
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

@test "an icount guest gets a fixed RTC and a fixed seed for qemu's random bytes; a realtime one the seed of neither" {
	# two procmunmap boots with qemu's own seed differed from their first
	# iterations (the guests' address-space layouts differed); with -seed
	# they repeat (docs/vm.md)
	args() {
		bash -c 'source "$1/drivers/vm/qemu.sh"; VM_CLOCK=$2 VM_ACCEL=tcg VM_CPU_MODEL=qemu64 VM_MEM_MB=2048 VM_CPUS=1 VM_NUMA=1 VM_KERNEL=k
			vm_qemu_args initrd ttyS1 "console=ttyS0"' _ "$ROOT" "$1" | tr '\n' ' '
	}
	[[ " $(args icount) " == *" -icount shift=0,sleep=off -seed 1 "* ]]
	[[ " $(args icount) " == *" -rtc base=2024-01-01T00:00:00,clock=vm "* ]]
	[[ " $(args realtime) " != *" -seed "* ]]
	[[ " $(args realtime) " != *" -icount "* ]]
}
