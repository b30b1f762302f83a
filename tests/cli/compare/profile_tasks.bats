#!/usr/bin/env bats
# compare.sh --profile: the task regions' block after a point's block, and
# each row work or interleaving, with the verdict line splitting the total
# so (docs/compare.md).  tests/fixtures/profile/tasks-base and tasks-new
# (its README gives every figure): at PATTERN=mprotect the timed region's
# change is all __schedule and update_curr, its threads' regions' all
# do_mprotect_pkey; at madvise only tasks-base counted task regions.

bats_require_minimum_version 1.5.0

load ../helpers

setup() {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/profile
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
	export MMDELTA_RESOLUTION=$FIX/resolution.tsv
}

# welch2 "A VALUES" "B VALUES": scipy's p (helpers' welch) as the line prints it (%.2g).
welch2() { welch "$1" "$2" | awk '{ printf "%.2g", $1 }'; }

@test "text: the task regions' block follows its point's, with the same columns, verdict and --top" {
	local p
	run --separate-stderr "$COMPARE" --profile "$FIX/tasks-base" "$FIX/tasks-new"
	[ "$status" -eq 0 ]
	# the point's block, then its tasks' (2 task regions in every iteration of
	# insns.tsv), then the next point's
	[ "$(grep -o '^heaprelease PATTERN=[a-z]*[:,]' <<<"$output" | paste -sd ' ')" = \
		"heaprelease PATTERN=mprotect: heaprelease PATTERN=mprotect, heaprelease PATTERN=madvise:" ]
	grep -q '^heaprelease PATTERN=mprotect, its task regions (2 an iteration): where the instructions changed, tasks-base -> tasks-new (insns: per iteration, exact counts; 3 and 3 iterations)$' <<<"$output"
	# the threads' totals 600 610 620 against 640 650 660: +40 of 610 = +6.56%,
	# half-interval t(0.975, 4) x sqrt(100/3 + 100/3) = 2.776 x 8.165 = 22.7 = 3.7%;
	# the work, do_mprotect_pkey and [user], 500 against 540 in every iteration:
	# a certain +40; __schedule 100 110 120 in both: +0, p 1.  No resolution:
	# resolution.tsv's spread is the timed region's, not its tasks'
	p=$(welch2 "600 610 620" "640 650 660")
	[ "$p" = 0.008 ]
	grep -q "^total +40 instructions (+6.56% ± 3.7%): significant (p $p); work +40 instructions (exact\*), interleaving +0 instructions (p 1)\.$" <<<"$output"
	grep -Eq '^do_mprotect_pkey +400 +440 +100\.00 +110\.00 +\+40 +0 +100\.0% +exact\*$' <<<"$output"
	grep -Eq '^__schedule +110 +110 +27\.50 +27\.50 +\+0 +23 +0\.0% +1  interleaving$' <<<"$output"
	grep -Eq '^total +610 +650 +152\.50 +162\.50 +\+40 +23 +100\.0% +0\.008\*$' <<<"$output"
	# the warm-up's table (do_mprotect_pkey 999999) is not an iteration
	[[ $output != *999999* ]]
	# madvise: tasks-base counted task regions, tasks-new none: no block
	[[ $output != *"PATTERN=madvise, its task regions"* ]]
	# --top 1: one function, then [rest]
	run --separate-stderr "$COMPARE" --profile --top 1 "$FIX/tasks-base" "$FIX/tasks-new"
	# title, verdict, header, do_mprotect_pkey, [rest], total, count
	[ "$(sed -n '/its task regions/,/functions changed significantly/p' <<<"$output" | wc -l)" -eq 7 ]
	[ "$(sed -n '/its task regions/,/functions changed significantly/p' <<<"$output" |
		grep -Ec '^(do_mprotect_pkey|\[rest\]|total) +[0-9]')" -eq 3 ]
}

@test "a change that is all interleaving: the rows marked, the verdict line says the work did not change" {
	local p
	run --separate-stderr "$COMPARE" --profile "$FIX/tasks-base" "$FIX/tasks-new"
	[ "$status" -eq 0 ]
	# the timed region: __schedule 100 110 120 -> 300 310 320 and update_curr
	# 50 -> 70; mprotect_fixup, vma_merge and [user] 1600 in every iteration.
	# Total 1750 1760 1770 -> 1970 1980 1990: +220 of 1760 = +12.5%, beyond
	# resolution.tsv's 0.1%; all of it interleaving, the work exactly the same
	p=$(welch2 "1750 1760 1770" "1970 1980 1990")
	[ "$p" = 1.1e-05 ]
	grep -q "^total +220 instructions (+12.5% ± 1.3%): significant (p $p); beyond heaprelease's icount resolution (elapsed spreads by up to 0.1% within one boot); work +0 instructions (exact), interleaving +220 instructions (p $p\*): the work did not change\.$" <<<"$output"
	grep -Eq '^__schedule +110 +310 +27\.50 +77\.50 +\+200 +23 +90\.9% +[0-9.e-]+\*  interleaving$' <<<"$output"
	grep -Eq '^update_curr +50 +70 +12\.50 +17\.50 +\+20 +0 +9\.1% +exact\*  interleaving$' <<<"$output"
	grep -Eq '^mprotect_fixup +1000 +1000 +250\.00 +250\.00 +\+0 +0 +0\.0% +exact$' <<<"$output"
	grep -q '^(interleaving: a function of the scheduler, the tick, interrupts, softirqs or RCU' <<<"$output"
	# madvise's -145 is work (tlb_flush, free_pages_ok): no interleaving row, no note
	grep -q "^total -145 .*; work -145 instructions (p 0.56), interleaving +0 instructions (exact)\.$" <<<"$output"
	[ "$(grep -c '^(interleaving: ' <<<"$output")" -eq 2 ]
}

