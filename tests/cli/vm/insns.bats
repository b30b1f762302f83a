#!/usr/bin/env bats
# The insns monitor's host side without a boot (drivers/vm/insns.sh): the
# plugin's files of a made-up guest named with a synthetic kallsyms, the
# metrics added to the bench's samples, the reconciliation, and a bench
# that marks no region.  The boots are in vm.bats.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	make -s -C "$ROOT" build/bin/mmprofile
	R=$BATS_TEST_TMPDIR/run W=$BATS_TEST_TMPDIR/work
	mkdir -p "$R/timedmunlock" "$R/sparsemunmap" "$W/insns" "$W/guest"
	cp "$ROOT/tests/fixtures/insns/kallsyms" "$W/guest/kallsyms"
	# process 1 is timedmunlock's counted iteration; 2 is sparsemunmap's,
	# which marks no region, so the plugin wrote no file for it
	cp "$ROOT/tests/fixtures/insns/process-0001.tsv" "$W/insns/"
	printf 'timedmunlock\t-\t1\t1\nsparsemunmap\t-\t1\t1\n' >"$R/insns.processes"
	printf 'elapsed\tElapsed\ts\tlower\n' >"$R/timedmunlock/metrics.tsv"
	# 1000 instructions and the clock reads' 75, one ns each
	printf 'metric\tparam\titeration\tvalue\nelapsed\t-\t1\t0.000001075\n' >"$R/timedmunlock/samples.tsv"
	echo "[    1.6] tsc: Refined TSC clocksource calibration: 1000.000 MHz" >"$R/vm-console.log"
	: >"$R/meta"
}
teardown() { common_teardown; }

# Under run.sh's own shell options: a failing command substitution ends it.
collect() {
	run --separate-stderr bash -c 'set -euo pipefail; source "$1/drivers/vm/insns.sh"; RUN_DIR=$2 VM_INSNS=1 VM_INSNS_DIR=$3/insns VM_CLOCK=${4:-icount}
		vm_insns_collect "$3"' _ "$ROOT" "$R" "$W" "$@"
}

@test "the plugin's counts become a function table, metrics and a reconciled row" {
	collect
	[ "$status" -eq 0 ]
	# foo 500 + foo.isra.0 400, folded; bar 90; startup_64 1; [user] 9
	[ "$(cat "$R/timedmunlock/monitors/insns.1.tsv")" = "$(printf 'foo\t900\nbar\t90\n[user]\t9\nstartup_64\t1')" ]
	grep -qx "$(printf 'insns_total\t-\t1\t1000')" "$R/timedmunlock/samples.tsv"
	grep -qx "$(printf 'insns_kernel\t-\t1\t991')" "$R/timedmunlock/samples.tsv"
	grep -qx "$(printf 'insns_user\t-\t1\t9')" "$R/timedmunlock/samples.tsv"
	[ "$(awk -F'\t' '$5 == "insns"' "$R/timedmunlock/metrics.tsv" | wc -l)" -eq 3 ]
	# gap 0, margin 2 + 2 exits + 4 over-counted at most
	[ "$(awk -F'\t' '$1 == "timedmunlock" { print $9, $10, $11 }' "$R/insns.tsv")" = "0 8 ok" ]
	zcmp "$R/timedmunlock/monitors/insns.1.addr.tsv.gz" "$ROOT/tests/fixtures/insns/process-0001.tsv"
	[ "$(zcat "$R/kallsyms.gz" | wc -l)" -eq 7 ]
	[[ $stderr == *"insns: 1 processes profiled; 1 regions against their elapsed: all reconcile, within 0 ns"* ]]
}

@test "task regions (a bench's threads or readers) get a function table of their own and a count in insns.tsv" {
	# two task regions ended, the work of two threads: foo 200 + foo.isra.0 100, bar 400, [user] 30
	cp "$ROOT/tests/fixtures/insns/process-0001.tasks.tsv" "$W/insns/"
	collect
	[ "$status" -eq 0 ]
	[ "$(cat "$R/timedmunlock/monitors/insns-tasks.1.tsv")" = "$(printf 'bar\t400\nfoo\t300\n[user]\t30')" ]
	# the timed region's table and metrics are the timed region's alone
	[ "$(cat "$R/timedmunlock/monitors/insns.1.tsv")" = "$(printf 'foo\t900\nbar\t90\n[user]\t9\nstartup_64\t1')" ]
	grep -qx "$(printf 'insns_total\t-\t1\t1000')" "$R/timedmunlock/samples.tsv"
	[ "$(awk -F'\t' '$1 == "timedmunlock" { print $3, $11, $12 }' "$R/insns.tsv")" = "1 ok 2" ]
	[ "$(awk -F'\t' '$1 == "sparsemunmap" { print $3, $12 }' "$R/insns.tsv")" = "0 0" ]
}

