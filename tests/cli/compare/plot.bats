#!/usr/bin/env bats
# compare.sh --plot and reports/plot/plot.sh: the plots of a comparison, from the
# real runs in tests/fixtures/plot.

bats_require_minimum_version 1.5.0
load ../helpers
load html_browser

# Drawn once for the file: base-a against patch-b with compare.sh --plot
# (munmap a significant loss), and the other way round with plot.sh alone
# (a gain), their output kept.
setup_file() {
	FIX=$ROOT/tests/fixtures/plot
	AB=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-plots.XXXXXX")
	"$ROOT/compare.sh" -o "$FIX" --plot "$AB/loss" base-a patch-b >"$AB/loss.out" 2>"$AB/loss.err"
	echo $? >"$AB/loss.status"
	"$ROOT/reports/plot/plot.sh" "$AB/gain" "$FIX/patch-b" "$FIX/base-a" >"$AB/gain.out" 2>"$AB/gain.err"
	echo $? >"$AB/gain.status"
	export AB
}

teardown_file() {
	rm -rf "$AB"
}

setup() {
	FIX=$ROOT/tests/fixtures/plot
	COMPARE=$ROOT/compare.sh
	OUT=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-plot.XXXXXX")
}

teardown() {
	rm -rf "$OUT"
}

# PNG and SVG of one plot exist, are what they claim and of plausible size.
assert_plot() {
	local base=$1 size
	is_png "$base.png" || { echo "$base.png is not a PNG"; return 1; }
	xmllint --noout "$base.svg" || { echo "$base.svg is not well-formed XML"; return 1; }
	grep -q '<svg' "$base.svg" || { echo "$base.svg has no <svg>"; return 1; }
	for f in "$base.png" "$base.svg"; do
		size=$(stat -c %s "$f")
		[ "$size" -gt 8000 ] && [ "$size" -lt 2000000 ] || { echo "$f: implausible size $size"; return 1; }
	done
}

@test "compare.sh --plot draws box, run-sequence and delta plots of every metric, PNG and SVG" {
	[ "$(cat "$AB/loss.status")" -eq 0 ]
	# the table is still printed
	grep -q '^Elapsed mean ' "$AB/loss.out"
	for m in elapsed ns_per_page populate_elapsed munmap_elapsed pages; do
		for kind in box runseq delta; do assert_plot "$AB/loss/timedmunlock-$m-$kind"; done
	done
	# no sweep, no sweep plot
	[ -z "$(find "$AB/loss" -name '*-sweep.*')" ]
}

@test "a sweep gets the sweep plot, and its titles and axes name the swept key and the unit" {
	# the swept key is BENCH/config's "sweep:" field, not scraped from the
	# command lines: without them the plots still name it
	for r in sweep-a sweep-b; do
		cp -r "$FIX/$r" "$OUT/$r"
		sed -i '/^command/d' "$OUT/$r/timedmunlock/config"
	done
	run --separate-stderr "$COMPARE" --plot "$OUT" "$OUT/sweep-a" "$OUT/sweep-b"
	[ "$status" -eq 0 ]
	for kind in box runseq delta sweep; do assert_plot "$OUT/timedmunlock-elapsed-$kind"; done
	grep -q 'Elapsed against SIZE (mean ± stddev)' "$OUT/timedmunlock-elapsed-sweep.svg"
	grep -q 'Elapsed per SIZE, samples per run' "$OUT/timedmunlock-elapsed-box.svg"
	# the table's unit: the smallest mean (16M, ~400 µs) reads at least 1
	grep -q 'Elapsed \[µs\] (lower is better)' "$OUT/timedmunlock-elapsed-sweep.svg"
	"$COMPARE" -o "$FIX" sweep-a sweep-b | grep -q '^Elapsed \[µs\] ' 
	# the run sequence marks where each swept value starts
	grep -q '>32M<' "$OUT/timedmunlock-elapsed-runseq.svg"
}

@test "the delta chart marks a significant change and leaves an unproven one unmarked" {
	# munmap: 24.8% ± 6.1% slower (significant); elapsed: no difference proven
	grep -q '>\*<' "$AB/loss/timedmunlock-munmap_elapsed-delta.svg"
	! grep -q '>\*<' "$AB/loss/timedmunlock-elapsed-delta.svg"
}

@test "progress on stderr names every plot being drawn" {
	[ "$(cat "$AB/gain.status")" -eq 0 ]
	grep -q '^mmdelta: plot: timedmunlock elapsed: box$' "$AB/gain.err"
	grep -q '^mmdelta: plot: timedmunlock pages: runseq$' "$AB/gain.err"
	# stdout lists what was written
	[ "$(head -n 1 "$AB/gain.out")" = "timedmunlock	elapsed	box	$AB/gain/timedmunlock-elapsed-box" ]
}

