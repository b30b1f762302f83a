# Turning run directories into the small data files the gnuplot scripts in
# reports/*.gp read.  The scripts only draw; every number they draw comes from
# here (sample positions, quartiles) or from compare.sh's JSON (means, CIs).
# shellcheck shell=bash

# One colour per run, in run order, shared by every plot and the HTML page so
# that a run looks the same everywhere.  Okabe-Ito: distinguishable with the
# common colour-vision deficiencies; the baseline is the neutral dark grey.
PLOT_COLORS=(555555 0072B2 E69F00 009E73 CC79A7 D55E00 56B4E9 8C564B)

run_color() { printf '%s\n' "${PLOT_COLORS[$(($1 % ${#PLOT_COLORS[@]}))]}"; }

# The name a run is shown by: meta's name, else its directory's.
run_name() {
	local n
	n=$(awk 'index($0, "name: ") == 1 { print substr($0, 7); exit }' "$1/meta")
	printf '%s\n' "${n:-$(basename "$1")}"
}

# A gnuplot single-quoted string: nothing is special in it except the quote.
gp_str() { printf "'%s'" "${1//\'/\'\'}"; }

# The swept values of a bench, in the order the baseline ran them; one "-"
# line when nothing is swept.  Later runs may add values the baseline lacks.
bench_params() {
	local bench=$1; shift
	local d
	for d in "$@"; do
		if [ -f "$d/$bench/samples.tsv" ]; then awk -F'\t' 'FNR > 1 { print $2 }' "$d/$bench/samples.tsv"; fi
	done |
		awk '!seen[$0]++'
}

# Largest |value| of METRIC over every run, to pick a readable unit.
metric_maxabs() {
	local bench=$1 metric=$2; shift 2
	local d
	for d in "$@"; do
		if [ -f "$d/$bench/samples.tsv" ]; then cat "$d/$bench/samples.tsv"; fi
	done |
		awk -F'\t' -v m="$metric" '$1 == m { v = $4 < 0 ? -$4 : $4; if (v > max) max = v } END { print max + 0 }'
}

# "FACTOR LABEL": multiply SI-base values by FACTOR to show them in LABEL.
# Seconds in the thread figures are seconds, but a 64 MiB munlock takes
# microseconds; an axis of 0.000012 is unreadable.
unit_scale() {
	local unit=$1 max=$2
	awk -v u="$unit" -v m="$max" 'BEGIN {
		if (u == "s") {
			if (m >= 1 || m == 0) print 1, "s"; else if (m >= 1e-3) print 1e3, "ms"
			else if (m >= 1e-6) print 1e6, "µs"; else print 1e9, "ns"
		} else if (u == "ns") {
			if (m >= 1e9) print 1e-9, "s"; else if (m >= 1e6) print 1e-6, "ms"
			else if (m >= 1e3) print 1e-3, "µs"; else print 1, "ns"
		} else if (u == "bytes") {
			if (m >= 2^30) print 2^-30, "GiB"; else if (m >= 2^20) print 2^-20, "MiB"
			else if (m >= 2^10) print 2^-10, "KiB"; else print 1, "bytes"
		} else print 1, u }'
}

# Box data, one row per (param, run) with samples:
#   x  min q1 median q3 max mean colour
# and the samples themselves as "x value colour" rows in PTS (drawn over the
# box: with 5-10 iterations the points say more than the quartiles).
# Runs sit side by side inside a group per swept value.  Quartiles are linear
# interpolation between order statistics (R's type 7, numpy's default).
box_data() {
	local bench=$1 metric=$2 scale=$3 params=$4 out=$5 pts=$6; shift 6
	local r=0 d nruns=$#
	: >"$out"; : >"$pts"
	for d in "$@"; do
		r=$((r + 1))
		[ -f "$d/$bench/samples.tsv" ] || continue
		awk -F'\t' -v m="$metric" -v s="$scale" -v r="$r" -v R="$nruns" -v c="$((16#$(run_color $((r - 1)))))" \
			-v pts="$pts" -v OFS='\t' '
			NR == FNR { group[$0] = FNR - 1; next }
			FNR > 1 && $1 == m { v[$2, ++n[$2]] = $4 * s }
			function q(p, k, a, h, i) { h = (n[k] - 1) * p; i = int(h)
				return i + 1 < n[k] ? a[i + 1] + (h - i) * (a[i + 2] - a[i + 1]) : a[i + 1] }
			END { for (k in n) {
				x = group[k] * (R + 1) + r; sum = 0
				for (i = 1; i <= n[k]; i++) { a[i] = v[k, i]; sum += a[i]; print x, a[i], c > pts }
				sortn(a, n[k])
				print x, a[1], q(0.25, k, a), q(0.5, k, a), q(0.75, k, a), a[n[k]], sum / n[k], c
				delete a } }
			function sortn(a, n, i, j, t) { for (i = 2; i <= n; i++) { t = a[i]
				for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t } }' \
			"$params" "$d/$bench/samples.tsv" >>"$out"
	done
}

# Run-sequence data: per run one gnuplot data block (two blank lines apart) of
#   position value warmup(0|1) colour
# in the order run.sh measured them: per swept value its warm-ups, then its
# counted iterations.  Without a sweep the position is the iteration number
# (warm-ups at 0, -1, ...), so drift and a slow first iteration show directly.
# For a sweep, MARKS gets "position label" where each swept value starts in
# the baseline, for the separators on the plot.
seq_data() {
	local bench=$1 metric=$2 scale=$3 params=$4 out=$5 marks=$6; shift 6
	local r=0 d warm mk=""
	: >"$out"; : >"$marks"
	[ "$(wc -l <"$params")" -le 1 ] || mk=$marks
	for d in "$@"; do
		r=$((r + 1))
		# gnuplot addresses runs by block index: a run without the bench
		# still needs its (empty) block.
		if [ ! -f "$d/$bench/samples.tsv" ]; then printf '1\tNaN\t0\t0\n\n\n' >>"$out"; continue; fi
		warm=$d/$bench/warmup.tsv
		[ -f "$warm" ] || warm=/dev/null
		awk -F'\t' -v m="$metric" -v s="$scale" -v c="$((16#$(run_color $((r - 1)))))" \
			-v marks="$mk" -v OFS='\t' '
			FILENAME == ARGV[1] { order[FNR] = $0; np = FNR; next }
			$1 == m && $3 ~ /^-?[0-9]+$/ { w = FILENAME == ARGV[2]
				k = ++n[$2]; val[$2, k] = $4 * s; wu[$2, k] = w
				if (w && $2 == order[1]) first_w++ }
			END { pos = -first_w
				for (p = 1; p <= np; p++) { k = order[p]
					if (!n[k]) continue
					if (marks != "") print pos + 0.5, k > marks
					if (p > 1) print ""    # no line across swept values
					for (pass = 1; pass >= 0; pass--)   # warm-ups first
						for (i = 1; i <= n[k]; i++) if (wu[k, i] == pass) print ++pos, val[k, i], pass, c }
				print ""; print "" }' "$params" "$warm" "$d/$bench/samples.tsv" >>"$out"
		mk=""
	done
}
