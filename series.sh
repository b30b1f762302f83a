#!/bin/bash
# series.sh: the table of a patch series.  Every commit from BASE to TIP in
# a kernel tree is built, booted under qemu (run.sh --kernel) and measured;
# the compare.sh table has one column per commit, the base first, then
# 1 ... N, and each commit's subject is listed under it, so the block pastes
# into a cover letter.  docs/bisect.md says more.
#   ./series.sh [options] --tree DIR --build CMD --image PATH BENCH|CONFIG BASE TIP
set -euo pipefail

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
source "$MMDELTA_ROOT/drivers/bisect/bisection.sh"  # bisect_check_bench, bisect_run_args, bisect_save_state
source "$MMDELTA_ROOT/drivers/bisect/tree.sh"  # tree_check, tree_restore
source "$MMDELTA_ROOT/drivers/bisect/measure.sh"  # bisect_stop_child
source "$MMDELTA_ROOT/drivers/bisect/series.sh"  # series_main
source "$MMDELTA_ROOT/drivers/bisect/dryrun.sh"  # series_dry_run

usage() {
	cat <<EOF
Usage: ${0##*/} [options] --tree DIR --build CMD --image PATH BENCH|CONFIG BASE TIP

Builds, boots and measures BASE and every commit after it up to TIP (the
first-parent line), then prints the compare.sh table with one column per
commit (base, 1 ... N) and the commits' subjects under it.  CMD is run with
bash -c in DIR and leaves the kernel at PATH (relative to DIR).

  -o DIR             results root (default: \$MMDELTA_RESULTS or ./results)
  -n NAME            the series' directory under it (default: series-BENCH)
  -i N               iterations per commit (default 2: icount is exact;
                     10 for a bench whose icount figures spread, docs/vm.md)
  --set KEY=VALUE    override a config key for every commit; repeatable
  --vm-mem, --vm-cpus, --vm-clock, --vm-numa, --vm-append, --vm-timeout
                     passed to every run.sh --kernel (see run.sh --help)
  --version          the suite's version
  --dry-run          print the commits, what each builds and boots, and about
                     how long it takes (from earlier runs in DIR); touch nothing

Writes DIR/NAME/: a run per commit (base-HASH, 1-HASH, ...), each built
image under images/, and series.txt (the table).  Exit 0 when every commit
ran; 2 on bad input, or when a commit did not build or boot (the table is
written, its column says why) or the series could not complete; 128+N on
signal N.
EOF
}

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		-o | -n | -i | --set | --tree | --build | --image | --vm-*)
			opt_value "$1" "a value" "${@:2:1}" ;;&
		-o) RESULTS=$2 ;;
		-n) rundir_check_name "$2"; NAME=$2 ;;
		-i) [[ $2 =~ ^[1-9][0-9]*$ ]] || die "-i $2: must be a whole number > 0"; ITERATIONS=$2 ;;
		--set) SETS+=("$2") ;;
		--tree) TREE=$2 ;;
		--build) BUILD=$2 ;;
		--image) IMAGE_PATH=$2 ;;
		--vm-*) vm_option "$1" "$2"; VM_ARGS+=("$1" "$2") ;;
		--dry-run) BISECT_DRY_RUN=1; shift; continue ;;
		-h | --help) usage; exit 0 ;;
		--version) version_print "${0##*/}"; exit 0 ;;
		-*) die "unknown option $1 (see --help)" ;;
		*) POS+=("$1"); shift; continue ;;
		esac
		shift 2
	done
}

# Everything that can be refused is refused here, in one line, before the
# tree is touched or anything is written.
check_args() {
	[ -n "$TREE" ] || die "--tree DIR is needed: the kernel tree whose commits make the series"
	[ ${#POS[@]} -eq 3 ] || die "give the bench or config, then BASE and TIP (got ${#POS[@]} arguments)"
	GOOD=${POS[1]} BAD=${POS[2]} TREE_ENDS="BASE TIP" BISECT_SAY=series
	vm_check_options
	bisect_run_args
	TREE=$(realpath -m "$TREE")
	tree_check
	rundir_check_root "$RESULTS"
	bisect_check_bench
	[ -n "$NAME" ] || NAME=series-$BENCH
	RESULTS=$(realpath -m "$RESULTS")
	OUT=$RESULTS/$NAME WORK=$RESULTS/$NAME/.bisect
	[ ! -e "$OUT" ] || die "$OUT exists: name this series with -n, or remove it"
	need_built bin/mmstat bin/mmci
}

# shellcheck disable=SC2317  # called from the traps
on_signal() {
	trap - INT TERM
	bisect_stop_child
	say "series: interrupted by SIG$1"
	exit $((128 + $(kill -l "$1")))
}

main() {
	trap exit_trap EXIT
	parse_args "$@"
	check_args
	if [ "$BISECT_DRY_RUN" = 1 ]; then series_dry_run; exit 0; fi
	bisect_save_state
	trap 'exit_trap tree_restore' EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	series_main
}

main "$@"
