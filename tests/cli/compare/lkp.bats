#!/usr/bin/env bats
# compare.sh --format lkp: the kernel test robot's comparison layout and
# names (docs/robot.md), on hand-made icount runs whose every figure
# tests/fixtures/lkp/README.md works out by hand with the robot's
# arithmetic: mean, population %stddev cut to a whole percent and shown
# above 2%, %change of the mean, points for perf-profile shares.

bats_require_minimum_version 1.5.0

setup() {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/lkp
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
	export MMDELTA_RESOLUTION=$FIX/resolution.tsv
	load ../helpers
}

# lkp [OPTIONS] RUN...: compare.sh --format lkp of fixture runs
lkp() { "$COMPARE" -o "$FIX" --format lkp "$@"; }

# row NAME: the first row of the output that ends in NAME
row() { grep -m1 -- "  $1\$" <<<"$output"; }

@test "the layout matches the golden file, two runs and three with --profile" {
	run --separate-stderr lkp base cand
	[ "$status" -eq 0 ]
	diff -u "$FIX/golden/base-cand.txt" <(printf '%s\n' "$output")
	run --separate-stderr lkp --profile base cand revert
	[ "$status" -eq 0 ]
	diff -u "$FIX/golden/base-cand-revert-profile.txt" <(printf '%s\n' "$output")
}

@test "per_thread_ops: mean, the population %stddev and the change, by hand" {
	run --separate-stderr lkp base cand
	[ "$status" -eq 0 ]
	# 90000 110000 90000 110000: 100000, population deviation 10000 = 10%
	# (n - 1 would give 11%); 59800: -40.2%
	[ "$(row will-it-scale.per_thread_ops)" = "    100000 ± 10%     -40.2%      59800        will-it-scale.per_thread_ops" ]
	[ "$(row will-it-scale.workload)" = "    100000 ± 10%     -40.2%      59800        will-it-scale.workload" ]
}

@test "the robot's number formats: whole from 1000, %.4g above 1e8, two decimals below 1000" {
	run --separate-stderr lkp base cand
	[ "$(row willitscale.ns_per_op)" = "     10000 ± 10%     +67.2%      16722        willitscale.ns_per_op" ]
	[ "$(row stress-ng.mremap.ops)" = "   2.5e+08            -6.2%  2.345e+08        stress-ng.mremap.ops" ]
	[ "$(row willitscale.elapsed.ms)" = "      1.00 ± 10%     +67.2%       1.67        willitscale.elapsed.ms" ]
}

@test "names: the robot's where it has the metric, the suite's own where it has not" {
	run --separate-stderr lkp base cand
	[ "$status" -eq 0 ]
	row stress-ng.mremap.ops_per_sec
	row proc-vmstat.pgfault
	row stressng.ns_per_bogo_op
	run grep -c "will-it-scale.ns_per_op\|stress-ng.mremap.ns_per_bogo_op" <<<"$output"
	[ "$output" = 0 ]
}

@test "each block is headed by the robot's axes and the runs as its commit list" {
	run --separate-stderr lkp base cand
	grep -qx "mode/nr_task/test/testcase:" <<<"$output"
	grep -qx "  thread/1/mmap1/will-it-scale" <<<"$output"
	grep -qx "  thread/2/mmap1/will-it-scale" <<<"$output"
	grep -qx "  1/mremap/stress-ng" <<<"$output"
	grep -qx '  cand ("6.12.117+deb12-cloud-amd64")' <<<"$output"
}

