#!/usr/bin/env bats
# bisect.sh's logic on a stand-in for run.sh --kernel (bisect_fake_run.bash:
# no VM, each fake image's figures come from a table), so every decision can
# be checked fast: the step choice, the three-way verdict, skipped points,
# ends that do not differ, a culprit at either end, tree mode with a failing
# build and a kernel that does not boot, interrupts, and bad input.

bats_require_minimum_version 1.5.0
load ../helpers
load bisect_tree
load bisect_setup

@test "the step choice: midpoint of the undecided range, K points a round, skips avoided" {
	source_pick
	[ "$(bisect_points 1 good - - - - - bad)" = 3 ]
	[ "$(bisect_points 1 good - - bad - - bad)" = 1 ]
	[ "$(bisect_points 1 good good - bad - - bad)" = 2 ]
	[ "$(bisect_points 1 good - - skip - - bad)" = 2 ]
	[ "$(bisect_points 3 good - - - - - - - bad | tr '\n' ' ')" = "2 4 6 " ]
	[ "$(bisect_points 4 good - - bad | tr '\n' ' ')" = "1 2 " ]
	[ -z "$(bisect_points 1 good bad - bad)" ]
	[ "$(bisect_range good good bad good bad)" = "1 2" ]
	[ "$(bisect_outcome good good bad - bad)" = "culprit 1 2" ]
	[ "$(bisect_outcome good skip bad bad)" = "ambiguous 0 2" ]
}

@test "a culprit in the middle of 7: named, at most ceil(log2 7)+2 boots, every step in the report" {
	images 10 10 10 12 12 12 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J .result)" = culprit ]
	[ "$(J .first_bad.run)" = 03-k3 ] && [ "$(J .last_good.run)" = 02-k2 ]
	[ "$(J .first_bad.image)" = "$RES/k3" ] && [ "$(J .first_bad.release)" = k3 ]
	[ "$(J .good_mean)" = 10 ] && [ "$(J .bad_mean)" = 12 ] && [ "$(J .boundary)" = 11 ]
	[ "$(J .metric)" = elapsed ]
	[ "$(boots)" -le $(($(ceil_log2 7) + 2)) ]
	[ "$(J .boots)" = "$(boots)" ]
	# Ends first, then each step with its verdict and mean; each a kept run.
	[ "$(J '[.steps[] | "\(.run):\(.verdict):\(.mean)"] | join(" ")')" = \
		"00-k0:measured:10 06-k6:measured:12 03-k3:measured:12 01-k1:measured:10 02-k2:measured:10" ]
	for r in 00-k0 06-k6 03-k3 01-k1 02-k2; do [ -f "$RES/out/bisect-timedmunlock/$r/meta" ]; done
	grep -q '^bisect of timedmunlock.*: the first bad kernel is k3$' "$RES/out/bisect-timedmunlock/bisect.txt"
	# 10 s -> 12 s of a lower-is-better time: 20% worse, signed as the
	# compare table below it signs it, and said so above the numbers
	grep -q "^  changes:   in percent of the good end's mean, positive = better$" "$RES/out/bisect-timedmunlock/bisect.txt"
	grep -q '^  the step:  10 s (+0%) -> 12 s (-20%)$' "$RES/out/bisect-timedmunlock/bisect.txt"
	grep -q '^2     bad end   06-k6  *measured   12 s (-20%)$' "$RES/out/bisect-timedmunlock/bisect.txt"
	grep -Eq '^Elapsed mean +10\.00 \(  0\.00%\) +12\.00 \*-20\.00%\*' "$RES/out/bisect-timedmunlock/bisect.txt"
	grep -q '^Percentages: change against 02-k2, positive = better.$' "$RES/out/bisect-timedmunlock/bisect.txt"
	[[ ${stderr_lines[-1]} == "mmdelta: bisect: first bad 03-k3 (last good 02-k2), 5 boots in 5 rounds; report in "* ]]
}

