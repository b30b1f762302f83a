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

# oracle_ci TAIL "BASE VALUES" "NEW VALUES": scipy's Fieller interval of the
# change, positive = better for a lower-is-better metric, leaving TAIL on
# each side (gate_oracle.py's roots by bisection and df of a - r*b), as
# "[LO%, HI%]".
oracle_ci() {
	"$PY" - "$BATS_TEST_DIRNAME/../../oracle" "$@" <<-'EOF'
	import sys
	sys.path.insert(0, sys.argv.pop(1))
	import numpy as np
	from scipy import stats
	from gate_oracle import fieller_by_roots
	tail, b, a = float(sys.argv[1]), np.array(sys.argv[2].split(), float), np.array(sys.argv[3].split(), float)
	va, vb, th = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b), a.mean() / b.mean()
	df = (va + th * th * vb) ** 2 / (va * va / (len(a) - 1) + th ** 4 * vb * vb / (len(b) - 1))
	lo, hi = fieller_by_roots(a.mean(), va, b.mean(), vb, stats.t.isf(tail, df))
	print("[%.2f%%, %.2f%%]" % ((1 - hi) * 100, (1 - lo) * 100))
	EOF
}

@test "a point estimate within the gate is not a pass while the interval's bad end is beyond it" {
	# 1% slower, but a loss of 13% is not excluded: the bad end decides, not
	# the mean (-1%) or the interval's middle (-1.7%)
	mkrun a count lower realtime 100 90 110 95 105
	mkrun b count lower realtime 101 91 111 96 106
	want=$(oracle_ci 0.025 "100 90 110 95 105" "101 91 111 96 106")
	[ "$want" = "[-13.32%, 9.97%]" ]
	for pct in 5 13; do
		run --separate-stderr "$COMPARE" -o "$R" --gate "$pct" a b
		[ "$status" -eq 3 ]
		[[ "${lines[-1]}" == "gate: t elapsed b: inconclusive (mean -1.00%, 95% CI $want, gate $pct%, "* ]]
	done
	run --separate-stderr "$COMPARE" -o "$R" --gate 14 a b
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "gate: t elapsed b: pass (mean -1.00%, 95% CI $want, gate 14%, "* ]]
}

@test "a sequential run is judged at its look with the tail O'Brien-Fleming spending allows there" {
	mkrun a count lower realtime 100 104 96 102 98
	mkrun b count lower realtime 101 105 97
	printf 'sequential: max=5 alpha=0.05 baseline=a gate=5%%\n' >"$R/b/t/config"
	# the first look, n = 3 of 5, spends on each side all that the
	# Lan-DeMets function allows by t = 3/5: 2 (1 - Phi(z(1 - 0.05/4) / sqrt(t)))
	tail=$("$PY" -c 'from scipy import stats; print(repr(2 * stats.norm.sf(stats.norm.isf(0.0125) / 0.6 ** 0.5)))')
	want=$(oracle_ci "$tail" "100 104 96 102 98" "101 105 97")
	run --separate-stderr "$COMPARE" -o "$R" --gate 50 a b
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "gate: t elapsed b: pass (mean -1.00%, 95% repeated CI $want at look 3 of 5, gate 50%, "* ]]
	# the fixed-sample interval of the same samples is narrower
	rm "$R/b/t/config"
	run --separate-stderr "$COMPARE" -o "$R" --gate 50 a b
	[[ "${lines[-1]}" == "gate: t elapsed b: pass (mean -1.00%, 95% CI $(oracle_ci 0.025 "100 104 96 102 98" "101 105 97"), gate 50%, "* ]]
}

@test "a sequential run past its first look is judged at the look it is at, not the one before" {
	mkrun a count lower realtime 100 104 96 102 98
	mkrun b count lower realtime 101 105 97 103
	printf 'sequential: max=5 alpha=0.05 baseline=a gate=5%%\n' >"$R/b/t/config"
	run --separate-stderr "$COMPARE" -o "$R" --gate 50 a b
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "gate: t elapsed b: pass (mean -1.50%, 95% repeated CI ["*"] at look 4 of 5, gate 50%, "* ]]
	# O'Brien-Fleming's boundary falls look by look, so on these samples the
	# interval lies strictly between look 3's (its tail as in the test
	# above) and the fixed-sample one
	tail3=$("$PY" -c 'from scipy import stats; print(repr(2 * stats.norm.sf(stats.norm.isf(0.0125) / 0.6 ** 0.5)))')
	wide=$(oracle_ci "$tail3" "100 104 96 102 98" "101 105 97 103")
	narrow=$(oracle_ci 0.025 "100 104 96 102 98" "101 105 97 103")
	got=$(sed -n 's/.*repeated CI \(\[[^]]*\]\).*/\1/p' <<<"${lines[-1]}")
	echo "look 3 $wide, look 4 $got, fixed $narrow"
	awk -v w="$wide" -v g="$got" -v n="$narrow" 'function lo(s) { gsub(/[][%]/, "", s); split(s, f, ", "); return f[1] }
		function hi(s) { gsub(/[][%]/, "", s); split(s, f, ", "); return f[2] }
		BEGIN { exit !(lo(w) < lo(g) && lo(g) < lo(n) && hi(n) < hi(g) && hi(g) < hi(w)) }'
}

@test "a baseline mean whose interval includes 0 gets no percentage, and says so" {
	mkrun a count lower realtime -1 1 -2 2 0.5
	mkrun b count lower realtime 1 2 3
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 --format json a b
	[ "$status" -eq 3 ]
	[ "${stderr_lines[-2]}" = "Gate at 5%: percentages are the change of the mean against a, positive = better." ]
	[[ "${stderr_lines[-1]}" == "gate: t elapsed b: inconclusive (no percentage: the baseline mean is not distinguishable from 0 at 95%, gate 5%, p=0.0848; about "*" more iterations of each run would likely decide: run.sh --add "*" -n a and --add "*" -n b)" ]]
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
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics a b
	[ "$status" -eq 0 ]
	[[ "$output" == *"0 figures: no difference proven, 1 not tested"* ]]
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
