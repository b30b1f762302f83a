#!/usr/bin/env bats
# compare.sh's text table against hand-checked golden files
# (tests/fixtures/compare/README.md shows the arithmetic).

bats_require_minimum_version 1.5.0

setup() {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/compare
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
}

@test "text table matches the golden file: sweep, higher-is-better, markers" {
	run "$COMPARE" -o "$FIX" 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 0 ]
	diff -u "$FIX/golden/rc3-0-vs-1.txt" <(printf '%s\n' "$output")
}

@test "Elapsed block has the munlock thread's layout, its unit in the header" {
	run "$COMPARE" -o "$FIX" --all-metrics 3.11-rc3-0 3.11-rc3-1
	# bats drops empty lines from $lines: the summary is lines 0-7, the
	# legend line 8, the bench starts at index 42.
	# The cv row's -133.61% widens the percentage column by one.
	[ "${lines[42]}" = "timedmunlock" ]
	[ "${lines[43]}" = "Elapsed [s]                  3.11-rc3               3.11-rc3" ]
	[ "${lines[44]}" = "                                    0                      1" ]
	[ "${lines[45]}" = "Elapsed min           3.38 (   0.00%)        1.90 (  43.79%)" ]
	[ "${lines[46]}" = "Elapsed mean          3.40 (   0.00%)        1.92 *  43.37%*" ]
	[ "${lines[47]}" = "Elapsed stddev        0.01 (   0.00%)        0.02 ( -32.29%)" ]
	[ "${lines[48]}" = "Elapsed max           3.41 (   0.00%)        1.94 (  43.11%)" ]
	[ "${lines[49]}" = "Elapsed range         0.03 (   0.00%)        0.04 ( -33.33%)" ]
	[ "${lines[50]}" = "Elapsed cv            0.38 (   0.00%)        0.89 (-133.61%)" ]
}

