#!/usr/bin/env bats
# compare.sh --profile (tests/fixtures/profile/README.md): the where block
# in text, markdown, JSON and HTML; a block per sweep point; every row and
# the block's total tested across iterations, against scipy's Welch test
# and the runs' own insns_total; the bench's icount resolution; perf's
# shares; and the reason a point has no profile, read from what each run
# recorded.  Two real icount runs of Debian's 6.12.117 and 6.12.118
# (heaprelease swept over PATTERN, procmunmap, sparsemunmap) and hand-made
# ones.  The boots are in vm/vm.bats.

bats_require_minimum_version 1.5.0

load ../helpers

setup() {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/profile
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
	# the spreads as drivers/vm/resolution.tsv had them when the real runs were made
	export MMDELTA_RESOLUTION=$FIX/resolution-6.12.117.tsv
}

# json A B: compare.sh --format json --profile of two fixture runs.
json() { "$COMPARE" --format json --profile "$FIX/$1" "$FIX/$2" 2>/dev/null; }

# counts RUN BENCH POINT FUNCTION: the function's count in each counted
# iteration's table (0 where it is absent), space-separated.
counts() {
	local f
	for f in "$FIX/$1/$2/monitors/insns.$3"[0-9]*.tsv; do
		awk -F'\t' -v fn="$4" '$1 == fn { v = $2 } END { print v + 0 }' "$f"
	done | paste -sd ' '
}

# close X Y: X and Y agree to 1e-6, relatively.
close() { awk -v x="$1" -v y="$2" 'BEGIN { d = x - y; if (d < 0) d = -d; exit !(d <= 1e-6 * (y < 0 ? -y : y)) }'; }

@test "text: the top functions by change, then [rest], adding up to the total, per page too" {
	run --separate-stderr "$COMPARE" --profile --top 2 "$FIX/base" "$FIX/new"
	[ "$status" -eq 0 ]
	# means per iteration: b 51 -> 81, d 0 -> 20, c 10 -> 0 and a, [user]
	# unchanged: [rest] 115 -> 105; total 166 -> 206 (+40); 10 pages each
	grep -q '^timedmunlock: where the instructions changed, base -> new (insns: per iteration, exact counts; 2 and 2 iterations)$' <<<"$output"
	# b: 50, 52 against 80, 82: Welch's df 2, t 30/sqrt(2), p 1 - t/sqrt(t^2 + 2) = 0.0022,
	# half-interval t(0.975, 2) x sqrt(2) = 4.303 x 1.414 = 6
	grep -Eq '^b +51 +81 +5\.10 +8\.10 +\+30 +6 +75\.0% +0\.0022\*$' <<<"$output"
	grep -Eq '^d +0 +20 +0\.00 +2\.00 +\+20 +0 +50\.0% +exact\*$' <<<"$output"
	grep -Eq '^\[rest\] +115 +105 +11\.50 +10\.50 +-10 +0 +-25\.0% +exact\*$' <<<"$output"
	grep -Eq '^total +166 +206 +16\.60 +20\.60 +\+40 +6 +100\.0% +0\.0012\*$' <<<"$output"
	grep -q '^3 of 5 functions changed significantly (\* at 95%, Welch across iterations; exact: ' <<<"$output"
	# the warm-up's table (a 999999) is not an iteration
	[[ $output != *999999* ]]
}

@test "markdown and JSON carry the same rows and tests; JSON's profile member names the kind and the unit" {
	run --separate-stderr "$COMPARE" --format markdown --profile --top 2 "$FIX/base" "$FIX/new"
	[ "$status" -eq 0 ]
	grep -qF '| `b` | 51 | 81 | 5.10 | 8.10 | +30 | ±6 | 75.0% | 0.0022* |' <<<"$output"
	grep -qF '| `total` | 166 | 206 | 16.60 | 20.60 | +40 | ±6 | 100.0% | 0.0012* |' <<<"$output"
	run --separate-stderr "$COMPARE" --format json --profile --top 2 "$FIX/base" "$FIX/new"
	[ "$status" -eq 0 ]
	[ "$(jq -r .schema <<<"$output")" = mmdelta-compare/6 ]
	[ "$(jq -r '.profile[0] | "\(.kind) \(.per) \(.units | join(",")) \(.param) \(.point)"' <<<"$output")" = "insns page 10,10 - null" ]
	[ "$(jq -r '[.profile[0].rows[] | "\(.function):\(.change):\(.significant):\(.exact)"] | join(" ")' <<<"$output")" = \
		"b:30:true:false d:20:true:true [rest]:-10:true:true" ]
	[ "$(jq -r '.profile[0].total | "\(.base) \(.new) \(.share) \(.significant)"' <<<"$output")" = "166 206 1 true" ]
	[ "$(jq -r '.profile[0] | "\(.tested) \(.significant) \(.total_changed)"' <<<"$output")" = "5 3 true" ]
	# the rows add up to the total
	[ "$(jq '[.profile[0].rows[].change] | add' <<<"$output")" = 40 ]
}