@test "markdown, JSON and HTML carry the task regions' block and the split as they carry the block" {
	local d=$BATS_TEST_TMPDIR/html
	run --separate-stderr "$COMPARE" --format markdown --profile "$FIX/tasks-base" "$FIX/tasks-new"
	[ "$status" -eq 0 ]
	grep -qF '**heaprelease PATTERN=mprotect, its task regions (2 an iteration): where the instructions changed, tasks-base -> tasks-new' <<<"$output"
	grep -qF '| function | tasks-base | tasks-new | /op | /op | change | ± (CI) | of change | p | kind |' <<<"$output"
	grep -qF '| `do_mprotect_pkey` | 400 | 440 | 100.00 | 110.00 | +40 | ±0 | 100.0% | exact* | work |' <<<"$output"
	grep -qF '| `update_curr` | 50 | 70 | 12.50 | 17.50 | +20 | ±0 | 9.1% | exact* | interleaving |' <<<"$output"
	grep -qF '| `total` | 610 | 650 | 152.50 | 162.50 | +40 | ±23 | 100.0% | 0.008* |  |' <<<"$output"
	run --separate-stderr "$COMPARE" --format json --profile "$FIX/tasks-base" "$FIX/tasks-new"
	[ "$status" -eq 0 ]
	run jq -r '.profile[] | select(.param == "mprotect") |
		"\(.work.change) \(.work.exact) \(.interleaving.change) \(.only_interleaving)",
		"\(.tasks.task_regions | join(",")) \(.tasks.total.change) \(.tasks.work.change) \(.tasks.interleaving.change) \(.tasks.only_interleaving)",
		([.rows[] | "\(.function):\(.interleaving)"] | join(" ")),
		(.tasks.rows | map(.change) | add)' <<<"$output"
	[ "${lines[0]}" = "0 true 220 true" ]
	[ "${lines[1]}" = "2,2 40 40 0 false" ]
	[ "${lines[2]}" = "__schedule:true update_curr:true [user]:false mprotect_fixup:false vma_merge:false [rest]:null" ]
	# the task block's rows add up to its total
	[ "${lines[3]}" = 40 ]
	run jq -r '.profile[] | select(.param == "madvise") | .tasks' < <("$COMPARE" --format json --profile "$FIX/tasks-base" "$FIX/tasks-new" 2>/dev/null)
	[ "$output" = null ]
	run --separate-stderr "$COMPARE" --profile --html "$d" "$FIX/tasks-base" "$FIX/tasks-new"
	[ "$status" -eq 0 ]
	grep -q '<h3>heaprelease PATTERN=mprotect, its task regions (2 an iteration): where</h3>' "$d/index.html"
	grep -q '<p class="verdict">total +40 instructions (+6.56% ± 3.7%): significant (p 0.008); work +40 instructions (exact\*), interleaving +0 instructions (p 1)\.</p>' "$d/index.html"
	grep -q 'src="plots/where-tasks-heaprelease-0-1.svg"' "$d/index.html"
	[ -s "$d/plots/where-tasks-heaprelease-0-1.svg" ]
	[ -s "$d/plots/where-heaprelease-0-1.svg" ]
}

@test "real runs: work and interleaving add up to the total, the interleaving to its rows" {
	local fix=$BATS_TEST_DIRNAME/../../fixtures/profile
	export MMDELTA_RESOLUTION=$fix/resolution-6.12.117.tsv
	# every function shown: the interleaving part is the sum of the rows marked so
	run jq -r '.profile[] | select(.none == null) |
		([.rows[] | select(.interleaving == true) | .change] | add // 0) - .interleaving.change | fabs < 1e-6' \
		< <("$COMPARE" --format json --profile --top 100000 "$fix/6.12.117" "$fix/6.12.118" 2>/dev/null)
	[ "$output" = "$(printf 'true\ntrue\ntrue')" ]
	run jq -r '.profile[] | select(.none == null) | (.work.change + .interleaving.change - .total.change | fabs < 1e-6)' \
		< <("$COMPARE" --format json --profile "$fix/6.12.117" "$fix/6.12.118" 2>/dev/null)
	[ "$output" = "$(printf 'true\ntrue\ntrue')" ]
	# heaprelease mprotect: __schedule is on the list, handle_mm_fault is not
	run --separate-stderr "$COMPARE" --profile "$fix/6.12.117" "$fix/6.12.118"
	grep -Eq '^__schedule +24197 +25964 .*0\.0082\*  interleaving$' <<<"$output"
	grep -Eq '^handle_mm_fault +381544 +385220 .*0\.00034\*$' <<<"$output"
}

@test "a task_regions that is not a count: one line naming the file and line, exit 2" {
	local r=$BATS_TEST_TMPDIR/bad
	cp -r "$FIX/tasks-new" "$r"
	sed -i '3s/\t2$/\tmany/' "$r/insns.tsv"
	run --separate-stderr "$COMPARE" --profile "$FIX/tasks-base" "$r"
	assert_one_line_error
	[ "$stderr" = "mmstat: $r/insns.tsv:3: task_regions 'many' is not a count" ]
}
