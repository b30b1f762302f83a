#!/usr/bin/env bats
# compare.sh --gate: exit 1 only for a significant regression beyond PCT.

bats_require_minimum_version 1.5.0

setup() {
	FIX=$BATS_TEST_DIRNAME/../fixtures/compare
	COMPARE=$BATS_TEST_DIRNAME/../../compare.sh
}

@test "identical distributions pass the gate" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 3.11-rc3-0 3.11-rc3-same
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "gate: timedmunlock elapsed 3.11-rc3-same: no significant change (mean 0.00%, gate 5%, p=1)" ]
}

@test "a clear shift beyond PCT fails the gate" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 3.11-rc3-1 3.11-rc3-0
	[ "$status" -eq 1 ]
	[[ "$output" == *"gate: timedmunlock elapsed 3.11-rc3-0: REGRESSION (mean -76.59%, gate 5%, p="* ]]
	# heaprelease's primary metric is swept: one verdict per value
	[[ "$output" == *"gate: heaprelease elapsed-1 3.11-rc3-0: REGRESSION"* ]]
	[[ "$output" == *"gate: heaprelease elapsed-2 3.11-rc3-0: REGRESSION"* ]]
}

@test "a significant shift below PCT passes; above it, fails" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "gate: timedmunlock elapsed 3.11-rc3-slower: no significant change (mean -1.47%, gate 5%"* ]]
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 1 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == "gate: timedmunlock elapsed 3.11-rc3-slower: REGRESSION (mean -1.47%, gate 1%"* ]]
}

@test "an improvement beyond PCT is reported and passes" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 0 ]
	[[ "$output" == *"gate: timedmunlock elapsed 3.11-rc3-1: improvement (mean 43.37%"* ]]
}

@test "--gate-metric gates a chosen metric and rejects an unknown one" {
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 5 --gate-metric populate_elapsed 3.11-rc3-1 3.11-rc3-0
	[ "$status" -eq 0 ]
	[[ "$output" == *"gate: timedmunlock populate_elapsed 3.11-rc3-0: no significant change"* ]]
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
	grep -q '<testsuite name="mmdelta-gate" tests="3" failures="3" errors="0">' "$BATS_TEST_TMPDIR/gate.xml"
	[ "$(grep -c '<testcase ' "$BATS_TEST_TMPDIR/gate.xml")" -eq 3 ]
	grep -q '<testcase classname="mmdelta.timedmunlock" name="elapsed 3.11-rc3-0" time="0">' "$BATS_TEST_TMPDIR/gate.xml"
	if command -v xmllint >/dev/null; then xmllint --noout "$BATS_TEST_TMPDIR/gate.xml"; fi
}
