#!/usr/bin/env bats
# compare.sh --gate: three verdicts read off the interval of the change:
# pass (exit 0), REGRESSION (1), inconclusive (3); bad input 2.

bats_require_minimum_version 1.5.0

setup() {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/compare
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
}

@test "identical distributions pass the gate: the interval excludes a 5% loss" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 3.11-rc3-0 3.11-rc3-same
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "gate: timedmunlock elapsed 3.11-rc3-same: pass (mean 0.00%, 95% CI [-0.66%, 0.66%], gate 5%, p=1)" ]
}

@test "a clear shift beyond PCT is a REGRESSION, with the interval's bounds" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 3.11-rc3-1 3.11-rc3-0
	[ "$status" -eq 1 ]
	[[ "$output" == *"gate: timedmunlock elapsed 3.11-rc3-0: REGRESSION (mean -76.59%, 95% CI [-78.97%, -74.26%], gate 5%, p=4.49e-11)"* ]]
	# heaprelease's primary metric is swept: one verdict per value
	[[ "$output" == *"gate: heaprelease elapsed-1 3.11-rc3-0: REGRESSION"* ]]
	[[ "$output" == *"gate: heaprelease elapsed-2 3.11-rc3-0: REGRESSION"* ]]
}

@test "an interval within PCT passes; one that straddles PCT is inconclusive, exit 3" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "gate: timedmunlock elapsed 3.11-rc3-slower: pass (mean -1.47%, 95% CI [-2.14%, -0.81%], gate 5%, p=0.00155)" ]
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 1 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 3 ]
	[ "${lines[-1]}" = "gate: timedmunlock elapsed 3.11-rc3-slower: inconclusive (mean -1.47%, 95% CI [-2.14%, -0.81%], gate 1%, p=0.00155; about 3 more iterations of each run would likely decide: run.sh --add 3 -n 3.11-rc3-0 and --add 3 -n 3.11-rc3-slower)" ]
}

@test "runs under qemu are not extended: the remedy boots them again with the iterations that would decide" {
	R=$BATS_TEST_TMPDIR/r
	mkdir -p "$R"
	cp -r "$FIX/3.11-rc3-0" "$FIX/3.11-rc3-slower" "$R/"
	for r in 3.11-rc3-0 3.11-rc3-slower; do printf 'vm: qemu\n' >>"$R/$r/meta"; done
	run --separate-stderr "$COMPARE" -o "$R" --gate 1 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 3 ]
	# the candidate's 4 elapsed samples and the 3 more said above: -i 7
	[ "$(awk -F'\t' '$1 == "elapsed"' "$R/3.11-rc3-slower/timedmunlock/samples.tsv" | wc -l)" -eq 4 ]
	[ "${lines[-1]}" = "gate: timedmunlock elapsed 3.11-rc3-slower: inconclusive (mean -1.47%, 95% CI [-2.14%, -0.81%], gate 1%, p=0.00155; about 3 more iterations of each run would likely decide: run both again with -i 7 (runs under qemu are not extended with --add))" ]
}

@test "the estimate of more iterations decides when the runs are that much longer" {
	# each run's samples repeated: 4 more iterations a run, the same means
	# and nearly the same spreads; 3 more were said to decide at gate 1%
	R=$BATS_TEST_TMPDIR/r
	mkdir -p "$R"
	cp -r "$FIX/3.11-rc3-0" "$FIX/3.11-rc3-slower" "$R/"
	for run in 3.11-rc3-0 3.11-rc3-slower; do
		awk -F'\t' -v OFS='\t' 'NR > 1 && $1 == "elapsed" { $3 += 4; print }' \
			"$R/$run/timedmunlock/samples.tsv" >> "$R/$run/timedmunlock/samples.tsv"
	done
	run --separate-stderr "$COMPARE" -o "$R" --gate 1 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == "gate: timedmunlock elapsed 3.11-rc3-slower: REGRESSION (mean -1.47%, 95% CI [-1.85%, -1.09%], gate 1%"* ]]
}

