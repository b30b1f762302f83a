#!/usr/bin/env bats
# compare.sh on bad input: one line naming the problem, exit 2, never a table
# built from wrong data.  Corrupt runs are copies of the fixtures.

bats_require_minimum_version 1.5.0

setup() {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/compare
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
	R=$BATS_TEST_TMPDIR/results
	mkdir -p "$R"
	cp -r "$FIX/3.11-rc3-0" "$R/base"
	cp -r "$FIX/3.11-rc3-1" "$R/new"
	S=$R/new/timedmunlock/samples.tsv
}

expect_error() {	# expect_error MESSAGE compare-args...
	local msg=$1
	shift
	run --separate-stderr "$COMPARE" -o "$R" "$@"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "$msg" ]
}

@test "a missing run" {
	expect_error "compare.sh: no run 'nosuch' (not in $R/ and not a directory)" base nosuch
}

@test "a mistyped run: the nearest run names of the root" {
	expect_error "compare.sh: no run 'bsae' (not in $R/ and not a directory; did you mean base?)" bsae new
}

@test "fewer than two runs, an unknown option, a bad value" {
	expect_error "compare.sh: need at least two runs (see --help)" base
	expect_error "compare.sh: unknown option '--frobnicate' (see --help)" --frobnicate base new
	expect_error "mmstat: --format 'xml': expected text, markdown, csv, json, html or lkp" --format xml base new
	expect_error "mmstat: --test 'z': expected welch or student" --test z base new
}

@test "a directory that is not a run" {
	mkdir "$R/empty"
	expect_error "mmstat: $R/empty: not a run directory (no readable meta file)" base empty
}