@test "a monitor's metric: bisected when the config runs its monitor, refused when it does not" {
	# The step is in mmaplock's count alone; elapsed is the same everywhere.
	images 0 0 4000 4000 4000
	export FAKE_METRIC=mmap_lock_write_acquisitions
	bisect --set MONITORS=mmaplock --metric mmap_lock_write_acquisitions timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J .result)" = culprit ] && [ "$(J .first_bad.run)" = 02-k2 ] && [ "$(J .last_good.run)" = 01-k1 ]
	[ "$(J .metric)" = mmap_lock_write_acquisitions ] && [ "$(J .unit)" = count ] && [ "$(J .better)" = none ]
	[ "$(J .good_mean)" = 0 ] && [ "$(J .bad_mean)" = 4000 ] && [ "$(J .boundary)" = 2000 ]
	rm -rf "$RES/out"
	: >"$FAKE_CALLS"
	bisect --set MONITORS=vmstat --metric mmap_lock_write_acquisitions timedmunlock "${IMGS[@]}"
	refused "--metric mmap_lock_write_acquisitions: timedmunlock has no such metric (elapsed "
	[[ $stderr == *") and none of its monitors (vmstat) records it" ]]
	bisect --set MONITORS=none --metric mmap_lock_write_acquisitions timedmunlock "${IMGS[@]}"
	[[ $stderr == *") and no monitor runs (--set MONITORS=...)" ]]
}

@test "a culprit's report ends with the step's profile difference, one more boot a side with insns" {
	images 10 10 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J .profile_boots)" = 2 ]
	# the bisection's own arguments: the host alone counts (MMDELTA_INSNS)
	grep -q '^01-k1-insns k1 2$' "$FAKE_CALLS"
	grep -q '^02-k2-insns k2 2$' "$FAKE_CALLS"
	# 10 s and 12 s as instructions: fake_step 10000 -> 12000, fake_base
	# 10e9 - 10009 -> 12e9 - 12009, [user] 9 both
	[ "$(J '.profile | "\(.base) \(.new) \(.kind)"')" = "01-k1-insns 02-k2-insns insns" ]
	[ "$(J '.profile.rows[0] | "\(.function) \(.change)"')" = "fake_base 1999998000" ]
	[ "$(J '.profile.rows[1] | "\(.function) \(.change)"')" = "fake_step 2000" ]
	[ "$(J '.profile.total.change')" = 2000000000 ]
	grep -q '^timedmunlock: where the instructions changed, 01-k1-insns -> 02-k2-insns' "$RES/out/bisect-timedmunlock/bisect.txt"
	# the same count in every iteration of each run: a certain change
	grep -Eq '^fake_step +10000 +12000 +\+2000 +0 +0\.0% +exact\*$' "$RES/out/bisect-timedmunlock/bisect.txt"
}

@test "tree form: the step's profile too, one more boot a side of the images its builds kept" {
	tree 10 10 12
	tbisect c0 c2
	[ "$status" -eq 0 ]
	[ "$(J .profile_boots)" = 2 ] && [ "$(J .boots)" = 3 ]
	local good bad
	good=$(sha c1 | cut -c1-12) bad=$(sha c2 | cut -c1-12)
	grep -qx "$good-insns k1 2" "$FAKE_CALLS"
	grep -qx "$bad-insns k2 2" "$FAKE_CALLS"
	[ "$(J '.profile | "\(.base) \(.new)"')" = "$good-insns $bad-insns" ]
	grep -q "^timedmunlock: where the instructions changed, $good-insns -> $bad-insns" "$RES/out/bisect-timedmunlock/bisect.txt"
	grep -Eq '^fake_step +10000 +12000 +\+2000 ' "$RES/out/bisect-timedmunlock/bisect.txt"
	run ! grep -q 'no profile of the step' "$RES/out/bisect-timedmunlock/bisect.txt"
	tree_untouched
}

