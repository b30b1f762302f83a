#!/usr/bin/env bats
# compare.sh's text table against hand-checked golden files
# (tests/fixtures/compare/README.md shows the arithmetic).

bats_require_minimum_version 1.5.0

setup() {
	FIX=$BATS_TEST_DIRNAME/../fixtures/compare
	COMPARE=$BATS_TEST_DIRNAME/../../compare.sh
}

@test "text table matches the golden file: sweep, higher-is-better, markers" {
	run "$COMPARE" -o "$FIX" 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 0 ]
	diff -u "$FIX/golden/rc3-0-vs-1.txt" <(printf '%s\n' "$output")
}

@test "Elapsed block has the munlock thread's exact layout" {
	run "$COMPARE" -o "$FIX" 3.11-rc3-0 3.11-rc3-1
	# bats drops empty lines from $lines: the bench starts at index 33
	[ "${lines[33]}" = "timedmunlock" ]
	[ "${lines[34]}" = "                            3.11-rc3              3.11-rc3" ]
	[ "${lines[35]}" = "                                   0                     1" ]
	[ "${lines[36]}" = "Elapsed min           3.38 (  0.00%)        1.90 ( 43.79%)" ]
	[ "${lines[37]}" = "Elapsed mean          3.40 (  0.00%)        1.92 * 43.37%*" ]
	[ "${lines[38]}" = "Elapsed stddev        0.01 (  0.00%)        0.02 (-32.29%)" ]
	[ "${lines[39]}" = "Elapsed max           3.41 (  0.00%)        1.94 ( 43.11%)" ]
	[ "${lines[40]}" = "Elapsed range         0.03 (  0.00%)        0.04 (-33.33%)" ]
}

@test "longer labels widen their own metric's table, not the Elapsed one" {
	run "$COMPARE" -o "$FIX" 3.11-rc3-0 3.11-rc3-1
	[[ "$output" == *"
Elapsed-2 stddev        1.00 (  0.00%)        0.10 ( 90.00%)
"* ]]
	[[ "$output" == *"
                                3.11-rc3              3.11-rc3
                                       0                     1
ns/page(µs) min           3.38 (  0.00%)        1.90 ( 43.79%)
"* ]]
}

@test "a run name without a dash fills the first header line only" {
	mkdir -p "$BATS_TEST_TMPDIR/r"
	cp -r "$FIX/3.11-rc3-0" "$BATS_TEST_TMPDIR/r/base"
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_TMPDIR/r" base "$FIX/3.11-rc3-same"
	[ "${lines[1]}" = "                                base              3.11-rc3" ]
	[ "${lines[2]}" = "                                                      same" ]
}

@test "runs are found by name under MMDELTA_RESULTS and by path" {
	MMDELTA_RESULTS=$FIX run "$COMPARE" 3.11-rc3-0 "$FIX/3.11-rc3-1"
	[ "$status" -eq 0 ]
	diff -u "$FIX/golden/rc3-0-vs-1.txt" <(printf '%s\n' "$output")
}