@test "longer labels widen their own metric's table, not the Elapsed one" {
	run "$COMPARE" -o "$FIX" --all-metrics 3.11-rc3-0 3.11-rc3-1
	[[ "$output" == *"
Elapsed-2 stddev        1.00 (  0.00%)        0.10 ( 90.00%)
"* ]]
	[[ "$output" == *"
Populate [s]                 3.11-rc3              3.11-rc3
                                    0                     1
Populate min          10.00 (  0.00%)       10.10 ( -1.00%)
"* ]]
}

# A copy of the fixture runs as base and new under $BATS_TEST_TMPDIR/r, with
# awk program PROG applied to the samples.tsv of bench BENCH in run RUN.
scaled_copy() {	# scaled_copy RUN BENCH PROG
	local r=$BATS_TEST_TMPDIR/r
	[ -d "$r" ] || { mkdir -p "$r"; cp -r "$FIX/3.11-rc3-0" "$r/base"; cp -r "$FIX/3.11-rc3-1" "$r/new"; }
	awk -F'\t' -v OFS='\t' "$3" "$r/$1/$2/samples.tsv" >"$r/s" && mv "$r/s" "$r/$1/$2/samples.tsv"
}

# Every line of the block from header LABEL to the next blank line is as wide
# as its header (no µ in these blocks: bytes are columns).
block_aligned() {	# block_aligned OUTPUT LABEL
	awk -v l="$2" 'index($0, l) == 1 { on = 1; w = length($0) } on && /^$/ { exit }
		on && /^[A-Z ]/ && !/confidence/ && length($0) != w { print "misaligned: " $0; bad = 1 }
		END { exit bad || !w }' <<<"$1"
}

@test "µs timings of the primary metric show in µs, and the block header says so" {
	scaled_copy base timedmunlock 'NR > 1 && $1 == "elapsed" { $4 /= 1e5 } { print }'
	scaled_copy new timedmunlock 'NR > 1 && $1 == "elapsed" { $4 /= 1e5 } { print }'
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_TMPDIR/r" base new
	[ "$status" -eq 0 ]
	# 3.38e-5 s and 1.90e-5 s: by hand, 33.80 and 19.00 µs, 43.79% better
	[[ "$output" == *"
Elapsed [µs]                     base                    new
"* ]]
	[[ "$output" == *"
Elapsed min          33.80 (   0.00%)       19.00 (  43.79%)
"* ]]
	[[ "$output" == *"Elapsed new: Difference at 95.0% confidence: -14.72 ± 0.27 µs, 43.37% ± 0.79% better"* ]]
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_TMPDIR/r" --format markdown base new
	[[ "$output" == *"| Elapsed [µs] | base | new |"* ]]
	[[ "$output" == *"| Elapsed min | 33.80 (0.00%) | 19.00 (43.79%) |"* ]]
}

@test "a percentage of -1113.81% and values of 1e9 keep the columns aligned" {
	# munmap 12.1381 times slower: mean 2.40 ms * 12.1381 = 29.13 ms, and
	# 100 - 29.13144 * 100 / 2.30 = -1166.58%
	scaled_copy new timedmunlock 'NR > 1 && $1 == "munmap_elapsed" { $4 *= 12.1381 } { print }'
	# Rate-1 down to ~1 ops/s keeps the block in ops/s; Rate-2 at ~1.25e9
	scaled_copy base heaprelease 'NR > 1 && $1 == "rate" { $4 *= ($2 == 1 ? 1e-5 : 1e4) } { print }'
	scaled_copy new heaprelease 'NR > 1 && $1 == "rate" { $4 *= ($2 == 1 ? 1e-5 : 1e4) } { print }'
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_TMPDIR/r" base new
	[ "$status" -eq 0 ]
	[[ "$output" == *"Munmap mean "*" 29.13 *-1166.58%*"* ]]
	[[ "$output" == *"Rate-2 mean "*" 125000000.00 (   0.00%) 1255000000.00 * 904.00%*"* ]]
	block_aligned "$output" "Munmap [ms]"
	block_aligned "$output" "Rate [ops/s]"
}

@test "a run name without a dash fills the first header line only" {
	mkdir -p "$BATS_TEST_TMPDIR/r"
	cp -r "$FIX/3.11-rc3-0" "$BATS_TEST_TMPDIR/r/base"
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_TMPDIR/r" --all-metrics base "$FIX/3.11-rc3-same"
	# lines 0-1: nothing changed; 2: the legend; 3: the bench
	[ "${lines[4]}" = "Elapsed [s]                     base              3.11-rc3" ]
	[ "${lines[5]}" = "                                                      same" ]
}

@test "runs are found by name under MMDELTA_RESULTS and by path" {
	MMDELTA_RESULTS=$FIX run "$COMPARE" 3.11-rc3-0 "$FIX/3.11-rc3-1"
	[ "$status" -eq 0 ]
	diff -u "$FIX/golden/rc3-0-vs-1.txt" <(printf '%s\n' "$output")
}

# A bisection names its runs NN-RELEASE: the first header line of
# 01-6.12.111+deb12-cloud-amd64 is 23 columns, one more than a run's 22.
kernel_named_copies() {
	local r=$BATS_TEST_TMPDIR/k
	mkdir -p "$r"
	cp -r "$FIX/3.11-rc3-0" "$r/01-$1"
	cp -r "$FIX/3.11-rc3-1" "$r/02-$2"
}

@test "a run name wider than its column widens it: a blank parts every name" {
	kernel_named_copies 6.12.111+deb12-cloud-amd64 6.12.113+deb12-cloud-amd64
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_TMPDIR/k" --all-metrics 01-6.12.111+deb12-cloud-amd64 02-6.12.113+deb12-cloud-amd64
	[ "$status" -eq 0 ]
	# by hand: label 14, then each run 1 blank + 23 columns (the cv row's
	# -133.61% already took the run's columns to 23)
	[[ "$output" == *"
Elapsed [s]    01-6.12.111+deb12-cloud 02-6.12.113+deb12-cloud
                                 amd64                   amd64
Elapsed min            3.38 (   0.00%)         1.90 (  43.79%)
"* ]]
	local label
	for label in "Elapsed [s]" "Populate [s]" "Munmap [ms]" "Rate [Kops/s]"; do
		block_aligned "$output" "$label" || { echo "block $label"; return 1; }
	done
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_TMPDIR/k" --all-metrics --format markdown 01-6.12.111+deb12-cloud-amd64 02-6.12.113+deb12-cloud-amd64
	[[ "$output" == *"| Elapsed [s] | 01-6.12.111+deb12-cloud-amd64 | 02-6.12.113+deb12-cloud-amd64 |"* ]]
}

@test "run names that fit keep the thread's columns" {
	kernel_named_copies 6.12.111+deb12-cloud 6.12.113+deb12-cloud
	# label 15 ("Populate stddev"), each run 22 columns as in the thread
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_TMPDIR/k" --all-metrics 01-6.12.111+deb12-cloud 02-6.12.113+deb12-cloud
	[ "$status" -eq 0 ]
	[[ "$output" == *"
Populate [s]        01-6.12.111+deb12     02-6.12.113+deb12
                                cloud                 cloud
Populate min          10.00 (  0.00%)       10.10 ( -1.00%)
"* ]]
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_TMPDIR/k" --all-metrics --format markdown 01-6.12.111+deb12-cloud 02-6.12.113+deb12-cloud
	[[ "$output" == *"| Populate [s] | 01-6.12.111+deb12-cloud | 02-6.12.113+deb12-cloud |"* ]]
}

@test "the summary leads: each change with old, new and its interval; --threshold sets what matters" {
	run --separate-stderr "$COMPARE" -o "$FIX" 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 0 ]
	# the table's own sentence: -1.473 ± 0.027 s, 43.37% ± 0.79% better
	[ "${lines[0]}" = "What changed by 0.1% or more, 3.11-rc3-1 against 3.11-rc3-0 (significant at 95%):" ]
	grep -qxF '  timedmunlock Elapsed     3.40 ->   1.92 s       43.37% ± 0.79% better' <<<"$output"
	# Populate, Munmap (no difference) and Pages (the same): no table
	[[ "$output" != *"Populate ["* && "$output" != *"Munmap ["* ]]
	run --separate-stderr "$COMPARE" -o "$FIX" --threshold 50 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 0 ]
	# heaprelease's 53.9% to 904% stay; timedmunlock's 43.37% is under 50%
	grep -q '^Significant, under 50%: timedmunlock Elapsed 43.37% ± 0.79% better, timedmunlock ns/page 43.37% ± 0.79% better\.$' <<<"$output"
	[[ "$output" != *"
timedmunlock
"* ]]
	grep -q '^  heaprelease 2 Rate ' <<<"$output"
	run --separate-stderr "$COMPARE" -o "$FIX" --threshold lots 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "mmstat: --threshold 'lots': expected a percentage, 0 or more" ]
}

@test "a swept bench's tables keep the rows of the points that changed" {
	local r=$BATS_TEST_TMPDIR/p
	mkdir -p "$r"
	cp -r "$FIX/3.11-rc3-0" "$r/base"
	cp -r "$FIX/3.11-rc3-1" "$r/new"
	# THREADS=2 of new is base's: only THREADS=1 changed
	{ awk -F'\t' '$2 != 2' "$r/new/heaprelease/samples.tsv"; awk -F'\t' '$2 == 2' "$r/base/heaprelease/samples.tsv"; } >"$r/s"
	mv "$r/s" "$r/new/heaprelease/samples.tsv"
	run --separate-stderr "$COMPARE" -o "$r" base new
	[ "$status" -eq 0 ]
	grep -q '^Elapsed-1 mean ' <<<"$output"
	[[ "$output" == *"the rows of 1 sweep point where nothing changed (--all-metrics shows every table)."* ]]
	run ! grep -q '^Elapsed-2 ' <<<"$output"
	run --separate-stderr "$COMPARE" -o "$r" --all-metrics base new
	grep -q '^Elapsed-2 mean ' <<<"$output"
}
