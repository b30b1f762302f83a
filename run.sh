#!/bin/bash
# run.sh: run benchmarks on this kernel and write one run directory.
#   ./run.sh [-c CONFIG]... [-n NAME] [-i ITERATIONS] [-o RESULTS_DIR]
#            [--set KEY=VALUE]... [--force] [--dry-run] BENCH|CONFIG...
set -euo pipefail

# The script's own directory, symlinks followed: run.sh may be called
# through a link on PATH or from an installed tree (docs/install.md).
MMDELTA_ROOT=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
# shellcheck source=drivers/core/globals.sh
source "$MMDELTA_ROOT/drivers/core/globals.sh"  # the globals these files share, declared once
source "$MMDELTA_ROOT/drivers/core/log.sh"  # die, phase, say
source "$MMDELTA_ROOT/drivers/core/exit.sh"  # END_SIGNALS, exit_status, exit_trap, exit_verdict
source "$MMDELTA_ROOT/drivers/core/build.sh"  # need_built: make in a source tree, nothing when installed
source "$MMDELTA_ROOT/drivers/core/optvalue.sh"  # opt_value: an option's value is not the next option
source "$MMDELTA_ROOT/drivers/core/version.sh"  # version_print
source "$MMDELTA_ROOT/drivers/config/config.sh"  # configs through mmconfig into CFG; --set
source "$MMDELTA_ROOT/drivers/system/lock.sh"  # one run.sh per machine
source "$MMDELTA_ROOT/drivers/system/deadrun.sh"  # what a killed run.sh left
source "$MMDELTA_ROOT/drivers/system/privilege.sh"  # privilege_check
source "$MMDELTA_ROOT/drivers/system/settings.sh"  # THP and other settings, restored at exit
source "$MMDELTA_ROOT/drivers/system/noise.sh"  # the busy-machine check
source "$MMDELTA_ROOT/drivers/system/facts.sh"  # meta and topology.txt
source "$MMDELTA_ROOT/drivers/run/rundir.sh"  # meta_get, meta_set, run_meta_head, rundir_check, rundir_check_name, rundir_check_root, rundir_create, rundir_finish
source "$MMDELTA_ROOT/drivers/run/iterate.sh"  # bench_run, for_each_point, point_check, point_total
source "$MMDELTA_ROOT/drivers/run/autostop.sh"  # -i auto's stopping rules, the sequential gate
source "$MMDELTA_ROOT/drivers/run/extend.sh"  # --add: more iterations for a complete run
source "$MMDELTA_ROOT/drivers/run/dryrun.sh"  # --dry-run: the commands and their time
source "$MMDELTA_ROOT/drivers/run/result.sh"  # profiles_said, run_has_profile
source "$MMDELTA_ROOT/drivers/monitors/monitors.sh"  # monitor_names, monitors_abort
source "$MMDELTA_ROOT/drivers/vm/vm.sh"  # --kernel: the same run inside a VM
source "$MMDELTA_ROOT/drivers/vm/many.sh"  # several --kernel images here: vm_many_check, vm_many_run
source "$MMDELTA_ROOT/drivers/vm/caps.sh"  # caps_check: what the kernel cannot do for the configs
source "$MMDELTA_ROOT/drivers/fleet/fleet.sh"  # --slurm: the same run as Slurm jobs
# 0 complete (or the gate passed), 1 REGRESSION, 3 inconclusive (--baseline),
# 2 anything else that ends the run before it completes; 128+N a signal.
trap exit_trap EXIT

