#!/usr/bin/env bats
# bench/timedmunlock run directly: what it reports besides elapsed.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

B=$ROOT/build/bin/timedmunlock

metric() { awk -F'\t' -v m="$1" '$1 == m { print $2 }' <<<"$output"; }

@test "munlock_cpu is the munlock's CPU time: part of elapsed, within the shell's time" {
	TIMEFORMAT='%U %S'
	{ time "$B" --size 64M >"$BATS_TEST_TMPDIR/out"; } 2>"$BATS_TEST_TMPDIR/time"
	output=$(cat "$BATS_TEST_TMPDIR/out")
	read -r user sys <"$BATS_TEST_TMPDIR/time"
	[ "$(metric pages)" -eq 16384 ]
	# The CPU clock is read just outside the wall-clock reads, so it also
	# holds two system calls and whatever interrupt lands between them: a
	# fixed 0.5 ms allowance, far below the 40 ms populate a wrongly placed
	# read would add (seen: 5.696 ms CPU against 5.622 ms elapsed).
	awk -v c="$(metric munlock_cpu)" -v e="$(metric elapsed)" -v u="$user" -v s="$sys" \
		'BEGIN { exit !(c > 0 && c <= e * 1.01 + 0.0005 && c <= u + s + 0.002) }'
}