@test "HTML: each where block has its verdict and its diverging bar chart" {
	local d=$BATS_TEST_TMPDIR/html
	run --separate-stderr "$COMPARE" --profile --html "$d" "$FIX/base" "$FIX/new"
	[ "$status" -eq 0 ]
	grep -q '<h3>timedmunlock: where' "$d/index.html"
	grep -q '<p class="verdict">total +40 instructions (+24.1% ± 3.7%): significant (p 0.0012)' "$d/index.html"
	grep -q 'src="plots/where-timedmunlock-0-1.svg"' "$d/index.html"
	[ -s "$d/plots/where-timedmunlock-0-1.svg" ]
}

@test "a swept config under icount: a block per point, its total the runs' own insns_total, tested as scipy does" {
	local point tb tn text
	run --separate-stderr "$COMPARE" --all-metrics --profile "$FIX/6.12.117" "$FIX/6.12.118"
	[ "$status" -eq 0 ]
	text=$output
	[[ $text != *"heaprelease: "*"no profile"* ]]
	# sparsemunmap reads its clock around each munmap and marks no region:
	# its processes' rows of insns.tsv say 0, as run.sh writes them
	grep -q '^sparsemunmap: 6.12.117 -> 6.12.118: no profile in either run: the bench marked no timed region in any of its 3 iterations, and the insns monitor counts only inside one (docs/monitors.md)\.$' <<<"$text"
	[[ $text != *"--monitors"* ]]
	for point in mprotect madvise; do
		# the table finds no difference in either point's elapsed: the first line says so
		grep -q "^Elapsed-$point 6.12.118: No difference proven at 95.0% confidence" <<<"$text"
		grep -q "^heaprelease PATTERN=$point: No difference proven in Elapsed-$point, but in [0-9]* functions, 6.12.117 -> 6.12.118 (insns: per iteration, exact counts; 3 and 3 iterations)$" <<<"$text"
		tb=$(awk -F'\t' -v p=$point '$1 == "insns_total" && $2 == p { print $4 }' "$FIX/6.12.117/heaprelease/samples.tsv" | paste -sd ' ')
		tn=$(awk -F'\t' -v p=$point '$1 == "insns_total" && $2 == p { print $4 }' "$FIX/6.12.118/heaprelease/samples.tsv" | paste -sd ' ')
		[ "$(wc -w <<<"$tb")" -eq 3 ]
		run jq -r --arg p $point '.profile[] | select(.bench == "heaprelease" and .param == $p) | .total | "\(.base) \(.new) \(.p_value)"' < <(json 6.12.117 6.12.118)
		read -r b n p <<<"$output"
		close "$b" "$(tr ' ' '\n' <<<"$tb" | awk '{ s += $1 } END { printf "%.10g", s / NR }')"
		close "$n" "$(tr ' ' '\n' <<<"$tn" | awk '{ s += $1 } END { printf "%.10g", s / NR }')"
		close "$p" "$(welch "$tn" "$tb")"
	done
	# mprotect: the total moved by less than its iterations spread, which
	# in 6.12.118 is (77.3216 - 74.5658) / 75.9055 ms = 3.63%, wider than
	# the table's (measured at 100000 ops, not 2000)
	grep -q "^total -111312 instructions (-0.146% ± 3.8%): No difference proven (p 0.91); within heaprelease's icount resolution (elapsed spreads by up to 3.63% within one boot in these runs, wider than resolution.tsv's 0.362%); work -94495 instructions (p 0.92), interleaving -16817 instructions (p 0.66)\.$" <<<"$text"
}

