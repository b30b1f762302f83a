#!/bin/bash
# compare.sh: compare run directories; the first run is the baseline.
# Resolves run names under the results root and hands the directories to
# mmstat (reports/mmstat.c), which does the statistics, the tables and the
# CI gate.
# Exit 0, 1 when --gate finds a regression, 3 when it is inconclusive, 2 on
# usage or input errors.
set -euo pipefail

# Symlinks followed: compare.sh may be called through a link on PATH.
MMDELTA_ROOT=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
source "$MMDELTA_ROOT/drivers/core/build.sh"  # tool_path
source "$MMDELTA_ROOT/drivers/run/runarg.sh"  # resolve_run
# shellcheck disable=SC2034  # read by say and die (log.sh)
LOG_PREFIX=compare.sh DIE_STATUS=2
# mmstat reads the HTML page's style and script under it.
export MMDELTA_ROOT

usage() {
	cat <<'USAGE'
usage: compare.sh [options] RUN_A RUN_B [RUN_C ...]

A RUN is a name under the results root (./results, -o DIR or
$MMDELTA_RESULTS) or a path to a run directory.  RUN_A is the baseline.

  --format F         text (default, mmtests layout), markdown, csv, json or
                     html (the --html page without plots)
  --alpha A          significance level of the t-test (default 0.05)
  --test T           welch (default) or student (pooled, as ministat)
  --allow-partial    compare partial runs too (marked in the header)
  --all-metrics      text and markdown: every monitor metric, not only those
                     that differ significantly from the baseline
  --gate PCT         CI gate: exit 0 when the interval of every gated metric's
                     change excludes a loss beyond PCT percent, 1 when one
                     proves such a loss, 3 when an interval straddles PCT
  --inconclusive P   pass or fail: what an undecided gate exits (default 3)
  --gate-metric M    gate metric M instead of each bench's primary metric
                     (repeatable)
  --junit FILE       write the gate's verdicts as JUnit XML
  --profile          after each bench, where its work changed: per function,
                     from the insns monitor (exact) or profile (Welch)
  --top N            functions a --profile block shows (default 10)
  --plot DIR         also draw the plots (PNG and SVG) into DIR
  --html DIR         also write DIR/index.html: systems, tables, plots, gate
  -o DIR             results root
  -h, --help         this text
USAGE
}

main() {
	local root=${MMDELTA_RESULTS:-./results}
	local -a opts=() runs=() dirs=() visual=()
	while (($#)); do
		case $1 in
		-h | --help) usage; exit 0 ;;
		-o) (($# >= 2)) || die "-o needs a directory"; root=$2; shift ;;
		--allow-partial | --all-metrics | --profile) opts+=("$1") ;;
		--format | --alpha | --test | --gate | --gate-metric | --inconclusive | --junit | --top)
			(($# >= 2)) || die "$1 needs a value"
			opts+=("$1" "$2")
			shift
			;;
		--plot | --html)
			(($# >= 2)) || die "$1 needs a directory"
			visual+=("$1" "$2")
			shift
			;;
		--*=*) set -- "${1%%=*}" "${1#*=}" "${@:2}"; continue ;;
		--) shift; runs+=("$@"); break ;;
		-*) die "unknown option '$1' (see --help)" ;;
		*) runs+=("$1") ;;
		esac
		shift
	done
	((${#runs[@]} >= 2)) || die "need at least two runs (see --help)"
	local run dir mmstat
	mmstat=$(tool_path mmstat) || exit 2
	for run in "${runs[@]}"; do
		dir=$(resolve_run "$run" "$root") || exit 2
		dirs+=("$dir")
	done
	# Plots and the HTML page: reports/plot/visual.sh.
	if ((${#visual[@]})); then
		"$MMDELTA_ROOT/libexec/deps.sh" report || exit 2
		"$MMDELTA_ROOT/reports/plot/visual.sh" "$mmstat" "${visual[@]}" -- "${opts[@]}" -- "${dirs[@]}" || exit 2
	fi
	exec "$mmstat" "${opts[@]}" -- "${dirs[@]}"
}

main "$@"
