#!/bin/bash
# bisect.sh: find the kernel that changed a figure, from a list of images or
# a kernel git tree.  Every point is one `run.sh --kernel` run, kept; under
# the icount clock a run repeats bit for bit, so two iterations decide a
# point.  docs/bisect.md says how a point is decided and what the report holds.
#   ./bisect.sh [options] BENCH|CONFIG IMAGE IMAGE...
#   ./bisect.sh [options] --tree DIR --build CMD --image PATH BENCH|CONFIG GOOD BAD
set -euo pipefail

# The script's own directory, symlinks followed (a link on PATH, an
# installed tree).
MMDELTA_ROOT=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
# shellcheck source=drivers/bisect/globals.sh
source "$MMDELTA_ROOT/drivers/bisect/globals.sh"  # the globals bisect's files share
source "$MMDELTA_ROOT/drivers/core/log.sh"  # die, say
source "$MMDELTA_ROOT/drivers/core/exit.sh"  # exit_trap
source "$MMDELTA_ROOT/drivers/core/build.sh"  # need_built
source "$MMDELTA_ROOT/drivers/core/optvalue.sh"  # opt_value
source "$MMDELTA_ROOT/drivers/core/version.sh"  # version_print
source "$MMDELTA_ROOT/drivers/run/rundir.sh"  # rundir_check_name, rundir_check_root
source "$MMDELTA_ROOT/drivers/vm/vm.sh"  # the --vm-* options
source "$MMDELTA_ROOT/drivers/bisect/bisection.sh"  # bisect_check_bench, bisect_check_images, bisect_images, bisect_run_args, bisect_save_state, bisect_tree_main
source "$MMDELTA_ROOT/drivers/bisect/tree.sh"  # the tree form: tree_check, tree_step, tree_restore
source "$MMDELTA_ROOT/drivers/bisect/fleet.sh"  # --slurm: bisect_fleet_check, bisect_fleet_stop
source "$MMDELTA_ROOT/drivers/bisect/measure.sh"  # bisect_stop_child
source "$MMDELTA_ROOT/drivers/bisect/dryrun.sh"  # bisect_dry_run

usage() {
	cat <<EOF
Usage: ${0##*/} [options] BENCH|CONFIG IMAGE IMAGE...
  or:  ${0##*/} [options] --tree DIR --build CMD --image PATH BENCH|CONFIG GOOD BAD

Images are given oldest first: the first is good, the last bad.  In a tree,
GOOD and BAD are commits, BAD a descendant of GOOD; CMD is run in DIR to
build the kernel, which it leaves at PATH (relative to DIR).

  -o DIR             results root (default: \$MMDELTA_RESULTS or ./results)
  -n NAME            the bisection's directory under it (default: bisect-BENCH)
  -i N               iterations per point (default 2: icount is exact; 10 for
                     a bench whose icount figures spread, docs/vm.md)
  --set KEY=VALUE    override a config key at every point; repeatable
  --metric M         the metric to bisect (default: the bench's primary one)
  --first            name one step, the one the midpoint rule finds (default:
                     every step of the series, each between adjacent points)
  --threshold PCT    a step is a change of at least PCT% (default: a tenth of
                     the change between the ends; with --first: a point is
                     bad beyond the midpoint of the ends, or beyond PCT% from
                     the good end); the ends must differ by at least PCT%
  --vm-mem, --vm-cpus, --vm-clock, --vm-numa, --vm-append, --vm-timeout
                     passed to every run.sh --kernel (see run.sh --help)
  --dry-run          print the points, what each builds and boots, and about
                     how long it takes (from earlier runs in DIR); touch nothing
  --slurm            images form: every point is a Slurm job (run.sh --slurm)
  --jobs K           with --slurm: K points a round, measured at once
                     (about log_(K+1) N rounds instead of log2 N; default 1)
  --slurm-opt ARG    with --slurm: passed to sbatch; repeatable
  --version          the suite's version

Writes DIR/NAME/: the run of every point, bisect.json and bisect.txt.
Exit 0 when the search named its step (every step); 3 when it ended without
naming one: the ends do not differ, or skipped points leave candidates
(named in the report); 2 on bad input, or when it could not complete (an
end that cannot be measured, a failure of this host); 128+N on signal N.
EOF
}

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		-o | -n | -i | --set | --metric | --threshold | --tree | --build | --image | --vm-* | --jobs)
			opt_value "$1" "a value" "${@:2:1}" ;;&
		# sbatch's own options are --slurm-opt's values.
		--slurm-opt) [ $# -ge 2 ] || die "$1 needs a value" ;;&
		-o) RESULTS=$2 ;;
		-n) rundir_check_name "$2"; NAME=$2 ;;
		-i) [[ $2 =~ ^[1-9][0-9]*$ ]] || die "-i $2: must be a whole number > 0"; ITERATIONS=$2 ;;
		--set) SETS+=("$2") ;;
		--metric) METRIC=$2 ;;
		--threshold) [[ $2 =~ ^(0?\.[0-9]*[1-9][0-9]*|[1-9][0-9]*(\.[0-9]+)?)$ ]] ||
			die "--threshold $2: must be a percentage > 0, like 2 or 0.5"; THRESHOLD=$2 ;;
		--tree) TREE=$2 ;;
		--build) BUILD=$2 ;;
		--image) IMAGE_PATH=$2 ;;
		--slurm) SLURM=1; shift; continue ;;
		--first) BISECT_FIRST=1; shift; continue ;;
		--dry-run) BISECT_DRY_RUN=1; shift; continue ;;
		--jobs) [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--jobs $2: must be a whole number > 0 (the points measured at once)"; JOBS=$2 ;;
		--slurm-opt) SLURM_OPTS+=("$2") ;;
		--vm-*) vm_option "$1" "$2"; VM_ARGS+=("$1" "$2") ;;
		-h | --help) usage; exit 0 ;;
		--version) version_print "${0##*/}"; exit 0 ;;
		-*) die "unknown option $1 (see --help)" ;;
		*) POS+=("$1"); shift; continue ;;
		esac
		shift 2
	done
}