@test "each row is tested across iterations: scipy's Welch p, and a significant row marked even where the total is not" {
	local b n p
	# 6.12.118 splits huge leaves where 6.12.117 adjusted them
	b=$(counts 6.12.117 heaprelease PATTERN=mprotect. split_huge_leaf)
	n=$(counts 6.12.118 heaprelease PATTERN=mprotect. split_huge_leaf)
	[ "$b" = "0 0 0" ]
	p=$(json 6.12.117 6.12.118 | jq -r '.profile[] | select(.param == "mprotect") | .rows[] | select(.function == "split_huge_leaf") | .p_value')
	close "$p" "$(welch "$n" "$b")"
	b=$(counts 6.12.117 heaprelease PATTERN=mprotect. handle_mm_fault)
	n=$(counts 6.12.118 heaprelease PATTERN=mprotect. handle_mm_fault)
	p=$(json 6.12.117 6.12.118 | jq -r '.profile[] | select(.param == "mprotect") | .rows[] | select(.function == "handle_mm_fault") | .p_value')
	close "$p" "$(welch "$n" "$b")"
	run --separate-stderr "$COMPARE" --profile "$FIX/6.12.117" "$FIX/6.12.118"
	grep -Eq '^split_huge_leaf +0 +483435 +0\.00 +120\.86 +\+483435 +[0-9]+ +-434\.3% +3\.3e-07\*$' <<<"$output"
	grep -q '^11 of 127 functions changed significantly' <<<"$output"
}

@test "a block whose total is within the iterations' noise says so, and marks no row (procmunmap)" {
	run --separate-stderr "$COMPARE" --profile --all-metrics "$FIX/6.12.117" "$FIX/6.12.118"
	[ "$status" -eq 0 ]
	# the table says so too
	grep -q '^Elapsed 6.12.118: No difference proven at 95.0% confidence' <<<"$(sed -n '/^procmunmap$/,/^procmunmap: /p' <<<"$output")"
	# and the block says so first
	grep -q '^procmunmap: No difference proven in Elapsed, nor in any function, 6.12.117 -> 6.12.118 (insns: ' <<<"$output"
	[ "$(grep -c '^procmunmap: where' <<<"$output")" -eq 0 ]
	grep -q "^total -1045798 instructions (-1.29% ± 3.7%): No difference proven (p 0.3); within procmunmap's icount resolution (elapsed spreads by up to 4.13% within one boot): the rows are where the iterations happened to differ; work -867685 instructions (p 0.29), interleaving -178113 instructions (p 0.33)\.$" <<<"$output"
	[ "$(sed -n '/^procmunmap: where/,/^(per page/p' <<<"$output" | grep -c '\*$')" -eq 0 ]
	grep -q '^0 of 265 functions changed significantly' <<<"$output"
}