usage() {
	cat <<EOF
Usage: ${0##*/} [options] BENCH|CONFIG...
  -c CONFIG          run a config (a name under configs/ or a path); repeatable
  -n NAME            run name (default: the kernel release, as uname -r prints it)
  -i N|auto          iterations per config, overriding ITERATIONS (auto: until
                     the mean's 95% CI is within CI_TARGET)
  --baseline BASE --gate PCT
                     with -i auto: iterate until the gate against run BASE
                     (same results root) decides pass or REGRESSION
  --add N            add N counted iterations to the complete run -n NAME
                     (its own configs; BENCH... limits it to those benches)
  -o DIR             results root (default: \$MMDELTA_RESULTS or ./results)
  --set KEY=VALUE    override KEY in every config that has it; repeatable
  --set BENCH.KEY=VALUE   the same for BENCH's config only
  --monitors A,B     monitors for every config, replacing MONITORS= ('none' for none):
                     $(monitor_names)
  --ignore-load      measure even when other work keeps a CPU busy
  --force            replace an existing run of the same name once the new one completes
  --dry-run          print the resolved configs, the exact commands and the time
                     they should take; run and write nothing
  --version          the suite's version
$(vm_usage)
$(fleet_usage)
benches and configs: $(cd "$MMDELTA_ROOT/configs" && echo *)
EOF
}

# CONFIGS, SETS, NAME and ITERATIONS_OVERRIDE are shared (state.sh); these
# stay in run.sh.
# MMDELTA_IGNORE_LOAD=1 is --ignore-load for every run: the CLI tests set
# it, since they check behaviour and would otherwise fail whenever something
# else keeps the machine busy.
RESULTS=${MMDELTA_RESULTS:-results} FORCE=0 DRY_RUN=0 IGNORE_LOAD=0
[ "${MMDELTA_IGNORE_LOAD:-0}" = 0 ] || IGNORE_LOAD=1
parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		-c) opt_value -c "a config" "${@:2:1}"; CONFIGS+=("$2"); shift ;;
		-n) [ $# -ge 2 ] || die "-n needs a name"; rundir_check_name "$2"; NAME=$2; shift ;;
		-i) opt_value -i "a number" "${@:2:1}"; ITERATIONS_OVERRIDE=$2; shift
		    [[ $ITERATIONS_OVERRIDE =~ ^([1-9][0-9]*|auto)$ ]] || die "-i $ITERATIONS_OVERRIDE: must be a whole number > 0 or auto" ;;
		-o) opt_value -o "a directory" "${@:2:1}"; RESULTS=$2; shift ;;
		--set) opt_value --set "KEY=VALUE" "${@:2:1}"; set_check "$2"; SETS+=("$2"); shift ;;
		--baseline) opt_value "$1" "a run name" "${@:2:1}"; seqgate_option "$1" "$2"; shift ;;
		--gate) opt_value "$1" "a percentage, such as 5" "${@:2:1}"; seqgate_option "$1" "$2"; shift ;;
		--add) opt_value --add "a number of iterations" "${@:2:1}"; ADD_ITERATIONS=$2; shift ;;
		--monitors) opt_value --monitors "a list (or none)" "${@:2:1}"; SETS+=("MONITORS=$2"); shift ;;
		--force) FORCE=1 ;;
		--ignore-load) IGNORE_LOAD=1 ;;
		--dry-run) DRY_RUN=1 ;;
		# sbatch's own options are --slurm-opt's values.
		--slurm-opt) [ $# -ge 2 ] || die "$1 needs a value"; fleet_option "$1" "$2"; shift ;;
		--kernel) opt_value "$1" "a kernel image" "${@:2:1}"; fleet_option "$1" "$2"; shift ;;
		--slurm-wait) opt_value "$1" "a job id" "${@:2:1}"; fleet_option "$1" "$2"; shift ;;
		--slurm|--each-node|--wait) fleet_option "$1" ;;
		--vm-*) opt_value "$1" "a value" "${@:2:1}"; vm_option "$1" "$2"; shift ;;
		--jobs) opt_value "$1" "a number" "${@:2:1}"; [[ $2 =~ ^[1-9][0-9]*$ ]] ||
			die "--jobs $2: must be a whole number > 0 (the guests booted at once)"; VM_JOBS=$2; shift ;;
		-h|--help) usage; exit 0 ;;
		--version) version_print "${0##*/}"; exit 0 ;;
		-*) die "unknown option $1 (see --help)" ;;
		*) CONFIGS+=("$1") ;;
		esac
		shift
	done
	fleet_options_done "$RESULTS"
	[ ${#CONFIGS[@]} -gt 0 ] || [ -n "$ADD_ITERATIONS" ] || die "nothing to run: name a bench or config (see --help)"
	if [ "$VM_MANY" = 1 ]; then vm_many_check "$RESULTS" "$FORCE"; return 0; fi
	[ -z "$VM_JOBS" ] || die "--jobs $VM_JOBS: goes with several --kernel images (guests booted at once)"
	vm_options_done
	[ -n "$NAME" ] || NAME=$(uname -r)
	rundir_check_name "$NAME"
	# A dry run refuses what the run would, but for bisect.sh's look at
	# its guests' config (MMDELTA_DRY_FOR_GUEST=1): the bisection's own
	# directory is its to check.
	[ "${MMDELTA_DRY_FOR_GUEST:-0}" = 1 ] || rundir_check_root "$RESULTS"
	[ "$FLEET" = 0 ] || [ -z "$ADD_ITERATIONS$GATE_BASELINE$GATE_PCT" ] ||
		die "--add, --baseline and --gate measure on this machine, not with --slurm"
	seqgate_check_args "$RESULTS"
	extend_check_args "$RESULTS"
}

# Resolve every config before anything is written, so a bad one costs
# nothing; build just the benches the configs name, then let each check its
# options.
resolve_configs() {
	local c bench files=() targets=()
	need_built bin/mmconfig
	for c in "${CONFIGS[@]}"; do files+=("$(config_path "$c")"); done
	CONFIGS=("${files[@]}")
	for c in "${CONFIGS[@]}"; do
		bench=$(config_bench "$c") || exit 2
		[[ " ${targets[*]} " != *" bin/$bench "* ]] ||
			die "${c##*/}: bench $bench is named twice; compare configs of one bench as separate runs"
		targets+=("bin/$bench")
	done
	# mmseqgate only for --baseline: a --kernel guest has none.
	need_built bin/mmci bin/mmstat ${GATE_BASELINE:+bin/mmseqgate} "${targets[@]}"
	sets_check
	# A guest's settings are the guest's; a dry run refuses what the run
	# would (THP=never as a normal user), unless it is bisect's look at a
	# config its guests will run (MMDELTA_DRY_FOR_GUEST=1).
	local check=privilege_check
	[ -z "$VM_KERNEL" ] && [ "${MMDELTA_DRY_FOR_GUEST:-0}" = 0 ] || check=:
	configs_available "$check"
}

# Each config's points checked (point_check).  A config none of whose
# points this machine can run is left out, and so is such a point of a
# sweep, each in one line, when other work remains; when none does, the
# first such line is the refusal.
configs_available() {
	local check=$1 c rc line kept=()
	UNAVAILABLE_FILE=$(mktemp)
	for c in "${CONFIGS[@]}"; do
		rc=0
		(
			config_load "$c" && "$check" "$c" || exit 2
			POINTS=$(point_total) POINTS_UNAVAILABLE=0
			for_each_point point_check || exit 2
			((POINTS_UNAVAILABLE < POINTS)) || exit 3
		) || rc=$?
		case $rc in
		0) kept+=("$c") ;;
		3) ;;
		*) rm -f "$UNAVAILABLE_FILE"; exit 2 ;;
		esac
	done
	if [ ${#kept[@]} -eq 0 ]; then
		line=$(head -n 1 "$UNAVAILABLE_FILE")
		rm -f "$UNAVAILABLE_FILE"
		die "$line"
	fi
	while IFS= read -r line; do say "$line; left out"; done <"$UNAVAILABLE_FILE"
	rm -f "$UNAVAILABLE_FILE"
	UNAVAILABLE_FILE=""
	CONFIGS=("${kept[@]}")
}


# Each of END_SIGNALS (exit.sh) is caught.  SIGKILL cannot be: the next
# run.sh finishes what a killed one leaves (drivers/system/deadrun.sh).

# On any exit that is not success: stop the bench, restore the system and
# leave the partial run saying why.  Signals wait until that is done.
on_exit() {
	local rc=$?
	trap - EXIT
	# shellcheck disable=SC2086  # a list of names
	trap '' $END_SIGNALS
	[ -z "$EXTEND_TMP" ] || rm -rf "$EXTEND_TMP"
	monitors_abort
	# With monitors BENCH_PID is the subshell that waits for the bench, so
	# its children are signalled too: a bench mid-populate would otherwise
	# live on until its populate ends.
	if [ -n "$BENCH_PID" ]; then
		pkill -TERM -P "$BENCH_PID" 2>/dev/null || true
		kill -TERM "$BENCH_PID" 2>/dev/null || true
		wait "$BENCH_PID" 2>/dev/null || true
	fi
	settings_restore
	if [ -n "${RUN_DIR:-}" ] && [ -d "$RUN_DIR" ] && [ "$rc" -ne 0 ]; then
		meta_set "$RUN_DIR" status "${STATUS:-failed}"
		meta_set "$RUN_DIR" phase "$PHASE"
		meta_set "$RUN_DIR" end_time "$(date -Is)"
		say "run left partial in $RUN_DIR (status: ${STATUS:-failed}, phase: $PHASE); to run it again, add --force, or remove $RUN_DIR"
	fi
	exit "$(exit_status "$rc")"
}

# After SIGPIPE nobody reads the output: the rest of the messages go nowhere
# instead of raising the signal again.  (A hung-up terminal only fails
# writes, which say ignores.)  A run already complete stays complete and is
# recorded: after SIGPIPE run.sh goes on to its end (nothing is left but
# messages, and it exits 0); after another signal it records the run and
# exits with the signal's status.
on_signal() {
	if [ "$RUN_COMPLETE" = 1 ]; then
		[ "$1" != PIPE ] || { exec >/dev/null 2>&1; return 0; }
		record_history
		exit $((128 + $(kill -l "$1")))
	fi
	STATUS=interrupted
	[ "$1" != PIPE ] || exec >/dev/null 2>&1
	say "interrupted by SIG$1 during $PHASE"
	[ -z "${RUN_DIR:-}" ] || [ ! -d "$RUN_DIR" ] || meta_set "$RUN_DIR" signal "SIG$1" || true
	exit $((128 + $(kill -l "$1")))
}

traps_set() {
	local sig
	trap on_exit EXIT
	for sig in $END_SIGNALS; do
		# shellcheck disable=SC2064  # the name is fixed now, on purpose
		trap "on_signal $sig" "$sig"
	done
}

main() {
	parse_args "$@"
	phase "dependency check"
	# The run set, and the Slurm client with --slurm; --kernel has added the
	# vm set (vm_options_done).
	local sets=(run)
	[ "$FLEET" = 0 ] || sets+=(fleet)
	"$MMDELTA_ROOT/libexec/deps.sh" "${sets[@]}" || die "missing dependencies (see above)"
	resolve_configs
	# What the kernel (the image's, or this one) cannot do for the configs,
	# refused before anything is written; each image of several, and each
	# Slurm job, checks its own, as does a guest whose image did not say.
	[ "$VM_MANY$FLEET" != 00 ] || [ "${MMDELTA_DRY_FOR_GUEST:-0}" = 1 ] || caps_check
	if [ "$VM_MANY" = 1 ]; then vm_many_run "$RESULTS" "$DRY_RUN" "$@"; return; fi
	if [ "$FLEET" = 1 ]; then fleet_submit "$RESULTS" "$FORCE" "$DRY_RUN" "$@"; return; fi
	if [ "$DRY_RUN" = 1 ]; then
		# the busy-machine refusal too, before the commands are shown
		[ -n "$VM_KERNEL" ] || [ "$IGNORE_LOAD" = 1 ] || [ "${MMDELTA_DRY_FOR_GUEST:-0}" = 1 ] || load_check 0
		# and a name taken, or an unfinished run of it in the way
		[ -n "$ADD_ITERATIONS" ] || [ "${MMDELTA_DRY_FOR_GUEST:-0}" = 1 ] || rundir_check_free "$RESULTS" "$NAME" "$FORCE"
		dry_run "$RESULTS"
		return 0
	fi
	deadrun_reap "$RESULTS"
	[ -n "$ADD_ITERATIONS" ] || rundir_check "$RESULTS" "$NAME" "$FORCE"
	[ -n "$VM_KERNEL" ] || machine_lock  # a guest changes nothing on the host
	if [ -n "$VM_KERNEL" ]; then vm_load_check "$IGNORE_LOAD"; else load_check "$IGNORE_LOAD"; fi
	settings_recover
	traps_set
	if [ -n "$ADD_ITERATIONS" ]; then extend_run "$RESULTS" "$FORCE"; return; fi
	rundir_create "$RESULTS" "$NAME" "$FORCE"
	deadrun_mark "$RUN_DIR"
	# At once: its pid tells another run.sh that this run is alive.
	run_meta_head "$@" >"$RUN_DIR/meta"
	phase set-up
	if [ -n "$VM_KERNEL" ]; then
		vm_run "$@"
		# the insns monitor's tables are the host's, made after the guest's results
		profiles_said "$FINAL_DIR" insns
		return
	fi
	{
		meta_line load_at_start "$LOAD_AT_START"
		facts_meta
	} >>"$RUN_DIR/meta"
	facts_topology >"$RUN_DIR/topology.txt"
	facts_kernel_config "$RUN_DIR"
	say "run '$NAME' into $RUN_DIR"
	ITER_OUT=$RUN_DIR/.iteration.out
	local c failed=() failed_phase=""
	for c in "${CONFIGS[@]}"; do
		bench_run "$c" || { failed+=("${c##*/}"); failed_phase=${failed_phase:-$PHASE}; settings_restore; }
	done
	rm -f "$ITER_OUT"
	if [ ${#failed[@]} -gt 0 ]; then
		PHASE=$failed_phase
		die "failed: ${failed[*]}"
	fi
	phase "writing results"
	meta_set "$RUN_DIR" end_time "$(date -Is)"
	meta_set "$RUN_DIR" status complete
	rundir_finish
	say "complete: $FINAL_DIR"
}

# A run's clock as compare.sh tells them apart (reports/rundir/runinfo.c):
# icount, or a real clock on the host or in a guest.
run_clock() {
	local clock
	clock=$(meta_get "$1" clock)
	[ -n "$clock" ] || clock=$(meta_get "$1" vm_clock)
	[ "$clock" = icount ] || clock=realtime
	[ -z "$(meta_get "$1" vm_clock)" ] || clock+=" guest"
	echo "$clock"
}

# Would compare.sh set run DIR beside this one: complete, the same clock on
# the same kind of system, and every bench of this run.
comparable() {
	local dir=$1 b
	[ "$(meta_get "$dir" status)" = complete ] || return 1
	[ "$(run_clock "$dir")" = "$(run_clock "$FINAL_DIR")" ] || return 1
	for b in "$FINAL_DIR"/*/samples.tsv; do
		b=${b%/samples.tsv}
		[ -f "$dir/${b##*/}/samples.tsv" ] || return 1
	done
}

# The next step as the user would type it, the baseline first: this run
# against its --baseline, or against the latest other comparable run in the
# results root (after --add this run is the baseline), or against one still
# to be made; with --profile when both hold a profile.
compare_hint() {
	local cmd=$MMDELTA_ROOT/compare.sh opt="" other
	case ${0##*/} in
	run.sh) cmd=${0%/*}/compare.sh ;;
	*-run) cmd=${0%-run}-compare ;;
	esac
	[ "$RESULTS" = "${MMDELTA_RESULTS:-results}" ] || opt=" -o $RESULTS"
	other=$GATE_BASELINE
	[ -n "$other" ] || other=$(find "$RESULTS" -mindepth 1 -maxdepth 1 -type d ! -name '.*' -printf '%T@ %f\n' |
		sort -rn | cut -d' ' -f2 | grep -vxF -- "$NAME" |
		while IFS= read -r d; do ! comparable "$RESULTS/$d" || { echo "$d"; break; }; done) || true
	# where the work changed, per function, when both runs were profiled
	if run_has_profile "$FINAL_DIR" && { [ -z "$other" ] || run_has_profile "$RESULTS/$other"; }; then
		opt+=" --profile"
	fi
	if [ -z "$other" ]; then
		echo "$cmd$opt $NAME OTHER, once there is a run named OTHER"
	elif [ -n "$ADD_ITERATIONS" ]; then
		echo "$cmd$opt $NAME $other"
	else
		echo "$cmd$opt $other $NAME"
	fi
}

# Every complete run is recorded in RESULTS/history.sqlite (history.sh; not
# when MMDELTA_HISTORY=off, nor in a --kernel guest, which has no history.sh),
# once, whether run.sh reaches its end or a signal cuts it short.
HISTORY_RECORDED=0
record_history() {
	[ "$RUN_COMPLETE" = 1 ] && [ "$HISTORY_RECORDED" = 0 ] || return 0
	HISTORY_RECORDED=1
	[ ! -x "$MMDELTA_ROOT/history.sh" ] || "$MMDELTA_ROOT/history.sh" record "$FINAL_DIR" || true
}

main "$@"
record_history
# With --baseline the run is complete and recorded either way; its exit is
# the gate's, for a CI job that runs only run.sh.
case $GATE_EXIT in
1) say "the gate against $GATE_BASELINE: REGRESSION (exit 1; see the stopped lines above)" ;;
3) say "the gate against $GATE_BASELINE: inconclusive (exit 3; see the stopped lines above)" ;;
esac
# The next step comes last, where the eye lands; a --kernel guest's results
# root is the host's to compare, not its own.
[ -z "${FINAL_DIR:-}" ] || [ "${MMDELTA_GUEST:-0}" = 1 ] || say "compare: $(compare_hint)"
[ "$GATE_EXIT" = 0 ] || exit_verdict "$GATE_EXIT"
