#!/usr/bin/env bats
# compare.sh --profile on hand-made runs (tests/fixtures/profile/README.md):
# the where block in text, markdown, JSON and HTML, perf's shares under
# Welch, and runs without a profile.  The real boots are in vm/vm.bats.

bats_require_minimum_version 1.5.0

setup() {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/profile
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
}

@test "text: the top functions by change, then [rest], adding up to the total, per page too" {
	run --separate-stderr "$COMPARE" --profile --top 2 "$FIX/base" "$FIX/new"
	[ "$status" -eq 0 ]
	# means per iteration: b 51 -> 81, d 0 -> 20, c 10 -> 0 and a, [user]
	# unchanged: [rest] 115 -> 105; total 166 -> 206 (+40); 10 pages each
	grep -q '^timedmunlock: where the instructions changed, base -> new (insns: per iteration, exact; 2 and 2 iterations)$' <<<"$output"
	grep -Eq '^b +51 +81 +5\.10 +8\.10 +\+30 +75\.0%$' <<<"$output"
	grep -Eq '^d +0 +20 +0\.00 +2\.00 +\+20 +50\.0%$' <<<"$output"
	grep -Eq '^\[rest\] +115 +105 +11\.50 +10\.50 +-10 +-25\.0%$' <<<"$output"
	grep -Eq '^total +166 +206 +16\.60 +20\.60 +\+40 +100\.0%$' <<<"$output"
	# the warm-up's table (a 999999) is not an iteration
	[[ $output != *999999* ]]
}

@test "markdown and JSON carry the same rows; JSON's profile member names the kind and the unit" {
	run --separate-stderr "$COMPARE" --format markdown --profile --top 2 "$FIX/base" "$FIX/new"
	[ "$status" -eq 0 ]
	grep -qF '| `b` | 51 | 81 | 5.10 | 8.10 | +30 | 75.0% |' <<<"$output"
	grep -qF '| `total` | 166 | 206 | 16.60 | 20.60 | +40 | 100.0% |' <<<"$output"
	run --separate-stderr "$COMPARE" --format json --profile --top 2 "$FIX/base" "$FIX/new"
	[ "$status" -eq 0 ]
	[ "$(jq -r .schema <<<"$output")" = mmdelta-compare/4 ]
	[ "$(jq -r '.profile[0] | "\(.kind) \(.per) \(.units | join(","))"' <<<"$output")" = "insns page 10,10" ]
	[ "$(jq -r '[.profile[0].rows[] | "\(.function):\(.change)"] | join(" ")' <<<"$output")" = "b:30 d:20 [rest]:-10" ]
	[ "$(jq -r '.profile[0].total | "\(.base) \(.new) \(.share)"' <<<"$output")" = "166 206 1" ]
	# the rows add up to the total
	[ "$(jq '[.profile[0].rows[].change] | add' <<<"$output")" = 40 ]
}

@test "HTML: each where block has its diverging bar chart" {
	local d=$BATS_TEST_TMPDIR/html
	run --separate-stderr "$COMPARE" --profile --html "$d" "$FIX/base" "$FIX/new"
	[ "$status" -eq 0 ]
	grep -q '<h3>timedmunlock: where' "$d/index.html"
	grep -q 'src="plots/where-timedmunlock-1.svg"' "$d/index.html"
	[ -s "$d/plots/where-timedmunlock-1.svg" ]
}

@test "perf's shares: Welch per function, only the significant shown, the cpu-clock skid said" {
	run --separate-stderr "$COMPARE" --profile "$FIX/sbase" "$FIX/snew"
	[ "$status" -eq 0 ]
	grep -q '^Note: samples are cpu-clock with interrupt-enable skid' <<<"$output"
	# f 71 -> 41 (sd 1 each, n 3): Welch's half-interval t(0.975, 4) x
	# sqrt(2/3) = 2.776 x 0.8165 = 2.27; g 10 -> 10 is not shown
	grep -Eq '^f +71\.00% +41\.00% +-30\.00% +2\.27% ' <<<"$output"
	[ "$(grep -c '^g ' <<<"$output")" -eq 0 ]
	grep -q '^1 of 2 functions changed significantly\.$' <<<"$output"
}

@test "runs without profiles: one line naming the monitor to add" {
	local r=$BATS_TEST_TMPDIR
	cp -r "$FIX/base" "$r/a" && cp -r "$FIX/new" "$r/b"
	rm -r "$r/a/timedmunlock/monitors" "$r/b/timedmunlock/monitors"
	run --separate-stderr "$COMPARE" --profile "$r/a" "$r/b"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'where the' <<<"$output")" -eq 0 ]
	[ "$(grep -c '^timedmunlock: a -> b: no profile in these runs: add --monitors insns to a --kernel run' <<<"$output")" -eq 1 ]
	# insns counts against perf's samples are not compared, even when the
	# clocks' difference is let through
	run --separate-stderr "$COMPARE" --unlike-clocks --profile "$FIX/sbase" "$FIX/base"
	grep -q "one run has instruction counts (insns), the other perf's samples (profile): not comparable" <<<"$output"
}