@test "a process without task regions: no task table, 0 in insns.tsv" {
	collect
	[ "$status" -eq 0 ]
	[ ! -e "$R/timedmunlock/monitors/insns-tasks.1.tsv" ]
	[ "$(awk -F'\t' '$1 == "timedmunlock" { print $12 }' "$R/insns.tsv")" = 0 ]
}

@test "a bench that marks no timed region: a row of 0 regions a process, a skipped line, and nothing else" {
	collect
	[ "$status" -eq 0 ]
	[[ $stderr == *"insns: sparsemunmap marks no timed region of its own"* ]]
	grep -q '^insns	the bench marks no timed region$' "$R/sparsemunmap/monitors/skipped"
	[ ! -e "$R/sparsemunmap/monitors/insns.1.tsv" ]
	# what compare.sh --profile reads as the reason; counted, it is not
	[ "$(awk -F'\t' '$1 == "sparsemunmap" { print $2, $3, $4, $11 }' "$R/insns.tsv")" = "1 0 - -" ]
	[[ $stderr == *"insns: 1 processes profiled;"* ]]
}

@test "a swept bench whose region one point does not mark: that point's rows have 0 regions, the bench no skipped line" {
	# timedmunlock swept over SIZE: the plugin counted a region at 64M
	# (process 1) and none at 1G (process 2)
	printf 'timedmunlock\t64M\t1\tSIZE=64M.1\ntimedmunlock\t1G\t1\tSIZE=1G.1\n' >"$R/insns.processes"
	printf 'metric\tparam\titeration\tvalue\nelapsed\t64M\t1\t0.000001075\n' >"$R/timedmunlock/samples.tsv"
	collect
	[ "$status" -eq 0 ]
	[ -s "$R/timedmunlock/monitors/insns.SIZE=64M.1.tsv" ]
	[ "$(awk -F'\t' 'NR > 1 { print $1, $2, $3 }' "$R/insns.tsv" | paste -sd ,)" = "timedmunlock SIZE=64M.1 1,timedmunlock SIZE=1G.1 0" ]
	[ ! -e "$R/timedmunlock/monitors/skipped" ]
	[[ $stderr == *"insns: some processes of timedmunlock marked no timed region (regions 0 in $R/insns.tsv)"* ]]
}

@test "an elapsed the instructions do not account for is said, and the row says outside" {
	printf 'metric\tparam\titeration\tvalue\nelapsed\t-\t1\t0.000001100\n' >"$R/timedmunlock/samples.tsv"
	collect
	[ "$(awk -F'\t' '$1 == "timedmunlock" { print $9, $11 }' "$R/insns.tsv")" = "25 outside" ]
	[[ $stderr == *"outside the margin: timedmunlock/1 (25 ns)"* ]]
}

@test "TCG with the realtime clock: counted, but a nanosecond is no instruction, so nothing is reconciled" {
	printf 'metric\tparam\titeration\tvalue\nelapsed\t-\t1\t0.000001100\n' >"$R/timedmunlock/samples.tsv"
	collect realtime
	[ "$status" -eq 0 ]
	[ "$(awk -F'\t' '$1 == "timedmunlock" { print $4, $9, $10, $11 }' "$R/insns.tsv")" = "1000 - - -" ]
	[[ $stderr == *"insns: 1 processes profiled"* ]]
	[[ $stderr != *"outside"* ]]
}

@test "no kallsyms from the guest: one line, the plugin's files kept" {
	rm "$W/guest/kallsyms"
	collect
	[ "$status" -ne 0 ]
	[[ $stderr == *"insns: the guest sent no /proc/kallsyms; the plugin's counts are in $R/insns-raw"* ]]
	[ -f "$R/insns-raw/process-0001.tsv" ]
}

@test "a host run lists the monitor as skipped, saying where it runs" {
	run --separate-stderr "$ROOT/run.sh" --dry-run --monitors insns --set SIZE=64M timedmunlock
	[ "$status" -eq 0 ]
	run --separate-stderr bash -c 'source "$1/drivers/monitors/insns.sh"; insns_available' _ "$ROOT"
	[ "$status" -eq 1 ]
	[ "$output" = "counts instructions only in run.sh --kernel runs under TCG (a QEMU plugin on the host counts them)" ]
}
