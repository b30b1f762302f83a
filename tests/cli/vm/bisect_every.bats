#!/usr/bin/env bats
# bisect.sh without --first: every step of a series, each between adjacent
# points, on the stand-in for run.sh --kernel (bisect_fake_run.bash), so the
# figures are the test's: the steps found, their sizes and shares (checked
# against the figures by hand), the boots within k * ceil(log2 N) + 2, steps
# at the ends, drift that stays unexplained, a skip beside a step, the tree
# form, and --first keeping the single answer.

bats_require_minimum_version 1.5.0
load ../helpers
load bisect_tree
load bisect_setup

changes() { J '[.changes[] | "\(.last_good.run)>\(.first_bad.run):\(.pct):\(.share)"] | join(" ")'; }

@test "pick: the first differing interval is cut; steps are the differing pairs of adjacent points" {
	source_pick
	[ "$(bisect_every_points 1 "1" m - - - - - - - m)" = 4 ]
	# (0,4) does not differ, (4,8) does: its midpoint.
	[ "$(bisect_every_points 1 "0 1" m - - - m - - - m)" = 6 ]
	[ "$(bisect_every_points 3 "1" m - - - - - - - m | tr '\n' ' ')" = "2 4 6 " ]
	# A skipped point is passed over; an interval of skips only is left.
	[ "$(bisect_every_points 1 "1 1" m skip m - m)" = 3 ]
	[ -z "$(bisect_every_points 1 "1 0" m skip m m)" ]
	[ "$(bisect_every_changes "1 0 1" m m - m m)" = "$(printf 'culprit 0 1\nculprit 3 4')" ]
	[ "$(bisect_every_changes "1" m skip m)" = "ambiguous 0 2" ]
}

@test "two steps in nine images: both named in order, sizes and shares, at most 2*ceil(log2 9)+2 boots" {
	# 10 -> 12 (+20%, 2 of the 5 between the ends) and 12 -> 15 (+25%, 3 of 5).
	images 10 10 10 12 12 12 12 15 15
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(changes)" = "02-k2>03-k3:20:0.4 06-k6>07-k7:25:0.6" ]
	[ "$(J .unexplained)" = 0 ] && [ "$(J .result)" = culprit ]
	# The existing keys are the first step's.
	[ "$(J .first_bad.run)" = 03-k3 ] && [ "$(J .last_good.run)" = 02-k2 ]
	[ "$(boots)" -le $((2 * $(ceil_log2 9) + 2)) ] && [ "$(J .boots)" = "$(boots)" ]
	# Every point measured once: the search reuses them.
	[ "$(sort "$FAKE_CALLS" | uniq -d)" = "" ]
	local txt=$RES/out/bisect-timedmunlock/bisect.txt
	grep -q '^bisect of timedmunlock.*: 2 steps, the first bad kernels k3, k7$' "$txt"
	# signed as every percentage of the report: a slower time is worse
	grep -qx '    1\. 02-k2 -> 03-k3  -20%, share 40%' "$txt"
	grep -qx '    2\. 06-k6 -> 07-k7  -25%, share 60%' "$txt"
	grep -q '^  unexplained: 0% of the change' "$txt"
	grep -qx 'step 2: 06-k6 -> 07-k7' "$txt"
	# A point is a level, not good or bad; one at the good end's mean is +0%.
	[ "$(J '[.steps[] | select(.role == "step") | .verdict] | unique | join(" ")')" = measured ]
	grep -Eq '^[0-9]+ +step +02-k2 +measured +10 s \(\+0%\)$' "$txt"
	[[ ${stderr_lines[-1]} == "mmdelta: bisect: 2 steps: first bad 03-k3 (last good 02-k2, -20%); first bad 07-k7 (last good 06-k6, -25%); "*" boots; report in "* ]]
}

@test "steps at the ends, beside each other, and apart: always within k*ceil(log2 9)+2 boots" {
	local spec
	for spec in "10 12 12 12 12 12 12 12 15" "10 10 10 10 12 15 15 15 15" "10 12 15 15 15 15 15 15 15" \
		"10 10 10 10 10 10 10 12 15"; do
		rm -rf "$RES/out" && : >"$FAKE_FIGURES" && : >"$FAKE_CALLS"
		# shellcheck disable=SC2086  # the figures, one word each
		images $spec
		bisect timedmunlock "${IMGS[@]}"
		[ "$status" -eq 0 ] || { echo "$spec: exit $status"; return 1; }
		[ "$(J '.changes | length')" = 2 ] || { echo "$spec: $(changes)"; return 1; }
		[ "$(boots)" -le $((2 * $(ceil_log2 9) + 2)) ] || { echo "$spec: $(boots) boots"; return 1; }
		[ "$(J '[.changes[].share] | add')" = 1 ]
	done
	# The last: 10 -> 12 at k6 -> k7, 12 -> 15 at k7 -> k8, the bad end.
	[ "$(changes)" = "06-k6>07-k7:20:0.4 07-k7>08-k8:25:0.6" ]
}