@test "a culprit at either end: right after the good end, or the bad end itself" {
	images 10 12 12 12 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J .first_bad.run)" = 01-k1 ] && [ "$(J .last_good.run)" = 00-k0 ]
	rm -rf "$RES/out" && : >"$FAKE_FIGURES" && : >"$FAKE_CALLS"
	images 10 10 10 10 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J .first_bad.run)" = 04-k4 ] && [ "$(J .last_good.run)" = 03-k3 ]
	[ "$(boots)" -le $(($(ceil_log2 5) + 2)) ]
}

@test "a figure that went up (higher is worse here) is bisected the same way" {
	images 20 20 20 20 15 15
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J .first_bad.run)" = 04-k4 ] && [ "$(J .boundary)" = 17.5 ]
}

@test "ends that do not differ: said in one line, exit 3 (inconclusive), nothing bisected" {
	images 10 11 12 10
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 3 ]
	[[ $stderr == *"mmdelta: bisect: the ends do not differ: elapsed good 10 s, bad 10 s"* ]]
	[ "$(boots)" -eq 2 ]
	[ "$(J .result)" = "no difference" ] && [ "$(J .first_bad)" = null ]
}

@test "--threshold: ends closer than it are not bisected; points are held against it" {
	images 10 10.4 11 11
	bisect --threshold 20 timedmunlock "${IMGS[@]}"
	[ "$status" -eq 3 ]
	[[ $stderr == *"mmdelta: bisect: the ends differ by only 10.00%, less than --threshold 20%"* ]]
	rm -rf "$RES/out" && : >"$FAKE_CALLS"
	# The midpoint would call 10.4 good; 3% from 10 makes it bad.
	bisect --threshold 3 timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J .first_bad.run)" = 01-k1 ] && [ "$(J .boundary)" = 10.3 ]
}

@test "an unclear point is measured again with 2x and 4x the iterations until it is decided" {
	# 11.6 with a spread of 0.5 against the midpoint 11: the interval of 2
	# values straddles it (±6.4), of 4 still (±0.92), of 8 no longer (±0.45).
	images 10 11.6:0.5 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J '[.steps[] | select(.run == "01-k1") | "\(.iterations):\(.verdict)"] | join(" ")')" = "2:remeasure 4:remeasure 8:measured" ]
	[ "$(J .first_bad.run)" = 01-k1 ] && [ "$(J .boots)" = 5 ]
	# one unit a line, to the interval's second digit: 11.6 ± t(0.975, 7) * 0.5345 / sqrt(8) = 0.44687;
	# an exact figure (both iterations alike) as measured
	grep -qx 'mmdelta: bisect: 01-k1: elapsed mean 11.60 s ± 0.45 s: measured' <<<"$stderr"
	grep -qx 'mmdelta: bisect: 00-k0: elapsed mean 10 s ± 0 s: measured' <<<"$stderr"
}

@test "figures in one unit a line, compare.sh's, to the digits that mean something" {
	# exact ends (icount: the iterations alike): the midpoint 6.592233 ms,
	# not the double 0.006592232999999999 s
	images 0.00659 0.00659 0.006594466
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	grep -qx 'mmdelta: bisect: 00-k0: elapsed mean 6.59 ms ± 0 ms: measured' <<<"$stderr"
	grep -q '^  ends:      good 6.59 ms (+0%), bad 6.594466 ms (-0.07%); a point is bad beyond 6.592233 ms (-0.03%) (the midpoint)$' \
		"$RES/out/bisect-timedmunlock/bisect.txt"
	grep -q '^3     step      01-k1  *measured   6.59 ms (+0%)$' "$RES/out/bisect-timedmunlock/bisect.txt"
	# 5.9 ms ± 1 µs a side: the interval of two is t(0.975, 1) * 1.4142e-6 / sqrt(2)
	# = 12.706 µs, so the mean to its second digit, 0.013 ms
	rm -rf "$RES/out" && : >"$FAKE_FIGURES" && : >"$FAKE_CALLS"
	images 0.0059:0.000001 0.0059:0.000001 0.0072:0.000001
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	grep -qx 'mmdelta: bisect: 02-k2: elapsed mean 7.200 ms ± 0.013 ms: measured' <<<"$stderr"
	grep -q '^  the step:  5.900 ms (+0%) -> 7.200 ms (-22.03%)$' "$RES/out/bisect-timedmunlock/bisect.txt"
	grep -q 'a point is bad beyond 6.550 ms (-11.02%) (the midpoint)$' "$RES/out/bisect-timedmunlock/bisect.txt"
}