@test "the first line: the change the table finds, or its No difference proven and the functions that changed nonetheless" {
	local r=$BATS_TEST_TMPDIR
	export MMDELTA_RESOLUTION=$FIX/resolution.tsv
	run --separate-stderr "$COMPARE" --all-metrics --profile "$FIX/sweep-base" "$FIX/sweep-new"
	[ "$status" -eq 0 ]
	# mprotect: elapsed 1675 ns in every iteration against 1685, a certain change
	grep -q '^heaprelease PATTERN=mprotect: where the instructions changed, sweep-base -> sweep-new (insns: ' <<<"$output"
	# madvise: 2525, 3125, 2825 against 2930, 2430, 2680 ns, -5.13% within a
	# range of 10%, t -0.64; free_pages_ok's 50 against 55 in every iteration
	grep -q '^Elapsed-madvise sweep-new: No difference proven at 95.0% confidence' <<<"$output"
	grep -q '^heaprelease PATTERN=madvise: No difference proven in Elapsed-madvise, but in 1 function, sweep-base -> sweep-new (insns: ' <<<"$output"
	run jq -r '.profile[] | select(.param != "-") | .primary | "\(.metric) \(.significant) \(.beyond_resolution) \(.changed)"' < <(json sweep-base sweep-new)
	[ "${lines[0]}" = "Elapsed-mprotect true true true" ]
	[ "${lines[1]}" = "Elapsed-madvise false false false" ]
	run --separate-stderr "$COMPARE" --format markdown --profile "$FIX/sweep-base" "$FIX/sweep-new"
	grep -qF '**heaprelease PATTERN=madvise: No difference proven in Elapsed-madvise, but in 1 function, sweep-base' <<<"$output"
	# against a range of 1% the runs' own spread stands, (3125 - 2525) / 2825 = 21.2%
	MMDELTA_RESOLUTION=$FIX/resolution-tight.tsv run --separate-stderr "$COMPARE" --profile "$FIX/sweep-base" "$FIX/sweep-new"
	grep -q '^heaprelease PATTERN=madvise: No difference proven in Elapsed-madvise, but in 1 function, ' <<<"$output"
	grep -q "^total -145 instructions (-5.27% ± 23%): No difference proven (p 0.56); within heaprelease's icount resolution (elapsed spreads by up to 21.2% within one boot in these runs, wider than resolution.tsv's 1%); work -145 instructions (p 0.56), interleaving +0 instructions (exact)\.$" <<<"$output"
	# one iteration a side, nothing to test: madvise's 2525 against 2930 ns,
	# +16.0%, is beyond the range of 10%, and a change
	for k in base new; do
		cp -r "$FIX/sweep-$k" "$r/one-$k"
		rm "$r/one-$k"/heaprelease/monitors/insns.PATTERN=*.[23].tsv
		sed -i -E '/\t[23]$|\t[23]\t/d' "$r/one-$k/heaprelease/samples.tsv"
		sed -i -E '/PATTERN=[a-z]*\.[23]\t/d' "$r/one-$k/insns.tsv"
	done
	[ "$(awk -F'\t' '$1 == "elapsed" && $2 == "madvise" { print $3, $4 }' "$r/one-new/heaprelease/samples.tsv")" = "1 0.000002930" ]
	run --separate-stderr "$COMPARE" --all-metrics --profile "$r/one-base" "$r/one-new"
	[ "$status" -eq 0 ]
	grep -q '^Elapsed-madvise one-new: No test: ' <<<"$output"
	grep -q '^heaprelease PATTERN=madvise: where the instructions changed, one-base -> one-new (insns: per iteration, exact counts; 1 and 1 iterations; 4 and 4 timed regions an iteration)$' <<<"$output"
	run jq -r '.profile[] | select(.param == "madvise") | .primary | "\(.significant) \(.beyond_resolution) \(.changed)"' < <("$COMPARE" --format json --profile "$r/one-base" "$r/one-new" 2>/dev/null)
	[ "$output" = "false true true" ]
	# the same figures under another name: no change, exactly
	cp -r "$FIX/sweep-base" "$r/again"
	run --separate-stderr "$COMPARE" --profile "$FIX/sweep-base" "$r/again"
	[ "$status" -eq 0 ]
	grep -q '^heaprelease PATTERN=mprotect: No change in Elapsed-mprotect, nor in any function, sweep-base -> again (insns: ' <<<"$output"
	grep -q '^heaprelease PATTERN=madvise: No difference proven in Elapsed-madvise, nor in any function, sweep-base -> again (insns: ' <<<"$output"
	# HTML's block too
	run --separate-stderr "$COMPARE" --profile --html "$r/html" "$FIX/sweep-base" "$FIX/sweep-new"
	grep -q '<p>heaprelease PATTERN=madvise: No difference proven in Elapsed-madvise, but in 1 function, ' "$r/html/index.html"
}

@test "hand-made: an exact change beyond the resolution, and an exact row before a larger one that is noise" {
	export MMDELTA_RESOLUTION=$FIX/resolution.tsv
	run --separate-stderr "$COMPARE" --profile "$FIX/sweep-base" "$FIX/sweep-new"
	[ "$status" -eq 0 ]
	grep -q "^total +10 instructions (+0.625% ± 0%): a certain change (the same total in every iteration of each run); beyond heaprelease's icount resolution (elapsed spreads by up to 0.1% within one boot); work +10 instructions (exact\*), interleaving +0 instructions (exact)\.$" <<<"$output"
	grep -Eq '^mprotect_fixup +1000 +1010 +250\.00 +252\.50 +\+10 +0 +100\.0% +exact\*$' <<<"$output"
	grep -q 'PATTERN=madvise: No difference proven .*; 4 and 4 timed regions an iteration)$' <<<"$output"
	# the runs' own spread, (3125 - 2525) / 2825 = 21.2%, is wider than the table's 10%
	grep -q "^total -145 instructions (-5.27% ± 23%): No difference proven (p 0.56); within heaprelease's icount resolution (elapsed spreads by up to 21.2% within one boot in these runs, wider than resolution.tsv's 10%); work -145 instructions (p 0.56), interleaving +0 instructions (exact)\.$" <<<"$output"
	[ "$(sed -n '/PATTERN=madvise: No difference/,/^\[rest\]/p' <<<"$output" | awk 'NR > 3 { print $1 }' | head -2 | paste -sd ' ')" = "free_pages_ok tlb_flush" ]
	run jq -r '.profile[] | select(.param != "-") | "\(.param) \(.total_changed) \(.resolution.beyond) \(.total.significant) \(.total.exact)"' < <(json sweep-base sweep-new)
	[ "${lines[0]}" = "mprotect true true true true" ]
	[ "${lines[1]}" = "madvise false false false false" ]
}

