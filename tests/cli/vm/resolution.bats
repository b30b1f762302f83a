#!/usr/bin/env bats
# tools/resolution.sh: drivers/vm/resolution.tsv's lines from pairs of
# boots, on hand-made runs whose spreads are computed here by hand.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

# run_dir DIR KERNEL VALUE...: a run of timedmunlock whose iterations'
# elapsed are the VALUEs.
run_dir() {
	local dir=$1 kernel=$2 i=0 v
	shift 2
	mkdir -p "$dir/timedmunlock"
	printf 'kernel_release: %s\n' "$kernel" >"$dir/meta"
	printf 'BENCH=timedmunlock\n' >"$dir/timedmunlock/config"
	printf 'metric\tparam\titeration\tvalue\n' >"$dir/timedmunlock/samples.tsv"
	for v in "$@"; do
		printf 'elapsed\t-\t%d\t%s\n' $((++i)) "$v" >>"$dir/timedmunlock/samples.tsv"
	done
}

@test "one pair: the CoeffVar within a boot, the widest range, and whether the boots were identical" {
	# each boot 1.0, 1.1: mean 1.05, pooled sd sqrt((0.005 + 0.005) / 2) =
	# 0.0707, CoeffVar 0.0673; range 0.1 / 1.05 = 0.0952
	run_dir "$RES/a" k 1.0 1.1
	run_dir "$RES/b" k 1.0 1.1
	run --separate-stderr "$ROOT/tools/resolution.sh" "$RES/a" "$RES/b"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "$(printf 'timedmunlock\telapsed\t-\t6.73e-02\t9.52e-02\tidentical\tk\t2')" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "several pairs: one line per point and kernel, the widest of its pairs, differ if one pair did" {
	# second pair: 1.0 1.0 and 1.0 1.2: means 1.0 and 1.1, pooled sd
	# sqrt(0.02 / 2) = 0.1 over 1.05: 0.0952; range 0.2 / 1.1 = 0.182
	run_dir "$RES/a" k 1.0 1.1
	run_dir "$RES/b" k 1.0 1.1
	run_dir "$RES/c" k 1.0 1.0
	run_dir "$RES/d" k 1.0 1.2
	run_dir "$RES/e" other 2.0 2.0
	run_dir "$RES/f" other 2.0 2.0
	run --separate-stderr "$ROOT/tools/resolution.sh" "$RES/a" "$RES/b" "$RES/c" "$RES/d" "$RES/e" "$RES/f"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "$(printf 'timedmunlock\telapsed\t-\t9.52e-02\t1.82e-01\tdiffer\tk\t2')" ]
	[ "${lines[2]}" = "$(printf 'timedmunlock\telapsed\t-\t0.00e+00\t0.00e+00\tidentical\tother\t2')" ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "an odd number of runs, or one that is not a directory, is refused with the usage" {
	run_dir "$RES/a" k 1.0 1.1
	run --separate-stderr "$ROOT/tools/resolution.sh" "$RES/a"
	[ "$status" -eq 2 ]
	[[ $stderr == "usage: "*"RUN_A RUN_B [RUN_A RUN_B ...]"* ]]
	run --separate-stderr "$ROOT/tools/resolution.sh" "$RES/a" "$RES/nope"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
}