@test "--profile: shares of the iteration's instructions, changed in points" {
	run --separate-stderr lkp --profile base cand
	[ "$status" -eq 0 ]
	# 0 -> 240 of 1200: +20.0 points; [user] 40/30 -> 260/1200: 35 ± 14% -> 21.67
	[ "$(row perf-profile.self.instructions.can_modify_mm)" = "      0.00           +20.0       20.00        perf-profile.self.instructions.can_modify_mm" ]
	[ "$(row 'perf-profile.self.instructions.\[user\]')" = "     35.00 ± 14%     -13.3       21.67        perf-profile.self.instructions.[user]" ]
	[ "$(row perf-profile.self.instructions.do_vmi_align_munmap)" = "     65.00 ±  7%      -6.7       58.33        perf-profile.self.instructions.do_vmi_align_munmap" ]
	[ "$(row insns.total)" = "      1000           +20.0%       1200        insns.total" ]
	grep -qx "cand: instructions +20% (exact: the same count in every iteration), beyond willitscale's icount resolution (0.5%): the work changed" <<<"$output"
}

@test "--profile: the same work under another name is said not to have changed" {
	run --separate-stderr lkp --profile base revert
	[ "$status" -eq 0 ]
	grep -qx "revert: instructions +0% (exact: the same count in every iteration), within willitscale's icount resolution (0.5%): the work did not change" <<<"$output"
	[ "$(row perf-profile.self.instructions.do_vmi_align_munmap)" = "     65.00 ±  7%      +0.0       65.00 ±  7%  perf-profile.self.instructions.do_vmi_align_munmap" ]
}

@test "the region's instructions are one row, from the insns monitor or else from the profiles" {
	run --separate-stderr lkp --profile base cand
	[ "$status" -eq 0 ]
	run grep -c "  insns.total$" <<<"$output"
	# TASKS=1 and TASKS=2, each once: the metric's row, not the profile's again
	[ "$output" = 2 ]
	# base and revert do not differ, so insns_total is not a shown row: at
	# TASKS=1 the profiles' total stands in, TASKS=2 has no profile
	run --separate-stderr lkp --profile base revert
	[ "$(row insns.total)" = "      1000            +0.0%       1000        insns.total" ]
	run grep -c "  insns.total$" <<<"$output"
	[ "$output" = 1 ]
}

@test "--profile of native runs: perf's self shares, named by its event" {
	# tests/fixtures/profile/README.md: f 70/72/71 against 40/42/41, g the
	# same either side; elapsed 100, 102, 101 ms against 80, 82, 81
	run --separate-stderr "$COMPARE" --format lkp --profile "$FIX/../profile/sbase" "$FIX/../profile/snew"
	[ "$status" -eq 0 ]
	# 71, population deviation sqrt(2/3) = 0.82 (1.2%, not shown); 41: -30 points
	[ "$(row perf-profile.self.cpu-clock.f)" = "     71.00           -30.0       41.00        perf-profile.self.cpu-clock.f" ]
	# (81 - 101)/101 = -19.8%
	[ "$(row timedmunlock.elapsed.ms)" = "    101.00           -19.8%      81.00        timedmunlock.elapsed.ms" ]
	grep -qx "snew: perf-profile rows: 1 of 2 functions changed significantly (cpu-clock without hardware counters: samples carry interrupt-enable skid)" <<<"$output"
}

@test "without --profile there are no profile rows" {
	run --separate-stderr lkp base cand
	[ "$status" -eq 0 ]
	run grep -c "perf-profile\|profile rows" <<<"$output"
	[ "$output" = 0 ]
}

@test "runs that differ in more than the kernel say so above the blocks" {
	cp -r "$FIX/base" "$FIX/cand" "$BATS_TEST_TMPDIR"
	sed -i 's/^MODE=thread$/MODE=process/' "$BATS_TEST_TMPDIR/cand/willitscale/config"
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_TMPDIR" --format lkp base cand
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Not the same in every run:" ]
	[ "${lines[1]}" = "  willitscale MODE: thread in base; process in cand" ]
}

@test "no line ends in a blank" {
	run --separate-stderr lkp --profile base cand revert
	[ "$status" -eq 0 ]
	run grep -c ' $' <<<"$output"
	[ "$output" = 0 ]
}

@test "an unknown format is refused in one line naming lkp among the formats" {
	run --separate-stderr "$COMPARE" -o "$FIX" --format lkpp base cand
	assert_one_line_error
	[[ "$stderr" == *"expected text, markdown, csv, json, html or lkp"* ]]
}