@test "willitscale under icount: its block per operation, its tasks' workload x elapsed" {
	run --separate-stderr "$COMPARE" --profile --top 2 "$FIX/wis-6.12.117" "$FIX/wis-6.12.118"
	[ "$status" -eq 0 ]
	# mmap1, 2 loops: workload 32285.66 ops/s x 61.947 us = 2.000 and
	# 32034.34 x 62.433 us = 2.000 operations an iteration
	grep -q '^(per op: 2 and 2 ops an iteration)$' <<<"$output"
	# gup_fast_fallback: 1080 in both iterations against 1113, 540.00 and 556.50 an operation
	grep -Eq '^gup_fast_fallback +1080 +1113 +540\.00 +556\.50 +\+33 +0 +26\.3% +exact\*$' <<<"$output"
	# the total: the iterations' insns_total, 61876 and 62356 against 61908 and 62575 (mean 62241.5)
	grep -Eq '^total +62116 +62242 +31058\.00 +31120\.75 +\+126 ' <<<"$output"
	grep -q '^willitscale TEST=mmap1: No difference proven in ns/op-mmap1, but in 2 functions, wis-6.12.117 -> wis-6.12.118 (insns: ' <<<"$output"
}

@test "perf's shares: Welch per function, only the significant shown, the cpu-clock skid said, the primary metric as total" {
	run --separate-stderr "$COMPARE" --profile "$FIX/sbase" "$FIX/snew"
	[ "$status" -eq 0 ]
	grep -q '^Note: samples are cpu-clock with interrupt-enable skid' <<<"$output"
	# f 71 -> 41 (sd 1 each, n 3): Welch's half-interval t(0.975, 4) x
	# sqrt(2/3) = 2.776 x 0.8165 = 2.27; g 10 -> 10 is not shown
	grep -Eq '^f +71\.00% +41\.00% +-30\.00% +2\.27% ' <<<"$output"
	[ "$(grep -c '^g ' <<<"$output")" -eq 0 ]
	grep -q '^1 of 2 functions changed significantly' <<<"$output"
	# the block's total is the bench's primary metric, tested as its table
	# does: elapsed 100, 102, 101 ms against 80, 82, 81
	grep -q '^Elapsed snew: Difference at 95.0% confidence: -20.0 ± 2.3 ms' <<<"$output"
	grep -q '^elapsed, the primary metric (-19.8% ± 2.2%): significant (p 1.6e-05)\.$' <<<"$output"
	[ "$(welch "100 102 101" "80 82 81" | awk '{ printf "%.2g", $1 }')" = 1.6e-05 ]
	grep -q '^timedmunlock: where the samples moved, sbase -> snew (profile: ' <<<"$output"
	# against its own figures: the table's verdict first, no share moved
	cp -r "$FIX/sbase" "$BATS_TEST_TMPDIR/again"
	run --separate-stderr "$COMPARE" --profile "$FIX/sbase" "$BATS_TEST_TMPDIR/again"
	grep -q "^timedmunlock: No difference proven in Elapsed, nor in any function's share, sbase -> again (profile: " <<<"$output"
	grep -q '^No function.s share changed significantly (2 tested)\.$' <<<"$output"
}