@test "--inconclusive pass|fail chooses what CI does with an undecided gate" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 1 --inconclusive pass 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == *": inconclusive ("* ]]
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 1 --inconclusive fail 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 1 ]
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 1 --inconclusive maybe 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 2 ]
	[ "$stderr" = "mmstat: --inconclusive 'maybe': expected pass or fail" ]
	run --separate-stderr "$COMPARE" -o "$FIX" --inconclusive pass 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 2 ]
	[ "$stderr" = "mmstat: --gate-metric, --inconclusive and --junit need --gate PCT" ]
}

@test "a significant improvement passes and is still printed as one" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 0 ]
	[[ "$output" == *"gate: timedmunlock elapsed 3.11-rc3-1: pass, improvement (mean 43.37%, 95% CI [42.62%, 44.13%], gate 5%, p=4.49e-11)"* ]]
}

@test "--gate-metric gates a chosen metric and rejects an unknown one" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 --gate-metric populate_elapsed 3.11-rc3-1 3.11-rc3-0
	[ "$status" -eq 0 ]
	[[ "$output" == *"gate: timedmunlock populate_elapsed 3.11-rc3-0: pass (mean 0.96%, 95% CI [-3.41%, 5.15%], gate 5%, p=0.604)"* ]]
	[[ "$output" != *"elapsed 3.11-rc3-0: REGRESSION"* ]]
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 --gate-metric nosuch 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 2 ]
	[ "$stderr" = "mmstat: --gate-metric nosuch: no compared bench has this metric" ]
}

@test "a gated metric with one sample cannot be gated: exit 2" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 3.11-rc3-0 single-1
	[ "$status" -eq 2 ]
	[ "$stderr" = "mmstat: cannot gate timedmunlock elapsed in run 'single-1': fewer than 2 samples (baseline 4, run 1)" ]
}

@test "bad input under --gate exits 2, not 1" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 3.11-rc3-0 nosuch
	[ "$status" -eq 2 ]
	run --separate-stderr "$COMPARE" -o "$FIX" --gate five 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 2 ]
	[[ "$stderr" == "mmstat: --gate 'five': "* ]]
}

@test "--junit writes one testcase per verdict and a failure per regression" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 --junit "$BATS_TEST_TMPDIR/gate.xml" 3.11-rc3-1 3.11-rc3-0
	[ "$status" -eq 1 ]
	grep -q '<testsuite name="mmdelta-gate" tests="3" failures="3" errors="0" skipped="0">' "$BATS_TEST_TMPDIR/gate.xml"
	[ "$(grep -c '<testcase ' "$BATS_TEST_TMPDIR/gate.xml")" -eq 3 ]
	grep -q '<testcase classname="mmdelta.timedmunlock" name="elapsed 3.11-rc3-0" time="0">' "$BATS_TEST_TMPDIR/gate.xml"
	grep -q '<failure type="regression" message="timedmunlock elapsed 3.11-rc3-0: REGRESSION (mean -76.59%' "$BATS_TEST_TMPDIR/gate.xml"
	if command -v xmllint >/dev/null; then xmllint --noout "$BATS_TEST_TMPDIR/gate.xml"; fi
}

@test "--junit: an inconclusive verdict is skipped, or a failure or a pass as --inconclusive says" {
	local x=$BATS_TEST_TMPDIR/gate.xml
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 1 --junit "$x" 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 3 ]
	grep -q 'tests="1" failures="0" errors="0" skipped="1"' "$x"
	grep -q '<skipped message="timedmunlock elapsed 3.11-rc3-slower: inconclusive (mean -1.47%' "$x"
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 1 --inconclusive fail --junit "$x" 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 1 ]
	grep -q 'tests="1" failures="1" errors="0" skipped="0"' "$x"
	grep -q '<failure type="inconclusive" message=' "$x"
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 1 --inconclusive pass --junit "$x" 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 0 ]
	grep -q 'tests="1" failures="0" errors="0" skipped="0"' "$x"
	grep -q '<system-out>timedmunlock elapsed 3.11-rc3-slower: inconclusive' "$x"
}
