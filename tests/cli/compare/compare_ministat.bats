#!/usr/bin/env bats
# ministat (FreeBSD) as the independent oracle: for 24 generated sample
# pairs of different sizes, spreads and shifts, compare.sh --test student
# must print the means, standard deviations and ministat's "Difference at"
# interval to its own printed precision, and agree on significance.
#
# ministat looks t up in a table for df <= 100 (3 decimals) and uses the
# normal value beyond, so sizes keep n1 + n2 - 2 <= 100.

bats_require_minimum_version 1.5.0

setup_file() {
	export ORA=$BATS_FILE_TMPDIR/ora
	generate_pairs "$ORA" 24
}

# Each pair is a bench in two runs; values are normal(mean, sd) from awk's
# seeded generator, rounded to 3 decimals as a bench's output would be.
generate_pairs() {
	local root=$1 pairs=$2 i run
	for run in base new; do
		mkdir -p "$root/$run"
		printf 'status: complete\n' > "$root/$run/meta"
	done
	for ((i = 0; i < pairs; i++)); do
		for run in base new; do
			mkdir -p "$root/$run/pair$i"
			printf 'v\tV\tcount\tlower\n' > "$root/$run/pair$i/metrics.tsv"
		done
		awk -v seed="$i" -v dir="$root" -v name="pair$i" '
		function normal() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
		function emit(run, n, mu, sd,   k, f, v) {
			f = dir "/" run "/" name
			print "metric\tparam\titeration\tvalue" > (f "/samples.tsv")
			for (k = 0; k < n; k++) {
				v = sprintf("%.3f", mu + sd * normal())
				print "v\t-\t" k "\t" v > (f "/samples.tsv")
				print v > (f "/values")
			}
		}
		BEGIN {
			srand(seed + 1)
			n1 = 3 + int(rand() * 45); n2 = 3 + int(rand() * (100 - n1 - 1))
			if (n2 > 50) n2 = 50
			mu = 100 + int(rand() * 800); sd1 = 0.5 + rand() * 20
			sd2 = sd1 * (0.3 + rand() * 3)
			shift = (seed % 3 == 0) ? 0 : (rand() - 0.5) * 0.2 * mu
			emit("base", n1, mu, sd1); emit("new", n2, mu + shift, sd2)
		}'
	done
}

# "xavg xsd navg nsd sig d e dpct epct" from ministat's report
ministat_figures() {
	ministat -c "$1" "$2" "$3" | awk '
		$1 == "x" { xa = $6; xs = $7 } $1 == "+" { na = $6; ns = $7 }
		/^Difference at/ { sig = 1; getline; d = $1; e = $3; getline; dp = $1; ep = $3 }
		END { sub(/%/, "", dp); sub(/%/, "", ep)
		      print xa, xs, na, ns, sig + 0, d + 0, e + 0, dp + 0, ep + 0 }'
}

# One jq pass: "bench xmean xsd nmean nsd sentence" per pair.
our_table() {
	jq -r '.benches[] | .name as $b | .metrics[0].params[0].runs |
		[$b, .[0].mean, .[0].stddev, .[1].mean, .[1].stddev, .[1].test.text] | @tsv'
}

# One awk pass over "bench <ministat figures> <our figures>" lines.
# Means and stddevs: ministat prints 6 significant digits.  The interval:
# |ours - ministat| within half a unit of our last printed digit, plus the
# rounding of ministat's 3-decimal t table (2.5e-4 relative).
CHECK='
function near(a, b, tol) { return (a - b) ^ 2 <= tol ^ 2 }
function agrees(o, t,   dec) {
	dec = index(o, ".") ? length(o) - index(o, ".") : 0
	return near(o, t, 0.5 * 10 ^ -dec + 2.5e-4 * (t < 0 ? -t : t) + 1e-12)
}
function fail(msg) { print $1 ": " msg; bad = 1 }
{
	split($2, m, " ")	# xavg xsd navg nsd sig d e dpct epct
	sub(/; detectable at 80% power: .*$/, "", $7)	# ministat has no such clause
	for (i = 1; i <= 4; i++)
		if (!near(m[i], $(2 + i), 5e-6 * m[i])) fail("ministat " m[i] ", ours " $(2 + i))
	if (!m[5]) {
		if ($7 != "No difference proven at " conf ".0% confidence") fail("ministat: no difference; ours: " $7)
		next
	}
	if (!match($7, /^Difference at [0-9.]+% confidence: /)) { fail("ministat: difference; ours: " $7); next }
	# ours: "d ± e, P% ± E% better|worse"; the metric is lower-is-better, so
	# "worse" is a positive percentage in ministat, "better" a negative one
	s = substr($7, RLENGTH + 1); gsub(/[±,%]/, " ", s); split(s, o, " ")
	if (o[5] != "better" && o[5] != "worse") { fail("no better or worse: " $7); next }
	if (!(agrees(o[1], m[6]) && agrees(o[2], m[7]) && agrees(o[3], o[5] == "worse" ? m[8] : -m[8]) &&
	      agrees(o[4], m[9])))
		fail("ministat " m[6] " +/- " m[7] ", " m[8] "% +/- " m[9] "%; ours: " $7)
}
END { exit bad }'

check_confidence() {	# check_confidence ALPHA MINISTAT-CONFIDENCE
	local alpha=$1 conf=$2 bench rest
	"$BATS_TEST_DIRNAME/../../../compare.sh" --test student --alpha "$alpha" --format json \
		"$ORA/base" "$ORA/new" | our_table > "$BATS_TEST_TMPDIR/ours"
	while IFS=$'\t' read -r bench rest; do
		printf '%s\t%s\t%s\n' "$bench" \
			"$(ministat_figures "$conf" "$ORA/base/$bench/values" "$ORA/new/$bench/values")" "$rest"
	done < "$BATS_TEST_TMPDIR/ours" > "$BATS_TEST_TMPDIR/joined"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/joined")" -eq 24 ]
	awk -F'\t' -v conf="$conf" "$CHECK" "$BATS_TEST_TMPDIR/joined"
}

@test "ministat agrees at 95% on 24 generated pairs" {
	check_confidence 0.05 95
}

@test "ministat agrees at 99% on the same pairs" {
	check_confidence 0.01 99
}

@test "all 24 pairs were compared, with both verdicts among them" {
	json=$("$BATS_TEST_DIRNAME/../../../compare.sh" --test student --format json "$ORA/base" "$ORA/new")
	[ "$(jq '.benches | length' <<<"$json")" -eq 24 ]
	[ "$(jq '[.benches[].metrics[0].params[0].runs[1].test.significant] | unique | length' <<<"$json")" -eq 2 ]
}