@test "a bench that marks no region, a point not run, and runs without the monitor: each named with its reason" {
	local r=$BATS_TEST_TMPDIR
	# sparsemunmap: one run records its processes' 0 regions, the other the skipped line runs wrote before
	run --separate-stderr "$COMPARE" --profile "$FIX/sweep-base" "$FIX/sweep-new"
	grep -q '^sparsemunmap: sweep-base -> sweep-new: no profile in sweep-base: the bench marked no timed region in any of its 2 iterations, and the insns monitor counts only inside one (docs/monitors.md); nor in sweep-new: the insns monitor counted nothing: the bench marks no single timed region\.$' <<<"$output"
	[[ $output != *"add --monitors insns"* ]]
	# a point the other run did not run
	cp -r "$FIX/sweep-new" "$r/partial"
	rm "$r/partial/heaprelease/monitors/insns.PATTERN=madvise."*
	sed -i '/\tmadvise\t/d' "$r/partial/heaprelease/samples.tsv"
	run --separate-stderr "$COMPARE" --profile "$FIX/sweep-base" "$r/partial"
	grep -q '^heaprelease PATTERN=madvise: sweep-base -> partial: no profile in partial: the point was not run\.$' <<<"$output"
	grep -q '^heaprelease PATTERN=mprotect: where the instructions changed' <<<"$output"
	# a --kernel run without the insns monitor
	cp -r "$FIX/sweep-new" "$r/plain"
	rm -r "$r/plain/heaprelease/monitors" "$r/plain/insns.tsv"
	run --separate-stderr "$COMPARE" --profile "$FIX/sweep-base" "$r/plain"
	[ "$(grep -c '^heaprelease PATTERN=[a-z]*: sweep-base -> plain: no profile in plain: a --kernel run without the insns monitor: run it with --monitors vmstat,insns\.$' <<<"$output")" -eq 2 ]
	# two native runs without a profiling monitor; a native run that asked for insns
	cp -r "$FIX/base" "$r/a" && cp -r "$FIX/new" "$r/b"
	rm -r "$r/a/timedmunlock/monitors" "$r/b/timedmunlock/monitors"
	sed -i '/^vm_clock/d' "$r/a/meta" "$r/b/meta"
	run --separate-stderr "$COMPARE" --profile "$r/a" "$r/b"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'where the' <<<"$output")" -eq 0 ]
	grep -q '^timedmunlock: a -> b: no profile in either run: a native run without a profiling monitor: --monitors profile (perf.s samples), or --kernel with --monitors insns (exact counts)\.$' <<<"$output"
	mkdir -p "$r/b/timedmunlock/monitors"
	printf 'insns\tcounts instructions only in run.sh --kernel runs under TCG (a QEMU plugin on the host counts them)\n' >"$r/b/timedmunlock/monitors/skipped"
	run --separate-stderr "$COMPARE" --profile "$r/a" "$r/b"
	grep -q '; nor in b: monitor insns skipped: counts instructions only in run.sh --kernel runs under TCG' <<<"$output"
	# insns counts against perf's samples are not compared, even when the
	# clocks' difference is let through
	run --separate-stderr "$COMPARE" --unlike-clocks --profile "$FIX/sbase" "$FIX/base"
	grep -q "one run has instruction counts (insns), the other perf's samples (profile): not comparable" <<<"$output"
}

@test "a malformed profile, insns.tsv or resolution table: one line naming file and line, exit 2" {
	local r=$BATS_TEST_TMPDIR
	cp -r "$FIX/sweep-base" "$r/a"
	sed -i '2s/\t1\t/\tone\t/' "$r/a/insns.tsv"
	run --separate-stderr "$COMPARE" --profile "$r/a" "$FIX/sweep-new"
	[ "$status" -eq 2 ]
	[ "$stderr" = "mmstat: $r/a/insns.tsv:2: regions 'one' is not a count" ]
	[ -z "$output" ]
	printf 'heaprelease\telapsed\tmprotect\tfast\t0.1\n' >"$r/resolution.tsv"
	MMDELTA_RESOLUTION=$r/resolution.tsv run --separate-stderr "$COMPARE" --profile "$FIX/sweep-base" "$FIX/sweep-new"
	[ "$status" -eq 2 ]
	[ "$stderr" = "mmstat: $r/resolution.tsv:1: 'fast' is not a spread (bench metric param cv range ...)" ]
	cp -r "$FIX/sweep-base" "$r/b"
	echo 'mprotect_fixup 1000' >"$r/b/heaprelease/monitors/insns.PATTERN=mprotect.2.tsv"
	run --separate-stderr "$COMPARE" --profile "$r/b" "$FIX/sweep-new"
	[ "$status" -eq 2 ]
	[ "$stderr" = "mmstat: $r/b/heaprelease/monitors/insns.PATTERN=mprotect.2.tsv: a line is not function<TAB>value" ]
}
