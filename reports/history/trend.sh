#!/bin/bash
# reports/history/trend.sh: history.sh html: OUTDIR/index.html with a trend chart per
# series of the history, drawn by gnuplot (reports/history/trend.gp) from the data
# mmhistory exports, and a table of its change points.
#   reports/history/trend.sh MMHISTORY ROOT OUTDIR [--bench B] [--metric M] [--order-by KEY] ...
# The page loads nothing from the network: the folder opens from disk.
set -euo pipefail

MMDELTA_ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
source "$MMDELTA_ROOT/drivers/core/log.sh"  # die, say
DIE_STATUS=2  # bad input, as history.sh says it
HISTORY=$MMDELTA_ROOT/reports/history	# trend.gp
PLOTS=$MMDELTA_ROOT/reports/plot	# the plots' style.gp and term.gp
RENDER=$MMDELTA_ROOT/reports/render	# the page's style and script

# gnuplot commands marking each change point: a dashed line between the two
# runs, red for a regression, green otherwise, labelled with both runs.
write_marks() {
	awk -F'\t' '{
		c = $9 == 1 ? "#B3261E" : "#1A7F1A"
		printf "set arrow from %s, graph 0 to %s, graph 1 nohead dt 2 lw 1.5 lc rgb \"%s\"\n", $1, $1, c
		l = $2 " → " $3 "  " sprintf("%+.1f%%", $4); gsub(/\047/, "\047\047", l)
		printf "set label \047%s\047 at %s, graph %.2f center front boxed tc rgb \"%s\" font \",9\"\n", l, $1, 0.97 - (NR % 2) * 0.07, c
	}' "$1"
}

# A gnuplot single-quoted string: nothing is special in it but the quote.
gp_str() { printf "'%s'" "${1//\'/\'\'}"; }

# YMIN and YMAX, the samples' range: gnuplot cannot autoscale a flat series
# (every sample equal: "empty y range"), so trend.gp sets it.
write_vars() {
	local work=$1 i=$2 title=$3 ylabel=$4 out=$5 nruns=$6 ymin=$7 ymax=$8 nout=$9
	{
		echo "PLOTS = $(gp_str "$PLOTS")"
		echo "TITLE = $(gp_str "$title")"
		echo "YLABEL = $(gp_str "$ylabel")"
		echo "XLABEL = ''"
		echo "OUT = $(gp_str "$out")"
		echo "NRUNS = $nruns"
		echo "YMIN = $ymin"
		echo "YMAX = $ymax"
		echo "NOUT = $nout"
	} >"$work/vars.$i.gp"
}

# One row per change point, as `history.sh changes` reports it.
change_table() {
	local cp=$1 unit=$2
	[ -s "$cp" ] || { echo '<p class="sub">No change point.</p>'; return; }
	echo '<table class="changes"><tr><th>last run before</th><th>first run after</th><th>mean before</th><th>mean after</th><th>change (positive = better)</th><th>p</th></tr>'
	# escaped as a whole: the numbers have nothing to escape
	html_escape <"$cp" | awk -F'\t' -v u="$(html_escape <<<"$unit")" '{
		cls = $9 == 1 ? "worse" : "better"
		printf "<tr><td>%s</td><td>%s</td><td class=\"num\">%s %s</td><td class=\"num\">%s %s</td><td class=\"num %s\">%+.2f%% ± %.2f%%</td><td class=\"num\">%s</td></tr>\n", $2, $3, $7, u, $8, u, cls, $4, $5, $6
	}'
	echo '</table>'
}

# The runs set aside as outliers (docs/history.md), as `changes` lists them.
outlier_list() {
	[ -s "$1" ] || return 0
	printf '<p class="sub">Set aside as outliers (not in any level): %s.</p>\n' \
		"$(html_escape <"$1" | awk -F'\t' -v u="$(html_escape <<<"$2")" '{ printf "%s%s %s %s (%s%%)", (NR > 1 ? ", " : ""), $1, $2, u, $3 }')"
}

