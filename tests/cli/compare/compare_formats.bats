#!/usr/bin/env bats
# --format markdown|csv|json carry the text table's numbers, at full
# precision in CSV and JSON (docs/compare-json.md is the JSON schema).

bats_require_minimum_version 1.5.0

setup() {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/compare
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
}

json() {	# json JQ-FILTER: run the fixture comparison and query it
	"$COMPARE" -o "$FIX" --format json "${EXTRA[@]}" 3.11-rc3-0 3.11-rc3-1 | jq -r "$1"
}

near() {	# near A B TOL
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(d <= t && -d <= t) }'
}

@test "markdown matches the golden file" {
	run "$COMPARE" -o "$FIX" --format markdown 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 0 ]
	diff -u "$FIX/golden/rc3-0-vs-1.md" <(printf '%s\n' "$output")
}

@test "JSON is one valid document with the schema's top-level keys" {
	EXTRA=()
	[ "$(json 'keys_unsorted | join(",")')" = "schema,test,alpha,confidence,runs,summary,benches,missing,differences,gate,profile" ]
	[ "$(json .schema)" = "mmdelta-compare/6" ]
	[ "$(json '.runs | map(.name) | join(" ")')" = "3.11-rc3-0 3.11-rc3-1" ]
	[ "$(json .gate)" = "null" ]
}

@test "JSON carries the hand-computed summaries at full precision" {
	EXTRA=()
	local m='.benches[] | select(.name == "timedmunlock") | .metrics[0]'
	[ "$(json "$m.primary")" = "true" ]
	near "$(json "$m.params[0].runs[0].mean")" 3.395 1e-12
	near "$(json "$m.params[0].runs[0].stddev")" 0.012909944487358056 1e-15
	# quartiles, type 7 by hand: 3.38 + 0.75 * 0.01, 3.40 + 0.25 * 0.01
	near "$(json "$m.params[0].runs[0].q1")" 3.3875 1e-12
	near "$(json "$m.params[0].runs[0].q3")" 3.4025 1e-12
	near "$(json "$m.params[0].runs[1].mean")" 1.9225 1e-12
	near "$(json "$m.params[0].runs[1].pct.mean")" 43.372606774668630 1e-9
	[ "$(json "$m.params[0].runs[0].test")" = "null" ]
}

@test "JSON carries the test: p-value, interval, verdict" {
	EXTRA=(--test student)
	local t='.benches[] | select(.name == "timedmunlock") | .metrics[0].params[0].runs[1].test'
	[ "$(json "$t.verdict")" = "difference" ]
	[ "$(json "$t.significant")" = "true" ]
	# ministat on the same samples: -1.4725 +/- 0.0261936
	near "$(json "$t.diff")" -1.4725 1e-12
	near "$(json "$t.ci_half")" 0.0261936 2e-5
	near "$(json "$t | .ci_high - .ci_low")" 0.0523872 4e-5
	near "$(json "$t.df")" 6 0
	json "$t.p_value" | awk '{ exit !($1 > 0 && $1 < 1e-6) }'
}

@test "JSON: no NaN, undefined values are null" {
	run --separate-stderr "$COMPARE" -o "$FIX" --format json 3.11-rc3-0 single-1
	[ "$status" -eq 0 ]
	[[ "$output" != *nan* ]]
	t='.benches[0].metrics[0].params[0].runs[1]'
	[ "$(jq -r "$t.stddev, $t.test.verdict, $t.test.p_value" <<<"$output" | tr '\n' ' ')" = "null no test null " ]
}

@test "JSON under --gate carries the verdicts; they go to stderr" {
	run --separate-stderr "$COMPARE" -o "$FIX" --format json --gate 5 3.11-rc3-1 3.11-rc3-0
	[ "$status" -eq 1 ]
	[ "$(jq -r '.gate.regression' <<<"$output")" = "true" ]
	[ "$(jq -r '.gate.results | map(.verdict) | unique | join(",")' <<<"$output")" = "REGRESSION" ]
	[[ "$stderr" == *"gate: timedmunlock elapsed 3.11-rc3-0: REGRESSION"* ]]
}

@test "CSV has one row per bench, metric, value and run, at full precision" {
	run "$COMPARE" -o "$FIX" --format csv 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 0 ]
	# heaprelease 2 metrics x 2 values x 2 runs + timedmunlock 5 x 1 x 2, + header
	[ "${#lines[@]}" -eq 19 ]
	row=$(printf '%s\n' "${lines[@]}" | grep '^timedmunlock,elapsed,.*,3.11-rc3-1,')
	mean=$(cut -d, -f11 <<<"$row")
	near "$mean" 1.9225 1e-15
	[ "$(awk -F, '{ print NF }' <<<"$output" | sort -u)" = "39" ]
	[ "$(cut -d, -f38 <<<"$row")" = "difference" ]
	[ "$(cut -d, -f39 <<<"$row")" = 0 ]
}

@test "text, markdown and JSON agree on the means" {
	text=$("$COMPARE" -o "$FIX" 3.11-rc3-0 3.11-rc3-1 | grep '^Elapsed-2 mean')
	md=$("$COMPARE" -o "$FIX" --format markdown 3.11-rc3-0 3.11-rc3-1 | grep '^| Elapsed-2 mean')
	js=$("$COMPARE" -o "$FIX" --format json 3.11-rc3-0 3.11-rc3-1 |
		jq -r '.benches[0].metrics[0].params[1].runs | map(.mean) | join(" ")')
	[ "$text" = "Elapsed-2 mean         80.00 (  0.00%)        8.00 * 90.00%*" ]
	[ "$md" = "| Elapsed-2 mean | 80.00 (0.00%) | **8.00 (90.00%)** |" ]
	[ "$js" = "80 8" ]
}

@test "JSON carries the summary: each change, what did not move, the threshold" {
	EXTRA=()
	[ "$(json '.summary.threshold_pct')" = "0.1" ]
	[ "$(json '.summary.changes | length')" -eq 6 ]
	local c='.summary.changes[] | select(.bench == "timedmunlock" and .metric == "elapsed")'
	[ "$(json "$c | [.significant, .under_threshold, .words] | join(\" \")")" = "true false 43.37% ± 0.79% better" ]
	near "$(json "$c.change_pct")" -43.372606774668630 1e-9
	[ "$(json '.summary.unchanged')" -eq 3 ]
	# the text's lines come from the same list
	run --separate-stderr "$COMPARE" -o "$FIX" 3.11-rc3-0 3.11-rc3-1
	[ "$(grep -c '^  [a-z]' <<<"$output")" -eq 6 ]
}