# Everything that can be refused is refused here, in one line, before
# anything is written: the config and --set (run.sh --dry-run), the VM
# options, the metric, the images or the tree, the results directory.
check_args() {
	[ ${#POS[@]} -ge 1 ] || die "nothing to bisect: give a bench or config and the kernels (see --help)"
	if [ -n "$TREE" ]; then
		[ ${#POS[@]} -eq 3 ] || die "--tree needs exactly two commits after the config: GOOD BAD"
		GOOD=${POS[1]} BAD=${POS[2]}
	else
		[ ${#POS[@]} -ge 3 ] || die "give at least two kernel images, oldest first (got $((${#POS[@]} - 1)) after the config)"
		[ -z "$BUILD$IMAGE_PATH" ] || die "--build and --image go with --tree"
	fi
	bisect_fleet_check
	vm_check_options
	bisect_run_args
	if [ -n "$TREE" ]; then TREE=$(realpath -m "$TREE"); tree_check; else bisect_check_images; fi
	rundir_check_root "$RESULTS"
	bisect_check_bench
	[ -n "$NAME" ] || NAME=bisect-$BENCH
	RESULTS=$(realpath -m "$RESULTS")
	OUT=$RESULTS/$NAME WORK=$RESULTS/$NAME/.bisect
	[ ! -e "$OUT" ] || die "$OUT exists: name this bisection with -n, or remove it"
	need_built bin/mmstat bin/mmci
}

# shellcheck disable=SC2317  # called from the traps
on_signal() {
	trap - INT TERM
	bisect_stop_child
	bisect_fleet_stop
	say "bisect: interrupted by SIG$1"
	exit $((128 + $(kill -l "$1")))
}

# git bisect's step script: bisect.sh --step WORK (the bisection's own
# files).  Any failure here must abort git bisect (128), never call the
# commit bad: tree_step's 0, 1 and 125 are the only verdicts.
step_main() {
	local -a argv
	DIE_STATUS=128
	trap exit_trap EXIT
	WORK=$1 OUT=$(dirname "$1")
	mapfile -d '' -t argv <"$WORK/argv"
	parse_args "${argv[@]}"
	bisect_run_args
	BENCH=$(<"$WORK/bench") BISECT_MONITORS=$(<"$WORK/monitors")
	bisect_check_metric
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	tree_step
}

main() {
	[ "${1:-}" != --step ] || step_main "$2"
	# Not for the step script: git bisect reads its 0, 1, 125 and 128.
	trap exit_trap EXIT
	parse_args "$@"
	check_args
	if [ "$BISECT_DRY_RUN" = 1 ]; then bisect_dry_run; exit 0; fi
	bisect_save_state
	trap 'exit_trap tree_restore' EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	say "bisect: $BENCH, metric $METRIC, $ITERATIONS iterations a point, into $OUT"
	if [ -n "$TREE" ]; then bisect_tree_main; else bisect_images; fi
}

main "$@"