# series.tsv's fields are read split at \037, not at tabs: read collapses
# runs of whitespace separators, and the unit field is often empty.
series_section() {
	local work=$1 stage=$2 i bench metric param machine config label unit direction n k first last
	local name title ylabel ymin ymax nout
	while IFS=$'\037' read -r i bench metric param machine config label unit direction n k first last ymin ymax nout; do
		name=$bench-$metric${param/#-/}
		[ "$param" = - ] || name=$bench-$metric-$param
		title="$bench $metric$([ "$param" = - ] || echo " $param") on $machine"
		ylabel="$label (${unit:+$unit, }$direction is better)"
		write_vars "$work" "$i" "$title" "$ylabel" "$stage/plots/$i-$name" "$n" "$ymin" "$ymax" "$nout"
		write_marks "$work/s$i.cp" >"$work/marks.$i.gp"
		say "html: trend $title"
		gnuplot -c "$HISTORY/trend.gp" "$work" "$i" 2>"$work/gnuplot.err" ||
			die "html: gnuplot failed on $title: $(grep -v '^ *$' "$work/gnuplot.err" | tail -n 1)"
		printf '<h2 id="s%s">%s</h2>\n' "$i" "$(html_escape <<<"$title")"
		printf '<p class="sub">%s runs, %s to %s; config %s; %s change point%s.</p>\n' "$n" \
			"$(html_escape <<<"$first")" "$(html_escape <<<"$last")" "$config" "$k" "$([ "$k" = 1 ] || echo s)"
		printf '<div class="plots"><figure><a href="plots/%s.png"><img src="plots/%s.svg" alt="trend of %s" loading="eager"></a>' \
			"$i-$name" "$i-$name" "$(html_escape <<<"$title")"
		echo '<figcaption>Every sample at its run (in order); steps = the mean of each segment between change points; dashed = a change point, between the two runs named; rings = a run set aside as an outlier.</figcaption></figure></div>'
		change_table "$work/s$i.cp" "$unit"
		outlier_list "$work/s$i.out" "$unit"
	done < <(tr '\t' '\037' <"$work/series.tsv")
}

html_escape() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'; }

# Put the staged page in place: plots/ first (the old one moved aside and
# removed after), then index.html by one rename.
publish() {
	local stage=$1 outdir=$2 old=""
	if [ -e "$outdir/plots" ]; then
		old=$(mktemp -d "$outdir/.plots-old.XXXXXX") || die "html: cannot write to $outdir"
		mv "$outdir/plots" "$old/" || die "html: cannot replace $outdir/plots"
	fi
	mv "$stage/plots" "$outdir/plots" || die "html: cannot write $outdir/plots"
	mv "$stage/index.html" "$outdir/index.html" || die "html: cannot write $outdir/index.html"
	[ -z "$old" ] || rm -rf "$old"
}

# Everything is written into a folder of its own in OUTDIR and put in place
# only once whole: a failure leaves OUTDIR as it was (and removes it if this
# made it), never a partial page or plots/.
cleanup() {
	rm -rf "$WORK" "$STAGE"
	[ -z "$MADE" ] || rmdir "$MADE" 2>/dev/null || true
}

main() {
	local tool=$1 root=$2 outdir=$3
	shift 3
	WORK="" STAGE="" MADE=""
	trap cleanup EXIT  # runs after main has returned: hence globals
	command -v gnuplot >/dev/null || die "html: gnuplot is not installed (make deps installs it)"
	if [ ! -d "$outdir" ]; then
		mkdir -p "$outdir" 2>/dev/null || die "html: cannot write to $outdir"
		MADE=$outdir
	fi
	[ -w "$outdir" ] || die "html: cannot write to $outdir"
	WORK=$(mktemp -d)
	STAGE=$(mktemp -d "$outdir/.html.XXXXXX")
	mkdir "$STAGE/plots"
	"$tool" -o "$root" export "$@" "$WORK" || exit 2
	{
		cat <<EOF
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mmdelta history: $(html_escape <<<"$root")</title>
<style>
$(cat "$RENDER/report.css")
.plots { display: block; }
.plots img { max-width: 960px; }
</style>
</head>
<body>
<h1>mmdelta history: $(html_escape <<<"$root")</h1>
<p class="sub">Generated $(date -u '+%Y-%m-%d %H:%M UTC') by history.sh from $(wc -l <"$WORK/series.tsv") series.
A series is one bench, metric and swept value on one machine with one config.</p>
EOF
		series_section "$WORK" "$STAGE"
		printf '<script>\n%s\n</script>\n</body>\n</html>\n' "$(cat "$RENDER/report.js")"
	} >"$STAGE/index.html"
	publish "$STAGE" "$outdir"
	MADE=""
	say "html: wrote $outdir/index.html"
}

main "$@"
