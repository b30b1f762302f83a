#!/usr/bin/env bats
# The statistics' edge cases, each from a reproducer: negative baseline
# means, baselines indistinguishable from 0, tiny intervals, constant
# samples under a real and an exact clock, p-values far in the tail, and
# scipy as the oracle of the tests, Fieller intervals and detectable effects.

bats_require_minimum_version 1.5.0

setup() {
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
	R=$BATS_TEST_TMPDIR/r
	PY=/usr/bin/python3	# Debian's python3-scipy, not a pyenv shim's
	mkdir -p "$R"
}

# mkrun NAME UNIT lower|higher realtime|icount VALUE...: a run of bench t
mkrun() {
	local name=$1 unit=$2 better=$3 clock=$4 i=0 v
	shift 4
	mkdir -p "$R/$name/t"
	printf 'status: complete\nclock: %s\n' "$clock" >"$R/$name/meta"
	printf 'elapsed\tElapsed\t%s\t%s\n' "$unit" "$better" >"$R/$name/t/metrics.tsv"
	printf 'metric\tparam\titeration\tvalue\n' >"$R/$name/t/samples.tsv"
	for v in "$@"; do printf 'elapsed\t-\t%d\t%s\n' $((i++)) "$v" >>"$R/$name/t/samples.tsv"; done
}

@test "a negative baseline mean: percentages of |base|, the gate not inverted" {
	mkrun a count lower realtime -10 -10.1 -9.9
	mkrun b count lower realtime -5 -5.1 -4.9
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 a b
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == "gate: t elapsed b: REGRESSION (mean -50.00%, 95% CI ["* ]]
	[[ "$output" == *"Elapsed mean         -10.00 (   0.00%)       -5.00 * -50.00%*"* ]]
	# higher is better: the same numbers are a 50% improvement
	sed -i 's/\tlower$/\thigher/' "$R"/[ab]/t/metrics.tsv
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 a b
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "gate: t elapsed b: pass, improvement (mean 50.00%, 95% CI ["* ]]
}

@test "a baseline mean whose interval includes 0 gets no percentage, and says so" {
	mkrun a count lower realtime -1 1 -2 2 0.5
	mkrun b count lower realtime 1 2 3
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 --format json a b
	[ "$status" -eq 3 ]
	[[ "$stderr" == "gate: t elapsed b: inconclusive (no percentage: the baseline mean is not distinguishable from 0 at 95%, gate 5%, p=0.0848; about "*" more iterations of each run would likely decide: run.sh --add "*" -n a and --add "*" -n b)" ]]
	[ "$(jq '.benches[0].metrics[0].params[0].runs[1].test.change_pct_low' <<<"$output")" = null ]
	[ "$(jq '.gate.results[0].pct_low' <<<"$output")" = null ]
}

@test "an interval below 1e-8 keeps two significant digits" {
	mkrun a count lower realtime 1.0e-9 1.1e-9 0.9e-9 1.05e-9
	mkrun b count lower realtime 1.5e-9 1.6e-9 1.4e-9 1.46e-9
	run --separate-stderr "$COMPARE" -o "$R" a b
	[ "$status" -eq 0 ]
	# the difference to the interval's last digit: both in 1e-11
	want=$("$PY" -c 'from scipy import stats; import numpy as np
a = np.array([1.0e-9, 1.1e-9, 0.9e-9, 1.05e-9]); b = np.array([1.5e-9, 1.6e-9, 1.4e-9, 1.46e-9])
va, vb = a.var(ddof=1) / 4, b.var(ddof=1) / 4; df = (va + vb) ** 2 / (va * va / 3 + vb * vb / 3)
print("%.1e ± %.1e" % (b.mean() - a.mean(), stats.t.isf(0.025, df) * np.sqrt(va + vb)))')
	[[ $want =~ ^[0-9]\.[0-9]e-10\ ±\ [0-9]\.[0-9]e-10$ ]]
	[[ "$output" == *"Elapsed b: Difference at 95.0% confidence: $want, 47% ± 14%"* ]]
	[[ "$output" != *"0.000000000"* ]]
}

@test "constant samples: exact under the icount clock, no test under a real one" {
	mkrun a s lower icount 1.0 1.0
	mkrun b s lower icount 1.06 1.06
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 a b
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "gate: t elapsed b: REGRESSION (mean -6.00%, exact: constant samples under the icount clock, gate 5%, p=0)" ]
	sed -i 's/^clock: icount$/clock: realtime/' "$R/a/meta" "$R/b/meta"
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 a b
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "mmstat: cannot gate t elapsed in run 'b': both sets constant under a real clock (its resolution, not an exact figure) (baseline 2, run 2)" ]
	run --separate-stderr "$COMPARE" -o "$R" a b
	[ "$status" -eq 0 ]
	[[ "$output" == *"Elapsed b: No test: both sets constant under a real clock (its resolution, not an exact figure) (baseline 2, this run 2)"* ]]
	# runs older than the clock key: a --kernel run's vm_clock says it
	sed -i 's/^clock: realtime$/vm_clock: icount/' "$R/a/meta" "$R/b/meta"
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 a b
	[ "$status" -eq 1 ]
}

@test "a p-value far in the tail is accurate (1..60 against 101..160)" {
	mkrun a count lower realtime $(seq 1 60)
	mkrun b count lower realtime $(seq 101 160)
	run --separate-stderr "$COMPARE" -o "$R" --format json a b
	ours=$(jq '.benches[0].metrics[0].params[0].runs[1].test.p_value' <<<"$output")
	"$PY" -c "import sys; from scipy import stats
want = stats.ttest_ind(range(101, 161), range(1, 61), equal_var=False).pvalue
sys.exit(int(abs($ours - want) > 1e-9 * want))"
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 a b
	[[ "${lines[-1]}" == *", p=4.47e-59)" ]]
}

@test "scipy agrees on t, df, p, the Fieller interval and the MDE's power for 300 random pairs" {
	"$PY" "$BATS_TEST_DIRNAME/../../oracle/gate_oracle.py" make "$R" 300 12
	"$COMPARE" --format json "$R/base" "$R/new" >"$R/out.json"
	run "$PY" "$BATS_TEST_DIRNAME/../../oracle/gate_oracle.py" check "$R" "$R/out.json"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "300 pairs checked, 0 disagreements" ]
}

@test "the HTML page shows the detectable change and the three-way gate" {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/compare
	run --separate-stderr "$COMPARE" -o "$FIX" --gate 1 --html "$R/page" 3.11-rc3-0 3.11-rc3-slower
	[ "$status" -eq 3 ]
	grep -q '<h2 id="gate">Gate (1%): <span class="gate-inconclusive">INCONCLUSIVE: more iterations are needed</span></h2>' "$R/page/index.html"
	grep -q '<td class="num">\[-2.14%, -0.81%\] at 95%</td><td class="inconclusive">inconclusive</td>' "$R/page/index.html"
	grep -q 'No difference proven at 95.0% confidence; detectable at 80% power: 5.9%' "$R/page/index.html"
}