@test "a kernel that does not boot is skipped, and so is a point that stays unclear" {
	images 10 10 10 noboot 10 12 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J '[.steps[] | "\(.run):\(.verdict)"] | join(" ")')" = \
		"00-k0:measured 06-k6:measured 03-k3:skip 02-k2:measured 04-k4:measured 05-k5:measured" ]
	[ "$(J .first_bad.run)" = 05-k5 ] && [ "$(J .last_good.run)" = 04-k4 ]
	[[ "$(J '.steps[] | select(.run == "03-k3") | .note')" == *"Kernel panic"* ]]
	[ -d "$RES/out/bisect-timedmunlock/.03-k3.partial" ]
	rm -rf "$RES/out" && : >"$FAKE_FIGURES" && : >"$FAKE_CALLS"
	images 10 10 11.1:3 10 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J '[.steps[] | select(.run == "02-k2") | .verdict] | join(" ")')" = "remeasure remeasure unclear" ]
	[ "$(J .first_bad.run)" = 04-k4 ]
}

@test "skipped points next to the culprit: no single culprit, the candidates named, exit 3" {
	images 10 10 noboot 12 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 3 ]
	[ "$(J .result)" = ambiguous ]
	[ "$(J '.candidates | join(" ")')" = "02-k2 03-k3" ]
	[[ ${stderr_lines[-1]} == "mmdelta: bisect: no single culprit: skipped points leave 02-k2 03-k3; report in "* ]]
}

# A stand-in for Slurm's sinfo, for bisect.sh's check that the cluster
# answers: one partition, debug, the default.  (tests/fleet runs the real
# cluster.)
fake_sinfo() {
	mkdir -p "$RES/bin"
	printf '#!/bin/sh\necho "debug*"\n' >"$RES/bin/sinfo"
	chmod +x "$RES/bin/sinfo"
	export PATH=$RES/bin:$PATH
}
# "RUN:ROUND" of every step, and whether each round's runs overlapped in
# time: every start before the first end of its round.
rounds() { J '[.steps[] | "\(.run):\(.round)"] | join(" ")'; }
round_overlaps() {
	local r runs
	for r in $(J '[.steps[].round] | unique | .[]'); do
		runs=$(J "[.steps[] | select(.round == $r) | .run] | unique | .[]")
		grep -wF "$runs" "$FAKE_CALLS.slurm" | grep -v -- '-insns ' |
			awk '{ s = $2 > s ? $2 : s; if (e == "" || $3 < e) e = $3 } END { exit !(s < e) }' ||
			{ echo "round $r did not run its points at once"; return 1; }
	done
}

