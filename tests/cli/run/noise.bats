#!/usr/bin/env bats
# Noise control: CPU binding, caches and compaction between iterations, and
# refusing to measure on a busy machine.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; SPINNERS=(); }
teardown() {
	[ ${#SPINNERS[@]} -eq 0 ] || kill "${SPINNERS[@]}" 2>/dev/null || true
	common_teardown
}

spin_every_cpu() {
	local i
	for ((i = 0; i < $(nproc); i++)); do
		(while :; do :; done) &
		SPINNERS+=($!)
	done
}

@test "a run refuses to measure while other work keeps every CPU busy" {
	unset MMDELTA_IGNORE_LOAD
	spin_every_cpu
	run --separate-stderr "$ROOT/run.sh" -n busy -o "$RES" --set SIZE=4M -i 1 timedmunlock
	assert_one_line_error
	[[ $stderr == *"the machine is busy (cpu busy"*"pass --ignore-load"* ]]
	[ ! -e "$RES/busy" ]
	[ -z "$(ls -A "$RES")" ]
}

@test "--ignore-load measures anyway and records the load in meta" {
	unset MMDELTA_IGNORE_LOAD
	spin_every_cpu
	run "$ROOT/run.sh" -n busy -o "$RES" --ignore-load --set SIZE=4M -i 1 timedmunlock
	[ "$status" -eq 0 ]
	grep -q '^load_at_start: cpu busy [0-9.]* of [0-9]* CPUs, loadavg [0-9.]*$' "$RES/busy/meta"
}

@test "CPU= binds the bench to that CPU through numactl" {
	run "$ROOT/run.sh" -n cpu -o "$RES" --set SIZE=4M --set CPU=0 -i 1 timedmunlock
	[ "$status" -eq 0 ]
	grep -q '^command: numactl --membind=0 --physcpubind=0 bench/timedmunlock' "$RES/cpu/timedmunlock/config"
}

@test "DROP_CACHES=yes drops the caches before every iteration" {
	count() { awk '$1 == "drop_pagecache" { print $2 }' /proc/vmstat; }
	[ -n "$(count)" ] || skip "kernel has no drop_pagecache counter"
	before=$(count)
	run "$ROOT/run.sh" -n dc -o "$RES" --set SIZE=4M --set DROP_CACHES=yes --set COMPACT=yes --set WARMUP=1 -i 2 timedmunlock
	[ "$status" -eq 0 ]
	# the kernel counts each write to drop_caches: one per iteration, warm-up included
	[ $(($(count) - before)) -eq 3 ]
}

@test "bad noise-control values are refused in one line" {
	for set in CPU=99999 CPU=x DROP_CACHES=maybe COMPACT=1; do
		run --separate-stderr "$ROOT/run.sh" -n e -o "$RES" --set "$set" timedmunlock
		assert_one_line_error
		[[ $stderr == *"${set%%=*}="* ]]
	done
}