@test "plot.sh on its own takes compare.sh's options and draws from the same comparison" {
	# at alpha 0.5 elapsed's 50% change is significant: its bar gets the star
	run --separate-stderr "$ROOT/reports/plot/plot.sh" "$OUT" --alpha 0.5 "$FIX/base-a" "$FIX/patch-b"
	[ "$status" -eq 0 ]
	assert_plot "$OUT/timedmunlock-elapsed-delta"
	grep -q '>\*<' "$OUT/timedmunlock-elapsed-delta.svg"
	"$COMPARE" --alpha 0.5 "$FIX/base-a" "$FIX/patch-b" | grep -q '^Elapsed mean .* \*'
}

@test "--plot without a directory is a usage error" {
	run --separate-stderr "$COMPARE" -o "$FIX" base-a patch-b --plot
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "a directory that is not a run is refused in one line" {
	run --separate-stderr "$ROOT/reports/plot/plot.sh" "$OUT" "$FIX/base-a" "$FIX"
	assert_one_line_error
	[ "$stderr" = "mmstat: $FIX: not a run directory (no readable meta file)" ]
}

@test "a samples.tsv that is not run.sh's is refused in one line, naming the file" {
	cp -r "$FIX/base-a" "$OUT/bad"
	printf 'metric\tparam\titeration\tvalue\nelapsed\t-\t1\tfast\n' >"$OUT/bad/timedmunlock/samples.tsv"
	run --separate-stderr "$ROOT/reports/plot/plot.sh" "$OUT/plots" "$FIX/base-a" "$OUT/bad"
	assert_one_line_error
	[ "$stderr" = "mmstat: $OUT/bad/timedmunlock/samples.tsv:2: value 'fast' is not a finite number" ]
}

@test "an output directory that cannot be made is refused in one line" {
	run --separate-stderr "$ROOT/reports/plot/plot.sh" /proc/mmdelta-plots "$FIX/base-a" "$FIX/patch-b"
	assert_one_line_error
	[[ "$stderr" == *"cannot write to /proc/mmdelta-plots"* ]]
}

@test "a bench the other run lacks is left out, as in the tables" {
	cp -r "$FIX/base-a" "$OUT/two"
	cp -r "$FIX/base-a/timedmunlock" "$OUT/two/timedmunlock2"
	run --separate-stderr "$COMPARE" --plot "$OUT/compared" "$OUT/two" "$FIX/patch-b"
	[ "$status" -eq 0 ]
	assert_plot "$OUT/compared/timedmunlock-elapsed-delta"
	[ -z "$(find "$OUT/compared" -name 'timedmunlock2-*')" ]
}

# The x tic labels of an SVG plot (gnuplot centres them; y tics end-align).
xtics() {
	awk '/text-anchor="middle"/ { m = 1; next }
		m && match($0, /<text> *-?[0-9.]+<\/text>/) { t = substr($0, RSTART, RLENGTH); gsub(/<[^>]*>| /, "", t); print t }
		{ m = 0 }' "$1" | tr '\n' ' '
}

@test "run-sequence x axes show whole iterations only" {
	for r in base-a patch-b; do
		cp -r "$FIX/$r" "$OUT/$r"
		awk -F'\t' 'NR == 1 || $3 <= 2' "$FIX/$r/timedmunlock/samples.tsv" >"$OUT/$r/timedmunlock/samples.tsv"
	done
	run --separate-stderr "$ROOT/reports/plot/plot.sh" "$OUT/plots" "$OUT/base-a" "$OUT/patch-b"
	[ "$status" -eq 0 ]
	# one warm-up at 0, two iterations: gnuplot alone tics -0.5 0 0.5 ... 2.5
	[ "$(xtics "$OUT/plots/timedmunlock-elapsed-runseq.svg")" = "0 1 2 " ]
}

# The star's baseline and the ends of the error bar under it, from the SVG:
# "STAR_Y BAR_TOP BAR_BOTTOM" in SVG coordinates (y grows downwards).
star_and_bar() {
	awk '/translate\(/ && /font-size="14.00"/ { split($0, a, /[(,)]/); x = a[2]; y = a[3]; next }
		/<text>\*<\/text>/ { sx = x; sy = y }
		/stroke=.rgb\( 34,  34,  34\)/ { bars = bars $0 } /^\t\tM/ { bars = bars $0 }
		END { n = split(bars, seg, /M/)
			for (i = 1; i <= n; i++) if (split(seg[i], p, /[ ,L]+/) >= 4 && p[1] == sx && p[3] == sx) {
				lo = p[2] < p[4] ? p[2] : p[4]; hi = p[2] < p[4] ? p[4] : p[2] }
			print sy, lo, hi }' "$1"
}

@test "the delta chart's star stands clear of its error bar, above a gain and below a loss" {
	# munmap 24.8% worse (a loss) and, the other way round, 19.9% better
	read -r star top bottom < <(star_and_bar "$AB/loss/timedmunlock-munmap_elapsed-delta.svg")
	# an asterisk's glyph sits from about 0.75 em above its baseline
	awk -v s="$star" -v b="$bottom" 'BEGIN { exit !(b != "" && s - 0.75 * 14 > b) }'
	read -r star top bottom < <(star_and_bar "$AB/gain/timedmunlock-munmap_elapsed-delta.svg")
	awk -v s="$star" -v t="$top" 'BEGIN { exit !(t != "" && s < t) }'
}