@test "--slurm --jobs 3: the ends in one round, then 3 points a round at once; fewer rounds, same culprit" {
	fake_sinfo
	images 10 10 10 10 10 12 12 12 12
	# Sequentially: the ends, then 4, 6, 5, each its own round: 5 rounds.
	FAKE_SECONDS=0.5 bisect --slurm --jobs 3 --slurm-opt --partition=debug timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ] && [ "$(J .first_bad.run)" = 05-k5 ] && [ "$(J .last_good.run)" = 04-k4 ]
	# Range (0,8): 2 4 6 -> (4,6): 5.  Sequentially 4, 6, 5: five rounds.
	[ "$(rounds)" = "00-k0:1 08-k8:1 02-k2:2 04-k4:2 06-k6:2 05-k5:3" ]
	[ "$(J .rounds)" = 3 ] && [ "$(J .boots)" = 6 ] && [ "$(J .jobs)" = 3 ] && [ "$(J .slurm)" = true ]
	round_overlaps
	[ "$(grep -v -- '-insns ' "$FAKE_CALLS.slurm" | grep -c ' --partition=debug$')" = 6 ]
	grep -q '^  boots:     6, in 3 rounds of up to 3 points at once, as Slurm jobs$' "$RES/out/bisect-timedmunlock/bisect.txt"
	[[ ${stderr_lines[-1]} == "mmdelta: bisect: first bad 05-k5 (last good 04-k4), 6 boots in 3 rounds; report in "* ]]
	# A dead kernel in a round is skipped like any; the next round avoids it,
	# and an unclear point is measured again within its round.
	rm -rf "$RES/out" && : >"$FAKE_FIGURES" && : >"$FAKE_CALLS"
	images 10 10 10 10 noboot 10 11.6:0.5 12 12
	bisect --slurm --jobs 3 timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ] && [ "$(J .first_bad.run)" = 06-k6 ]
	[ "$(rounds)" = "00-k0:1 08-k8:1 02-k2:2 04-k4:2 06-k6:2 06-k6:2 06-k6:2 03-k3:3 05-k5:3" ]
	[ "$(J '[.steps[] | select(.run == "06-k6") | .verdict] | join(" ")')" = "remeasure remeasure measured" ]
}

@test "bad input with --slurm: --jobs without --slurm, --jobs 0, the tree form, an unknown partition; exit 2" {
	fake_sinfo
	images 10 12
	bisect --jobs 3 timedmunlock "${IMGS[@]}"
	refused "--jobs needs --slurm: the points of a round are measured at once as Slurm jobs"
	[ "$status" -eq 2 ]
	bisect --slurm --jobs 0 timedmunlock "${IMGS[@]}"
	refused "--jobs 0: must be a whole number > 0 (the points measured at once)"
	[ "$status" -eq 2 ]
	bisect --slurm-opt -pdebug timedmunlock "${IMGS[@]}"
	refused "--slurm-opt needs --slurm"
	bisect --slurm --slurm-opt -plab timedmunlock "${IMGS[@]}"
	refused "partition 'lab' is not in the cluster (it has: debug)"
	[ "$status" -eq 2 ]
	tree 10 12
	tbisect --slurm c0 c1
	refused "--slurm goes with the images form: in a tree, git bisect chooses one commit at a time"
	tree_untouched
}

@test "tree mode --first: git bisect with bisect.sh as its step; a failing build and a dead kernel skipped" {
	tree 10 10 10 10 fail noboot 10 12 12
	tbisect --first c0 c8
	[ "$status" -eq 0 ]
	[ "$(J .result)" = culprit ]
	[ "$(J .first_bad.commit)" = "$(sha c7)" ] && [ "$(J .last_good.commit)" = "$(sha c6)" ]
	[ "$(J .first_bad.run)" = "$(sha c7 | cut -c1-12)" ] && [ "$(J .first_bad.release)" = k7 ]
	[ "$(J .first_bad.image)" = "$RES/out/bisect-timedmunlock/images/$(sha c7 | cut -c1-12).bzImage" ]
	cmp "$(J .first_bad.image)" "$RES/k7"
	# git's order (fixed hashes): c4 c2 c5 c6 c7; each skip says why.
	[ "$(J '[.steps[] | .verdict] | join(" ")')" = "measured measured skip good skip good bad" ]
	[[ $(J '.steps[] | select(.commit == "'"$(sha c4)"'") | .note') == "build failed (log in "* ]]
	[ "$(J '.steps[] | select(.commit == "'"$(sha c4)"'") | .booted')" = false ]
	[[ $(J '.steps[] | select(.commit == "'"$(sha c5)"'") | .note') == *"Kernel panic"* ]]
	[ "$(J .boots)" = 6 ]
	grep -q 'is the first bad commit' "$RES/out/bisect-timedmunlock/.bisect/git-bisect.log"
	grep -q "^commit $(sha c7)\$" "$RES/out/bisect-timedmunlock/bisect.txt"
	grep -q '^    c7$' "$RES/out/bisect-timedmunlock/bisect.txt"
	[[ $stderr == *"mmdelta: bisect: $(sha c5 | cut -c1-12) does not run: the guest kernel panicked"* ]]
	tree_untouched
}

