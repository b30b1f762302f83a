#!/bin/bash
# compare.sh: compare run directories; the first run is the baseline.
# Resolves run names under the results root and hands the directories to
# mmstat (reports/mmstat.c), which does the statistics, the tables and the
# CI gate.
# Exit 0, 1 when --gate finds a regression, 3 when it is inconclusive, 2 on
# usage or input errors or when mmstat fails; 128+N on signal N
# (drivers/core/exit.sh).
set -euo pipefail

# Symlinks followed: compare.sh may be called through a link on PATH.
MMDELTA_ROOT=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
source "$MMDELTA_ROOT/drivers/core/build.sh"  # tool_path
source "$MMDELTA_ROOT/drivers/core/exit.sh"  # exit_as_verdict, exit_trap
source "$MMDELTA_ROOT/drivers/core/optvalue.sh"  # opt_value
source "$MMDELTA_ROOT/drivers/core/version.sh"  # version_print
source "$MMDELTA_ROOT/drivers/run/runarg.sh"  # resolve_run
# shellcheck disable=SC2034  # read by say and die (log.sh)
LOG_PREFIX=compare.sh
# mmstat reads the HTML page's style and script under it.
export MMDELTA_ROOT
trap exit_trap EXIT

# Named as called: compare.sh, or mmdelta-compare once installed.
usage() {
	cat <<USAGE
Usage: ${0##*/} [options] RUN_A RUN_B [RUN_C ...]

A RUN is a name under the results root (./results, -o DIR or
\$MMDELTA_RESULTS) or a path to a run directory.  RUN_A is the baseline.

  --format F         text (default, mmtests layout), markdown, csv, json,
                     html (the --html page without plots) or lkp (the kernel
                     test robot's layout and metric names, docs/robot.md)
  --alpha A          significance level of the t-test (default 0.05)
  --test T           welch (default) or student (pooled, as ministat)
  --allow-partial    compare partial runs too (marked in the header)
  --unlike-clocks    compare runs of different clocks (icount against a real
                     clock) too, said first; refused without it
  --all-metrics      text and markdown: every table of every bench, not only
                     those of the metrics that changed
  --threshold PCT    the smallest change that matters (default 0.1): a
                     significant change under it is listed on one line
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
  --version          the suite's version
USAGE
}

# What each option's value is, for the line that refuses a missing one.
declare -A OPT_WHAT=(
	[--format]="text, markdown, csv, json, html or lkp" [--alpha]="a level between 0 and 1, such as 0.05"
	[--test]="welch or student" [--gate]="a percentage, 0 or more" [--gate-metric]="a metric"
	[--threshold]="a percentage, 0 or more"
	[--inconclusive]="pass or fail" [--junit]="a file" [--top]="a number of functions"
)

main() {
	local root=${MMDELTA_RESULTS:-./results}
	local -a opts=() runs=() dirs=() visual=()
	while (($#)); do
		case $1 in
		-h | --help) usage; exit 0 ;;
		--version) version_print "${0##*/}"; exit 0 ;;
		-o) opt_value -o "a directory" "${@:2:1}"; root=$2; shift ;;
		--allow-partial | --all-metrics | --profile | --unlike-clocks) opts+=("$1") ;;
		--format | --alpha | --test | --gate | --gate-metric | --inconclusive | --junit | --top | --threshold)
			opt_value "$1" "${OPT_WHAT[$1]}" "${@:2:1}"
			opts+=("$1" "$2")
			shift
			;;
		--plot | --html)
			opt_value "$1" "a directory" "${@:2:1}"
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
	local run dir mmstat out
	mmstat=$(tool_path mmstat) || exit 2
	if ((${#runs[@]} < 2)); then
		# "--gate base patched" took a run as the value: mmstat, which
		# checks values before it counts runs, names that first.
		out=$("$mmstat" "${opts[@]}" -- 2>&1) || true
		[[ $out == *"need at least two"* ]] || { printf '%s\n' "$out" >&2; exit 2; }
		die "need at least two runs (see --help)"
	fi
	for run in "${runs[@]}"; do
		dir=$(resolve_run "$run" "$root") || exit 2
		dirs+=("$dir")
	done
	# Plots and the HTML page: reports/plot/visual.sh.
	if ((${#visual[@]})); then
		"$MMDELTA_ROOT/libexec/deps.sh" report || exit 2
		"$MMDELTA_ROOT/reports/plot/visual.sh" "$mmstat" "${visual[@]}" -- "${opts[@]}" -- "${dirs[@]}" || exit 2
	fi
	# Not exec: mmstat's 1 and 3 are verdicts, but a crash of it is not.
	local rc=0
	"$mmstat" "${opts[@]}" -- "${dirs[@]}" || rc=$?
	exit_as_verdict "$rc"
}

main "$@"
