#!/bin/bash
# reports/plot/plot.sh: draw the plots of a comparison with gnuplot.
#   reports/plot/plot.sh OUTDIR [COMPARE OPTIONS] RUNDIR...
# mmstat writes each plot's data files from the comparison itself
# (the options are compare.sh's: --alpha, --test, --all-metrics, ...), so a
# plot shows the numbers of the table; gnuplot draws them here, one job per
# CPU, as OUTDIR/BENCH-METRIC-KIND.png and .svg (box, runseq, delta, sweep).
# The first run is the baseline.  compare.sh --plot and --html call this.
# stdout: one line per plot drawn ("BENCH<TAB>METRIC<TAB>KIND<TAB>PATH"
# without extension); progress goes to stderr, a line per plot, unless
# MMDELTA_PLOT_QUIET is set (compare.sh --html says one line for all).
set -euo pipefail

MMDELTA_ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
source "$MMDELTA_ROOT/drivers/core/build.sh"  # tool_path
# The gnuplot scripts, beside this one.
PLOTS=$MMDELTA_ROOT/reports/plot
# Any failure not caught by a die() still ends in one line, not silently.
set -E
trap 'die "plot: unexpected failure in ${FUNCNAME[0]:-main}, line $LINENO"' ERR

usage() { sed -n '2,10s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

# One plot: PNG and SVG of DATA/NAME (vars.gp and the kind's data) as OUTDIR/NAME.
draw() {
	local bench=$1 metric=$2 kind=$3 name=$4
	[ -n "${MMDELTA_PLOT_QUIET:-}" ] || say "plot: $bench $metric: $kind"
	gnuplot -c "$PLOTS/$kind.gp" "$DATA/$name" "$OUTDIR/$name" "$PLOTS" 2>"$DATA/$name/gnuplot.err" ||
		die "plot: gnuplot failed on $bench $metric $kind: $( (grep -v '^ *$\|^Warning' "$DATA/$name/gnuplot.err" || echo 'no message') | tail -n 1)"
	printf '%s\t%s\t%s\t%s\n' "$bench" "$metric" "$kind" "$OUTDIR/$name" >"$DATA/$name/listed"
}

# The plots are independent: draw them in parallel, one job per CPU (a
# gnuplot start costs about 0.1 s here, and a 4x4 report has ~80 plots).  A
# job's listing goes to its own file so the output stays in order.
draw_all() {
	local jobs bench metric kind name why
	jobs=$(nproc 2>/dev/null || echo 2)
	while IFS=$'\t' read -r bench metric kind name why; do
		if [ "$name" = - ]; then
			[ -n "${MMDELTA_PLOT_QUIET:-}" ] || say "plot: $bench $metric: $why"
			continue
		fi
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
		draw "$bench" "$metric" "$kind" "$name" &
	done <"$DATA/plots.list"
	wait
	# a failed job has said why on stderr
	while IFS=$'\t' read -r bench metric kind name why; do
		[ "$name" = - ] || cat "$DATA/$name/listed" 2>/dev/null || exit 1
	done <"$DATA/plots.list"
}

main() {
	case ${1:-} in
	-h | --help) usage; exit 0 ;;
	'' | -*) die "usage: reports/plot/plot.sh OUTDIR [COMPARE OPTIONS] RUNDIR..." ;;
	esac
	OUTDIR=$1
	shift
	[ $# -gt 0 ] || die "usage: reports/plot/plot.sh OUTDIR [COMPARE OPTIONS] RUNDIR..."
	command -v gnuplot >/dev/null || die "plot: gnuplot is not installed (make deps installs it)"
	MMSTAT=$(tool_path mmstat) || exit 2
	{ mkdir -p "$OUTDIR" 2>/dev/null && [ -w "$OUTDIR" ]; } || die "plot: cannot write to $OUTDIR"
	DATA=$(mktemp -d)
	trap 'rm -rf "$DATA"' EXIT
	# Its table, notes and gate lines are compare.sh's to print, once; here
	# only a failure matters (its one line, exit 2); a gate's verdict is none.
	local rc=0
	"$MMSTAT" --format csv --plot-data "$DATA" "$@" >/dev/null 2>"$DATA/err" || rc=$?
	[ "$rc" -ne 2 ] || { grep '^mmstat: ' "$DATA/err" | tail -n 1 >&2; exit 2; }
	draw_all
}

main "$@"