@test "a partial run is refused, and marked when allowed" {
	cp -r "$FIX/.3.11-rc3-3.partial" "$R/"
	expect_error "mmstat: $R/.3.11-rc3-3.partial: partial run (status: interrupted); --allow-partial compares it anyway" base 3.11-rc3-3
	run --separate-stderr "$COMPARE" -o "$R" --allow-partial --all-metrics base 3.11-rc3-3
	[ "$status" -eq 0 ]
	[[ "$output" == *"
Elapsed [s]                      base               3.11-rc3
                                                 3 (partial)
"* ]]
}

@test "a run without a bench: noted, the common benches compared" {
	rm -r "$R/new/heaprelease"
	run --separate-stderr "$COMPARE" -o "$R" base new
	[ "$status" -eq 0 ]
	[ "$stderr" = "mmstat: run 'new' lacks bench 'heaprelease'; not compared" ]
	[[ "$output" == *"
timedmunlock
Elapsed [s] "* ]]
	[[ "$output" != *"heaprelease"* ]]
	rm -r "$R/new/timedmunlock"
	expect_error "mmstat: no bench is in every run: run 'base' holds 2 benches: heaprelease, timedmunlock; run 'new' holds no bench" base new
	cp -r "$R/base/heaprelease" "$R/new/"
	rm -r "$R/base/heaprelease"
	expect_error "mmstat: no bench is in every run: run 'base' holds 1 bench: timedmunlock; run 'new' holds 1 bench: heaprelease" base new
}

@test "a corrupt value names file and line" {
	sed -i '3s/1.92$/1.9x2/' "$S"
	expect_error "mmstat: $S:3: value '1.9x2' is not a finite number" base new
}

@test "a truncated samples.tsv names file and line" {
	truncate -s -3 "$S"
	n=$(wc -l < "$S")
	expect_error "mmstat: $S:$((n + 1)): truncated line (no newline at the end of the file)" base new
}

@test "a wrong header, a short row, an unknown metric, a bad iteration" {
	cp "$S" "$S.orig"
	sed -i '1s/.*/metric\tvalue/' "$S"
	expect_error "mmstat: $S:1: header must be 'metric<TAB>param<TAB>iteration<TAB>value'" base new
	cp "$S.orig" "$S" && sed -i '5s/\t[^\t]*$//' "$S"
	expect_error "mmstat: $S:5: expected 4 tab-separated fields (metric, param, iteration, value), got 3" base new
	cp "$S.orig" "$S" && sed -i '2s/^elapsed/elapsd/' "$S"
	expect_error "mmstat: $S:2: metric 'elapsd' is not in metrics.tsv" base new
	cp "$S.orig" "$S" && sed -i '2s/\t0\t/\t-1\t/' "$S"
	expect_error "mmstat: $S:2: iteration '-1' is not a non-negative integer" base new
}

@test "an empty samples.tsv and a primary metric without samples" {
	: > "$S"
	expect_error "mmstat: $S: empty file (no header)" base new
	printf 'metric\tparam\titeration\tvalue\nns_per_page\t-\t0\t1.5\n' > "$S"
	expect_error "mmstat: $S: no samples of metric 'elapsed'" base new
}

@test "metrics some runs lack are noted and shown as absent in those runs only" {
	printf 'vmstat_pgfault\tpgfault\tcount\tlower\n' >> "$R/new/timedmunlock/metrics.tsv"
	printf 'vmstat_pgfault\t-\t0\t12\n' >> "$S"
	sed -i '/^pages/d' "$S"
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics base new
	[ "$status" -eq 0 ]
	[ "$stderr" = "mmstat: run 'base' lacks metric 'vmstat_pgfault' of bench 'timedmunlock'
mmstat: run 'new' lacks metric 'pages' of bench 'timedmunlock'" ]
	[[ "$output" == *"Pages min             1.00 (  0.00%)           -          "* ]]
	[[ "$output" == *"pgfault min               -                 12.00 (    n/a)"* ]]
}

@test "metrics that differ between runs" {
	sed -i '1s/\tlower$/\thigher/' "$R/new/timedmunlock/metrics.tsv"
	expect_error "mmstat: $R/new/timedmunlock/metrics.tsv: metric 'elapsed' (Elapsed, s, higher) differs from the baseline's (Elapsed, s, lower)" base new
	sed -i '1d' "$R/new/timedmunlock/metrics.tsv"
	expect_error "mmstat: $R/new/timedmunlock/metrics.tsv: no 'elapsed', the baseline's primary metric" base new
}

@test "a single sample: n/a and no test, said plainly, exit 0" {
	run --separate-stderr "$COMPARE" -o "$FIX" --all-metrics 3.11-rc3-0 single-1
	[ "$status" -eq 0 ]
	[[ "$output" == *"
Elapsed min           3.38 (  0.00%)        3.30 (  2.37%)
Elapsed mean          "*"
Elapsed stddev        0.01 (  0.00%)         n/a (    n/a)
"* ]]
	[[ "$output" == *"Nothing changed by 0.1% or more, single-1 against 3.11-rc3-0"* ]]
	[[ "$output" == *"1 figure: no difference proven, 4 not tested (fewer than 2 samples); "*"timedmunlock no test."* ]]
	[[ "$output" == *"Elapsed single-1: No test: fewer than 2 samples (baseline 4, this run 1)"* ]]
	[[ "$output" != *nan* && "$output" != *inf* ]]
}

@test "zero variance: equal constants are one line, different ones are exact" {
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics base new
	grep -qxF 'Pages 1000000 in every run' <<<"$output"
	sed -i 's/^pages\(.*\)\t1000000$/pages\1\t1000100/' "$S"
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics base new
	[ "$status" -eq 0 ]
	[[ "$output" == *"Pages new: Difference at 95.0% confidence: 0.00010 ± 0.00000 M, 0.010% ± 0.000% more"* ]]
}

@test "one run given twice, or a copy of it, is said in one line on stderr and compared" {
	run --separate-stderr "$COMPARE" -o "$R" base base
	[ "$status" -eq 0 ]
	[ "$stderr" = "mmstat: 'base' and 'base' are one run (the same directory): it is compared with itself" ]
	[[ "${lines[0]}" == "Nothing changed by 0.1% or more, base against base "* ]]
	printf 'pid: 4242\npid_start: 777\nstart_time: 2026-12-03T18:05:16+00:00\n' >>"$R/base/meta"
	cp -r "$R/base" "$R/copy"
	run --separate-stderr "$COMPARE" -o "$R" base copy
	[ "$status" -eq 0 ]
	[ "$stderr" = "mmstat: 'base' and 'copy' are one run (copies of the run of pid 4242 started 2026-12-03T18:05:16+00:00): it is compared with itself" ]
	# another run of the same process (run.sh --kernel A --kernel B) is not
	printf 'pid: 4250\npid_start: 790\nstart_time: 2026-12-03T18:05:16+00:00\n' >>"$R/new/meta"
	run --separate-stderr "$COMPARE" -o "$R" base new
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}
