#!/usr/bin/env bats
# ITERATIONS=auto: iterate until the mean's confidence interval is narrow enough.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

counted() { awk -F'\t' '$1 == "elapsed"' "$1/timedmunlock/samples.tsv" | wc -l; }

@test "auto stops at the third iteration once the interval is within a loose target" {
	run "$ROOT/run.sh" -n a -o "$RES" -i auto --set SIZE=8M --set WARMUP=0 --set CI_TARGET=100000% timedmunlock
	[ "$status" -eq 0 ]
	[ "$(counted "$RES/a")" -eq 3 ]
	grep -q '^stopped: CI_TARGET: 95% CI of the mean within ±100000% after 3 iterations$' "$RES/a/timedmunlock/config"
}

@test "auto stops at MAX_ITERATIONS when the target is out of reach, and says how wide the interval got" {
	run "$ROOT/run.sh" -n b -o "$RES" -i auto --set SIZE=8M --set WARMUP=0 --set CI_TARGET=0.00001% --set MAX_ITERATIONS=4 timedmunlock
	[ "$status" -eq 0 ]
	[ "$(counted "$RES/b")" -eq 4 ]
	grep -q '^stopped: MAX_ITERATIONS=4 reached with the 95% CI at ±[0-9.]*%$' "$RES/b/timedmunlock/config"
}

@test "the interval auto reports is the one computed from the samples by hand" {
	run "$ROOT/run.sh" -n c -o "$RES" -i auto --set SIZE=8M --set WARMUP=0 --set CI_TARGET=0.00001% --set MAX_ITERATIONS=5 timedmunlock
	[ "$status" -eq 0 ]
	said=$(sed -n 's/^stopped: .*±\([0-9.]*\)%$/\1/p' "$RES/c/timedmunlock/config")
	# t(0.975, 4) = 2.776445 from printed tables; half width relative to the mean
	want=$(awk -F'\t' '$1 == "elapsed" { x[++n] = $4; s += $4 } END {
		m = s / n; for (i = 1; i <= n; i++) v += (x[i] - m) ^ 2
		printf "%.2f", 100 * 2.776445 * sqrt(v / (n - 1)) / sqrt(n) / m }' "$RES/c/timedmunlock/samples.tsv")
	[ "$said" = "$want" ]
}

@test "auto stops at MAX_TIME" {
	run "$ROOT/run.sh" -n d -o "$RES" -i auto --set SIZE=1G --set WARMUP=0 --set CI_TARGET=0.00001% --set MAX_TIME=1 timedmunlock
	[ "$status" -eq 0 ]
	grep -q '^stopped: MAX_TIME=1s reached after [0-9]* iterations' "$RES/d/timedmunlock/config"
	[ "$(counted "$RES/d")" -lt 30 ]
}

@test "bad auto settings are refused in one line" {
	for set in CI_TARGET=0% CI_TARGET=1 CI_TARGET=x% MAX_ITERATIONS=2 MAX_TIME=0 ITERATIONS=autox; do
		run --separate-stderr "$ROOT/run.sh" -n e -o "$RES" --set "$set" timedmunlock
		assert_one_line_error
		[[ $stderr == *"${set%%=*}="* ]]
	done
	[ ! -e "$RES/e" ]
}
