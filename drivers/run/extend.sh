# run.sh --add N -n NAME [BENCH...]: N more counted iterations of every
# bench (or the named ones) of the complete run NAME, with the configs and
# the bench options it resolved, on the same kernel, command line and
# machine.  An inconclusive gate against yesterday's baseline is fixed by
# measuring the baseline more, not by starting over.  The run is copied to
# .NAME.partial, extended there, and replaces NAME only once complete: a
# failure leaves the original as it was.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_RUN_EXTEND:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_RUN_EXTEND=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../config/config.sh"  # config_load
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, phase, say
source "${BASH_SOURCE[0]%/*}/../core/exit.sh"  # exit_trap
source "${BASH_SOURCE[0]%/*}/iterate.sh"  # bench_iterate, bench_points
source "${BASH_SOURCE[0]%/*}/rundir.sh"  # meta_get, meta_set, proc_start, rundir_check_leftover, rundir_finish
source "${BASH_SOURCE[0]%/*}/../system/deadrun.sh"  # deadrun_mark
source "${BASH_SOURCE[0]%/*}/../system/facts.sh"  # facts_identity
source "${BASH_SOURCE[0]%/*}/../system/numa.sh"  # numa_prefix
source "${BASH_SOURCE[0]%/*}/../system/settings.sh"  # settings_restore

declare -A EXTEND_ARGS=()	# "bench param" -> the run's bench options, one per line