@test "drift smaller than a tenth of the change stays within a level and is reported unexplained" {
	# 10 -> 10.05 is 2.5% of the change 10 -> 12: not a step.
	images 10 10 10.05 12 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(changes)" = "02-k2>03-k3:19.403:0.975" ]
	[ "$(J .unexplained)" = 0.025 ]
	grep -q '^  unexplained: 2.5% of the change lies within the levels' "$RES/out/bisect-timedmunlock/bisect.txt"
	# With --threshold 0.4 the drift is a step of its own.
	rm -rf "$RES/out"
	bisect --threshold 0.4 timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(changes)" = "01-k1>02-k2:0.5:0.025 02-k2>03-k3:19.403:0.975" ]
}

@test "a point a hair below the good end reads +0%, not +-0%" {
	images 10 9.99999 12
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	grep -Eq '^[0-9]+ +step +01-k1 +measured +9.99999 s \(\+0%\)$' "$RES/out/bisect-timedmunlock/bisect.txt"
}

@test "a step hidden by a dead kernel is named with its candidates; the other step still named; exit 3" {
	images 10 10 noboot 12 12 12 15 15 15
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 3 ]
	[ "$(J .result)" = ambiguous ]
	[ "$(J '[.changes[] | "\(.result):\(.last_good.run):\(.candidates | join(","))"] | join(" ")')" = \
		"ambiguous:01-k1:02-k2,03-k3 culprit:05-k5:" ]
	[ "$(J '.changes[1].first_bad.run')" = 06-k6 ]
}

@test "--first keeps the single answer: the step the midpoint of the ends crosses" {
	images 10 10 10 12 12 12 12 15 15
	bisect --first timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	# The midpoint 12.5: 12 is good, 15 bad.
	[ "$(changes)" = "06-k6>07-k7:25:0.6" ]
	[ "$(J .first_bad.run)" = 07-k7 ] && [ "$(J .every_step)" = false ]
}

@test "tree form: every step along the commits, each commit built once, the tree left as found" {
	tree 10 12 12 12 15 15
	tbisect c0 c5
	[ "$status" -eq 0 ]
	[ "$(J '[.changes[] | "\(.last_good.commit)>\(.first_bad.commit):\(.share)"] | join(" ")')" = \
		"$(sha c0)>$(sha c1):0.4 $(sha c3)>$(sha c4):0.6" ]
	[ ! -e "$RES/out/bisect-timedmunlock/.bisect/git-bisect.log" ]
	[ "$(sort "$FAKE_CALLS" | uniq -d)" = "" ]
	grep -q "^commit $(sha c4)\$" "$RES/out/bisect-timedmunlock/bisect.txt"
	tree_untouched
}

# A resolution table that calls timedmunlock's elapsed not exact under icount.
noisy_table() {
	export MMDELTA_RESOLUTION=$RES/resolution.tsv
	printf 'timedmunlock\telapsed\t-\t5.00e-02\t1.0e-01\tidentical\tfake\t5\n' >"$MMDELTA_RESOLUTION"
}

@test "a bench that is not exact under icount: 10 iterations a point, each judged by the gate's test" {
	noisy_table
	# Figures alternating by +-1: two values a side cannot tell 10 from 12.
	images 10:1 10:1 10:1 12:1 12:1
	bisect -i 2 timedmunlock "${IMGS[@]}"
	[ "$status" -eq 3 ]
	[[ $stderr == *"bisect: the ends do not differ"* ]]
	rm -rf "$RES/out" && : >"$FAKE_CALLS"
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(changes)" = "02-k2>03-k3:20:1" ]
	[ "$(J .iterations)" = 10 ] && [ "$(J .gate_test)" = true ]
	[ "$(cut -d' ' -f3 "$FAKE_CALLS" | sort -u)" = 10 ]
	[[ $stderr == *"timedmunlock elapsed is not exact under icount (iterations spread by 5.00e-02 of the mean"* ]]
}

@test "the gate's test decides a point the midpoint rule leaves unclear; the ends' own spread switches it on" {
	noisy_table
	# 11.5 +-3 against the ends 10 and 12 (+-1): beyond the midpoint, but
	# told from the good end only with 40 values (Welch: t 1.4 at 10, 1.9
	# at 20, 2.5 at 40); its 95% interval (+-1 at 40) still holds 11.
	images 10:1 11.5:3 12:1
	bisect timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J '[.steps[] | select(.run == "01-k1") | "\(.iterations):\(.verdict)"] | join(" ")')" = "10:remeasure 20:remeasure 40:measured" ]
	# No table line, but the ends spread: the same rule, said so; --first
	# shows the side the test put the point on.
	export MMDELTA_RESOLUTION=/dev/null
	rm -rf "$RES/out"
	bisect --first -i 10 timedmunlock "${IMGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(J .gate_test)" = true ]
	[[ $stderr == *"the ends' iterations spread by more than icount's exact figures"* ]]
	[ "$(J '[.steps[] | select(.run == "01-k1") | .verdict] | last')" = bad ]
}
