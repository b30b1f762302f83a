#!/usr/bin/env bats
# No size, however large, wakes the OOM killer.  Sizes of
# 2x and 100x MemTotal are refused (typed) or capped (a config's), with the
# limit and the excess named, before anything is mapped.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	MEMTOTAL=$(($(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) * 1024))
	OOM_BEFORE=$(oom_lines)
}
teardown() { common_teardown; }

# Kernel log lines of OOM kills; dmesg is readable here as root.
oom_lines() { dmesg | grep -cE 'Out of memory|oom-kill' || true; }

assert_no_oom() {
	local now
	now=$(oom_lines)
	[ "$now" -eq "$OOM_BEFORE" ] || { dmesg | grep -E 'Out of memory|oom-kill' | tail -n 5; return 1; }
}

# "9.3G" -> bytes, as size_format prints them.
bytes_of() {
	awk -v s="$1" 'BEGIN { n = s + 0; u = substr(s, length(s))
		e = index("KMGTP", u); while (e-- > 0) n *= 1024; printf "%.0f\n", n }'
}

refused_directly() {
	local bench=$1 factor=$2
	run --separate-stderr "$ROOT/build/bin/$bench" --size $((factor * MEMTOTAL))
	assert_one_line_error
	[ "$status" -eq 2 ]
	[[ $stderr == "$bench: --size "*" is more than this machine can hold: MemAvailable less a margin"*" allows "*" ("*" over)" ]]
	assert_no_oom
}

capped_directly() {
	local bench=$1 factor=$2 to
	run --separate-stderr "$ROOT/build/bin/$bench" --size $((factor * MEMTOTAL)) --cap-size --check
	[ "$status" -eq 0 ]
	[[ $stderr == "$bench: --size capped from "*" to "*", "*" less (MemAvailable"* ]]
	to=$(sed -n 's/.* to \([0-9.]*[KMGTP]\), .*/\1/p' <<<"$stderr")
	[ "$(bytes_of "$to")" -lt "$MEMTOTAL" ]
}

@test "timedmunlock --size 2x MemTotal is refused, naming the limit and the excess" {
	refused_directly timedmunlock 2
}

@test "timedmunlock --size 100x MemTotal is refused, naming the limit and the excess" {
	refused_directly timedmunlock 100
}

@test "timedmunlock --size 2x and 100x MemTotal with --cap-size is capped below MemTotal" {
	capped_directly timedmunlock 2
	capped_directly timedmunlock 100
}

@test "procmunmap --size 2x and 100x MemTotal is refused, or capped with --cap-size" {
	[ -x "$ROOT/build/bin/procmunmap" ] || make -s -C "$ROOT" build/bin/procmunmap
	refused_directly procmunmap 2
	refused_directly procmunmap 100
	capped_directly procmunmap 2
	capped_directly procmunmap 100
}

@test "run.sh --set SIZE=2x or 100x MemTotal is refused and writes nothing" {
	local f
	for f in 2 100; do
		run --separate-stderr "$ROOT/run.sh" -o "$RES/r" -n big --set SIZE=$((f * MEMTOTAL)) timedmunlock
		assert_one_line_error
		[[ $stderr == *"--size "*" is more than this machine can hold: MemAvailable"*" over)" ]]
		[ ! -e "$RES/r" ]
	done
	assert_no_oom
}

@test "a config with SIZE=200% is refused: a share of memory is 1-100%" {
	printf 'BENCH=timedmunlock\nSIZE=200%%\n' >"$RES/cfg"
	run --separate-stderr "$ROOT/run.sh" -o "$RES/r" -n big "$RES/cfg"
	assert_one_line_error
	[ "$stderr" = "mmdelta: $RES/cfg:2: --size 200%: percentage must be 1-100" ]
	[ ! -e "$RES/r" ]
}

# This one maps and locks all the machine can hold: 30 s and more on a VM
# that zeroes pages slowly, and it waits for any other run.sh, so it runs
# only when asked (MMDELTA_TEST_FULL_MEMORY=1 make cli).
@test "a config asking for 100x MemTotal runs capped, logs the cap, and wakes no OOM killer" {
	[ "${MMDELTA_TEST_FULL_MEMORY:-0}" = 1 ] || skip "maps all free memory; set MMDELTA_TEST_FULL_MEMORY=1"
	printf 'BENCH=timedmunlock\nSIZE=%s\nITERATIONS=1\nWARMUP=0\n' $((100 * MEMTOTAL)) >"$RES/cfg"
	run "$ROOT/run.sh" -o "$RES" -n capped "$RES/cfg"
	[ "$status" -eq 0 ]
	d=$RES/capped/timedmunlock
	grep -q "^timedmunlock: --size capped from .* (MemAvailable less a margin" "$d/log"
	pages=$(awk -F'\t' '$1 == "pages" { print $4 }' "$d/samples.tsv")
	[ "$pages" -gt 0 ]
	[ $((pages * 4096)) -lt "$MEMTOTAL" ]
	assert_no_oom
}

# The memlock path needs a process that may not raise its limit: nobody,
# with no capabilities, under an 8M RLIMIT_MEMLOCK.
as_nobody_8m() { prlimit --memlock=8388608:8388608 setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

@test "more than RLIMIT_MEMLOCK is refused, naming the limit and the excess" {
	run --separate-stderr as_nobody_8m "$ROOT/build/bin/timedmunlock" --size 64M
	assert_one_line_error
	[ "$stderr" = "timedmunlock: --size 64.0M is more than this process may lock: RLIMIT_MEMLOCK allows 8.0M (56.0M over); run as root or raise it with ulimit -l" ]
}

@test "more than RLIMIT_MEMLOCK with --cap-size locks what the limit allows" {
	run --separate-stderr as_nobody_8m "$ROOT/build/bin/timedmunlock" --size 64M --cap-size
	[ "$status" -eq 0 ]
	[ "$stderr" = "timedmunlock: --size capped from 64.0M to 8.0M, 56.0M less (RLIMIT_MEMLOCK)" ]
	grep -q "^pages	2048$" <<<"$output"
}