@test "tree mode: a culprit right after GOOD needs no git bisect; a detached HEAD comes back as it was" {
	tree 10 12
	git -C "$RES/tree" checkout -q --detach c0
	tbisect c0 c1
	[ "$status" -eq 0 ]
	[ "$(J .first_bad.commit)" = "$(sha c1)" ] && [ "$(J .last_good.commit)" = "$(sha c0)" ]
	[ "$(git -C "$RES/tree" rev-parse HEAD)" = "$(sha c0)" ]
	[ -z "$(git -C "$RES/tree" symbolic-ref -q HEAD)" ]
}

@test "--dry-run: the points, what each boots, the time from earlier runs; nothing written, refusals as the run's" {
	images 10 10 10 10 10 10 10 10 12
	earlier_boots 40 50 60
	local before
	before=$(results_digest)
	bisect --dry-run --set SIZE=64M timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	grep -Eqx "00-k0 +$RES/k0" <<<"$output" && grep -Eqx "08-k8 +$RES/k8" <<<"$output"
	grep -qx "# each boot: run.sh --kernel IMAGE -o $RES/out/bisect-timedmunlock -n POINT -i 2 --set SIZE=64M timedmunlock" <<<"$output"
	# 8 intervals: 3 halvings a step; the ends, and 2 boots for the profile:
	# 7 boots of the median 50 s
	grep -q '^# boots: the 2 ends, then at most 3 a step (ceil(log2 8); ' <<<"$output"
	grep -qx '# one step: about 5m50s (7 boots)' <<<"$output"
	grep -qx '# each further step: about 2m30s (3 boots) more' <<<"$output"
	[ "$(results_digest)" = "$before" ] && [ ! -s "$FAKE_CALLS" ] && [ ! -e "$RES/out/bisect-timedmunlock" ]
	# --first: the one step only; --slurm --jobs 3: rounds of 3 (8 intervals: 2)
	bisect --dry-run --first timedmunlock "${IMGS[@]}"
	grep -qx '# one step: about 5m50s (7 boots)' <<<"$output"
	run ! grep -q 'further step' <<<"$output"
	fake_sinfo
	bisect --dry-run --slurm --jobs 3 timedmunlock "${IMGS[@]}"
	grep -qx '# one step: about 4m10s (5 rounds)' <<<"$output"
	# without an earlier run, it says it has no figure
	rm -rf "$RES/out"
	bisect --dry-run timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	grep -qx "# no estimate of the time: no earlier --kernel run of timedmunlock in $RES/out" <<<"$output"
	# a refusal is the run's own line
	mkdir -p "$RES/out/bisect-timedmunlock"
	bisect --dry-run timedmunlock "${IMGS[@]}"
	local dry=$stderr
	assert_one_line_error
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 2 ] && [ "$stderr" = "$dry" ] && [[ $dry == *"bisect-timedmunlock exists: name this bisection with -n"* ]]
}