# After parse_args: a count, no option that would change the configs, and
# a complete run of this system under the results root RESULTS.  CONFIGS
# become the run's own configs.
extend_check_args() {
	local results=$1 dir status b
	local -a benches=("${CONFIGS[@]}")
	[ -n "$ADD_ITERATIONS" ] || return 0
	[[ $ADD_ITERATIONS =~ ^[1-9][0-9]*$ ]] || die "--add $ADD_ITERATIONS: must be a whole number > 0"
	if [ ${#SETS[@]} -gt 0 ] || [ -n "$ITERATIONS_OVERRIDE$GATE_BASELINE$GATE_PCT$VM_KERNEL" ]; then
		die "--add runs the run's own configs: no -i, --set, --monitors, --baseline, --gate or --kernel"
	fi
	dir=$results/$NAME
	[ -d "$dir" ] || die "--add: no run $dir"
	status=$(meta_get "$dir" status)
	[ "$status" = complete ] || die "--add: $dir is not a complete run (status: ${status:-none})"
	[ -z "$(meta_get "$dir" vm)" ] || die "--add: run '$NAME' was measured under qemu (--kernel); extend it there by running it again"
	extend_same_system "$dir"
	if [ ${#benches[@]} -eq 0 ]; then
		for b in "$dir"/*/config; do [ ! -f "$b" ] || benches+=("$(basename "$(dirname "$b")")"); done
	fi
	EXTEND_TMP=$(mktemp -d "${TMPDIR:-/tmp}/mmdelta-add.XXXXXX")
	# until run.sh's own exit trap, which removes it too
	trap 'exit_trap rm -rf "$EXTEND_TMP"' EXIT
	CONFIGS=()
	for b in "${benches[@]}"; do extend_config "$dir" "$b"; done
	ITERATIONS_OVERRIDE=$ADD_ITERATIONS
}

# Kernel, command line and machine as meta recorded them, or one line on
# what differs.
extend_same_system() {
	local dir=$1 key now was
	while IFS= read -r now; do
		key=${now%%: *}
		was=$(meta_get "$dir" "$key")
		[ "$was" = "${now#*: }" ] ||
			die "--add: run '$NAME' was measured with $key '$was', this system has '${now#*: }'"
	done < <(facts_identity)
}

# BENCH/config's resolved keys as a config file, and its "command" lines'
# bench options per swept value.
extend_config() {
	local dir=$1 bench=$2 cfg=$1/$2/config line param
	[[ $bench =~ ^[a-z0-9]+$ && -f $cfg ]] || die "--add: run '$NAME' has no bench '$bench'"
	! grep -q '^sequential: ' "$cfg" ||
		die "--add: $bench of run '$NAME' was gated sequentially (run.sh --baseline): more iterations would void its verdict"
	grep -E '^[A-Z_]+=' "$cfg" >"$EXTEND_TMP/$bench"
	CONFIGS+=("$EXTEND_TMP/$bench")
	while IFS= read -r line; do
		param=-
		[[ $line =~ ^command\ [A-Z_]+=([^:]*): ]] && param=${BASH_REMATCH[1]}
		# options after "bench/NAME ": resolved values never hold blanks
		EXTEND_ARGS["$bench $param"]=$(tr ' ' '\n' <<<"${line#* bench/"$bench" }")
	done < <(grep -E '^command( [A-Z_]+=[^:]*)?: ' "$cfg")
}

# The iterations already counted of the primary metric at PARAM.
extend_offset() {
	local dir=$1 param=$2
	awk -F'\t' -v p="$param" 'NR == FNR { if (FNR == 1) m = $1; next }
		$1 == m && $2 == p && $3 + 0 > max { max = $3 + 0 } END { print max + 0 }' \
		"$dir/metrics.tsv" "$dir/samples.tsv"
}

# One sweep point: the stored options, numbered on from the last iteration.
extend_point() {
	local param=$1 label=$2 dir=$RUN_DIR/${CFG[BENCH]} a
	local -a args numa
	[ -n "${EXTEND_ARGS["${CFG[BENCH]} $param"]:-}" ] ||
		{ say "$label: no command line in $dir/config to repeat"; return 1; }
	mapfile -t args <<<"${EXTEND_ARGS["${CFG[BENCH]} $param"]}"
	RESOLVED_ARGS=()
	for a in "${args[@]}"; do [ "$a" = --cap-size ] || RESOLVED_ARGS+=("$a"); done
	mapfile -t numa < <(numa_prefix "${CFG[NUMA]}" "${CFG[CPU]}")
	bench_iterate "$dir" "$param" "$label" "$(extend_offset "$dir" "$param")" \
		"${numa[@]}" "$MMDELTA_BUILD/bin/${CFG[BENCH]}" "${args[@]}"
}

extend_bench() {
	config_load "$1"
	bench_points "$RUN_DIR/${CFG[BENCH]}" extend_point || return 1
	printf 'added: %s iterations on %s\n' "$ADD_ITERATIONS" "$(date -Is)" >>"$RUN_DIR/${CFG[BENCH]}/config"
}

# The run NAME under RESULTS copied to its partial name, extended, renamed
# back; FORCE (1) replaces a partial run left from before.
extend_run() {
	local results=$1 force=$2 c failed=() partial=$1/.$NAME.partial
	rundir_check_leftover "$partial" "$force"
	rm -rf "$partial"
	cp -a "$results/$NAME" "$partial" || die "cannot copy $results/$NAME to $partial"
	RUN_DIR=$partial FINAL_DIR=$results/$NAME
	meta_set "$RUN_DIR" status running
	# This run.sh owns the copy now: a run.sh started meanwhile must not
	# take it for the dead one whose pid the copied meta names.
	deadrun_mark "$RUN_DIR"
	meta_set "$RUN_DIR" pid $$
	meta_set "$RUN_DIR" pid_start "$(proc_start $$)"
	say "adding $ADD_ITERATIONS iterations to run '$NAME' in $RUN_DIR"
	ITER_OUT=$RUN_DIR/.iteration.out
	for c in "${CONFIGS[@]}"; do
		extend_bench "$c" || { failed+=("${c##*/}"); settings_restore; }
	done
	rm -f "$ITER_OUT"
	[ ${#failed[@]} -eq 0 ] || die "failed: ${failed[*]}"
	phase "writing results"
	meta_set "$RUN_DIR" iterations_added \
		"$(meta_get "$RUN_DIR" iterations_added)${ADD_ITERATIONS} on $(date -Is); "
	meta_set "$RUN_DIR" status complete
	rundir_finish
	say "complete: $FINAL_DIR"
}
