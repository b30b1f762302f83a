#!/bin/bash
# history.sh: every complete run in RESULTS/history.sqlite, the change points
# of each series of runs over time, and their trend charts on a page.
# The arithmetic and the database are mmhistory (reports/mmhistory.c: C,
# SQLite, GSL);
# this script resolves run names and draws.  Exit 0; 1 when `changes --gate`
# finds a regression in the newest level of a series; 3 when it has a series
# too short to judge, or none; 2 on bad input or a command that could not
# complete (drivers/core/exit.sh).
set -euo pipefail

# Symlinks followed: history.sh may be called through a link on PATH.
MMDELTA_ROOT=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
source "$MMDELTA_ROOT/drivers/core/build.sh"  # tool_path
source "$MMDELTA_ROOT/drivers/core/exit.sh"  # exit_as_verdict, exit_trap
source "$MMDELTA_ROOT/drivers/core/optvalue.sh"  # opt_value
source "$MMDELTA_ROOT/drivers/core/version.sh"  # version_print
source "$MMDELTA_ROOT/drivers/run/runarg.sh"  # resolve_run, as compare.sh
# shellcheck disable=SC2034  # read by say and die (log.sh)
LOG_PREFIX=history
trap exit_trap EXIT

usage() {
	cat <<USAGE
Usage: ${0##*/} [-o DIR] COMMAND [options]

  ingest [RUN...]     record runs (names under the results root or paths);
                      with none, every complete run of the root
  rebuild             recreate DIR/history.sqlite from the run directories
  changes [options]   the change points of every series of runs
      --bench B, --metric M   only this bench, this metric
      --since RUN             only change points after run RUN
      --format text|json      (default text)
      --gate PCT              exit 1 when the newest level of a series is a
                              regression larger than PCT percent; 3 when a
                              series has too few runs to tell
      --order-by KEY          order runs by this meta key (e.g. kernel_version),
                              not by start time
      --min-segment N         runs on each side of a change point (default 3)
      --pvalue P              significance of a change point (default 0.001)
      --window N              runs E-divisive looks at at once, windows
                              overlapping by half (default 50)
  html OUTDIR [options]       OUTDIR/index.html: a trend chart per series
                              (--bench, --metric, --order-by, ... as above)
  record RUNDIR       what run.sh calls when a run completes: ingest it into
                      its root's database, unless MMDELTA_HISTORY=off; never fails

  -o DIR              results root (default: \$MMDELTA_RESULTS or ./results)
  --version           the suite's version
USAGE
}

mmhistory() {
	local t
	t=$(tool_path mmhistory) || exit 2
	"$t" "$@"
}

# run.sh's hook: a complete run must not fail because its history could not
# be written (a read-only root, a corrupt database); say so and go on.
record() {
	# shellcheck disable=SC2034  # read by say: these are run.sh's lines
	local dir=$1 root msg LOG_PREFIX=mmdelta
	[[ -n $dir ]] || return 0
	case ${MMDELTA_HISTORY:-on} in off | no | 0) return 0 ;; esac
	# run.sh | head: a message to a closed pipe fails (say ignores it)
	# rather than ending this with SIGPIPE, as if recording had failed
	trap '' PIPE
	root=$(dirname "$dir")
	if msg=$(mmhistory -o "$root" ingest "$dir" 2>&1); then
		say "recorded in $root/history.sqlite"
	else
		say "history not updated: ${msg##*history: } (./history.sh ingest records the run later)"
	fi
	return 0
}

# The options mmhistory takes after changes or html DIR: its getopt would
# take a next option as a missing value ("--bench --gate 5").
history_opts_check() {
	while (($#)); do
		case $1 in
		--bench | --metric | --since | --order-by | --format | --gate | --min-segment | --pvalue | --window)
			opt_value "$1" "a value" "${@:2:1}"; shift ;;
		esac
		shift
	done
}

main() {
	local root=${MMDELTA_RESULTS:-./results} cmd run tool
	local -a dirs=()
	while (($#)); do
		case $1 in
		-h | --help) usage; exit 0 ;;
		--version) version_print "${0##*/}"; exit 0 ;;
		-o) opt_value -o "a directory" "${@:2:1}"; root=$2; shift 2 ;;
		-*) die "unknown option '$1' (see --help)" ;;
		*) break ;;
		esac
	done
	(($#)) || die "no command: ingest, rebuild, changes or html (see --help)"
	cmd=$1
	shift
	case $cmd in
	record) record "${1:-}"; return 0 ;;
	ingest | rebuild | changes | html) ;;
	*) die "unknown command '$cmd' (ingest, rebuild, changes, html; see --help)" ;;
	esac
	[[ -d $root ]] || die "results directory $root does not exist (-o DIR or MMDELTA_RESULTS)"
	case $cmd in
	ingest)
		for run in "$@"; do
			run=$(resolve_run "$run" "$root") || exit 2
			dirs+=("$run")
		done
		mmhistory -o "$root" ingest "${dirs[@]}"
		;;
	rebuild) (($# == 0)) || die "rebuild takes no arguments"; mmhistory -o "$root" rebuild ;;
	changes)
		history_opts_check "$@"
		# its gate's 1 and 3 are verdicts; only changes has one
		local rc=0
		mmhistory -o "$root" changes "$@" || rc=$?
		exit_as_verdict "$rc"
		;;
	html)
		{ (($#)) && [[ $1 != -* ]]; } || die "html needs an output directory"
		history_opts_check "${@:2}"
		tool=$(tool_path mmhistory) || exit 2
		"$MMDELTA_ROOT/reports/history/trend.sh" "$tool" "$root" "$@"
		;;
	esac
}

main "$@"