@test "--dry-run in tree form: every commit, which are built, the time of builds and boots; the tree untouched" {
	tree 10 10 12 12 12
	earlier_boots 50
	earlier_builds 200
	tbisect --dry-run c0 c4
	[ "$status" -eq 0 ]
	grep -Eqx "$(sha c0 | cut -c1-12) +GOOD +build +c0" <<<"$output"
	grep -Eqx "$(sha c2 | cut -c1-12) +build +c2" <<<"$output"
	grep -Eqx "$(sha c4 | cut -c1-12) +BAD +build +c4" <<<"$output"
	# 4 intervals: 2 a step, built and booted; 2 boots for the profile
	grep -qx '# one step: about 18m20s (4 builds, 6 boots)' <<<"$output"
	[ ! -s "$FAKE_CALLS" ] && [ ! -e "$RES/out/bisect-timedmunlock" ]
	tree_untouched
	tbisect --dry-run c0 c4 --first
	[ "$status" -eq 0 ]
	grep -qx "# 5 commits, c0 first, c4 last; each built (or its image kept by an earlier run), then booted" <<<"$output"
	# a tree that would be refused is refused now
	git -C "$RES/tree" checkout -q c2
	echo x >"$RES/tree/image"
	tbisect --dry-run c0 c4
	[ "$status" -eq 2 ] && [[ $stderr == *"has uncommitted changes to tracked files"* ]]
}

# interrupted_at_step SIG: bisect.sh on images whose middle run never
# finishes, sent SIG once that run has started; RC is its exit status.
interrupted_at_step() {
	images 10 10 sleep 12 12
	# A background job starts with SIGINT ignored, and bash cannot trap a
	# signal ignored on entry: env gives bisect.sh the default back.
	env --default-signal="$1" "$ROOT/bisect.sh" -o "$RES/out" timedmunlock "${IMGS[@]}" 2>"$RES/err" &
	local pid=$! i
	# up to a minute: a loaded machine starts bisect.sh slowly, and a signal
	# before its traps would end it silently
	for i in $(seq 600); do [ -s "$FAKE_CALLS.pid" ] && break; sleep 0.1; done
	[ -s "$FAKE_CALLS.pid" ]
	kill -"$1" "$pid"
	RC=0
	wait "$pid" || RC=$?
	grep -q "^mmdelta: bisect: interrupted by SIG$1\$" "$RES/err" || { echo "exit $RC"; cat "$RES/err"; false; }
	run ! kill -0 "$(cat "$FAKE_CALLS.pid")" 2>/dev/null
}

@test "Ctrl-C during a step of the images form: run stopped, exit 130, no process left" {
	interrupted_at_step INT
	[ "$RC" -eq 130 ]
}

@test "SIGTERM during a step (a CI job cancelled): run stopped, exit 143 as 128 + SIGTERM, as run.sh's" {
	interrupted_at_step TERM
	[ "$RC" -eq 143 ]
}

@test "Ctrl-C during git bisect run: the step's run stopped, the tree back on its branch" {
	tree 10 10 10 10 sleep 10 12 12 12
	env --default-signal=INT "$ROOT/bisect.sh" -o "$RES/out" --first --tree "$RES/tree" --build "$BUILD" --image bzImage \
		timedmunlock c0 c8 2>"$RES/err" &
	local pid=$! i
	# up to a minute: a loaded machine starts bisect.sh slowly, and a signal
	# before its traps would end it silently
	for i in $(seq 600); do [ -s "$FAKE_CALLS.pid" ] && break; sleep 0.1; done
	[ -s "$FAKE_CALLS.pid" ]
	[ "$(git -C "$RES/tree" rev-parse HEAD)" = "$(sha c4)" ]
	kill -INT "$pid"
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ] || { echo "rc=$rc"; cat "$RES/err"; false; }
	run ! kill -0 "$(cat "$FAKE_CALLS.pid")" 2>/dev/null
	tree_untouched
}

@test "icount runs of another qemu are refused in one line, by bisect.sh and compare.sh" {
	images 10 qemu=8.0.0 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 2 ]
	[ "${stderr_lines[-1]}" = "mmdelta: 00-k0 and 01-k1: icount runs under a different qemu (7.2.22, 8.0.0) do not compare" ]
	run --separate-stderr "$ROOT/compare.sh" "$RES/out/bisect-timedmunlock/00-k0" "$RES/out/bisect-timedmunlock/01-k1"
	assert_one_line_error
	[ "$stderr" = "mmstat: 00-k0 and 01-k1: icount runs under a different qemu (7.2.22, 8.0.0) do not compare" ]
	sed -i 's/^vm_qemu_version: .*/vm_qemu_version: 7.2.22/; s/^vm_cpu_model: .*/vm_cpu_model: max/' \
		"$RES/out/bisect-timedmunlock/01-k1/meta"
	run --separate-stderr "$ROOT/compare.sh" "$RES/out/bisect-timedmunlock/00-k0" "$RES/out/bisect-timedmunlock/01-k1"
	assert_one_line_error
	[[ $stderr == *"icount runs under a different CPU model (qemu64, max) do not compare" ]]
}

# Bad input: one line on stderr, nothing written, the tree as it was.
refused() {
	assert_one_line_error
	[[ $stderr == "mmdelta: $1"* ]] || { echo "stderr: $stderr"; return 1; }
	[ ! -e "$RES/out" ]
	[ "$(wc -l <"$FAKE_CALLS")" -eq 0 ]
}

@test "bad input: fewer than two images, a non-kernel, an unknown metric, a sweep, an existing bisection" {
	images 10 12
	bisect timedmunlock "${IMGS[0]}"
	refused "give at least two kernel images, oldest first (got 1 after the config)"
	echo "not a kernel" >"$RES/initrd"
	bisect timedmunlock "${IMGS[0]}" "$RES/initrd"
	refused "$RES/initrd: not a Linux kernel image"
	bisect timedmunlock "${IMGS[0]}" "$RES/nonexistent"
	refused "$RES/nonexistent: no such file"
	bisect --metric nosuch timedmunlock "${IMGS[@]}"
	refused "--metric nosuch: timedmunlock has no such metric (elapsed ns_per_page "
	bisect --set "SIZE=64M 128M" timedmunlock "${IMGS[@]}"
	refused "timedmunlock: SIZE is a sweep; bisect one value (--set SIZE=VALUE)"
	bisect --set NOSUCH=1 timedmunlock "${IMGS[@]}"
	assert_one_line_error
	bisect --vm-clock sundial timedmunlock "${IMGS[@]}"
	refused "--vm-clock sundial: must be icount or realtime"
	bisect timedmunlok "${IMGS[@]}"
	refused "unknown bench or config 'timedmunlok' (did you mean timedmunlock? configs: "
	bisect --threshold -3 timedmunlock "${IMGS[@]}"
	refused "--threshold -3: must be a percentage > 0"
	mkdir -p "$RES/out/bisect-timedmunlock"
	bisect timedmunlock "${IMGS[@]}"
	assert_one_line_error
	[ "$stderr" = "mmdelta: $RES/out/bisect-timedmunlock exists: name this bisection with -n, or remove it" ]
}

@test "bad input in tree mode: a missing tree, not a tree, BAD not after GOOD, no such commit, a dirty tree" {
	tree 10 10 12
	bisect --tree "$RES/nosuch" --build true --image bzImage timedmunlock c0 c2
	refused "--tree $RES/nosuch: no such directory"
	mkdir "$RES/plain"
	bisect --tree "$RES/plain" --build true --image bzImage timedmunlock c0 c2
	refused "--tree $RES/plain: not a git work tree"
	tbisect c2 c0
	refused "BAD c0 is not a descendant of GOOD c2: give GOOD the older commit"
	tbisect c0 nosuch
	refused "--tree $RES/tree: BAD 'nosuch' is not a commit"
	bisect --tree "$RES/tree" --image bzImage timedmunlock c0 c2
	refused "--tree needs --build CMD"
	tbisect c0
	refused "--tree needs exactly two commits after the config: GOOD BAD"
	echo changed >>"$RES/tree/image"
	tbisect c0 c2
	refused "--tree $RES/tree: has uncommitted changes to tracked files"
	git -C "$RES/tree" checkout -q image
	tree_untouched
}
