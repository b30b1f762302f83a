# Running one bench config: one fresh bench process per iteration, warm-up
# iterations first (logged, not counted), every value into samples.tsv.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_RUN_ITERATE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_RUN_ITERATE=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../config/config.sh"  # bench_args, cfg_dump, config_load, config_option_die
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, phase, say
source "${BASH_SOURCE[0]%/*}/../monitors/insns.sh"  # insns_process_tag
source "${BASH_SOURCE[0]%/*}/../monitors/monitors.sh"  # monitors_finish, monitors_iteration, monitors_setup
source "${BASH_SOURCE[0]%/*}/autostop.sh"  # ci_decided, gate_decided, seqgate_design, seqgate_point_check, seqgate_verdict
source "${BASH_SOURCE[0]%/*}/result.sh"  # bench_result
source "${BASH_SOURCE[0]%/*}/rundir.sh"  # meta_set, rundir_full
source "${BASH_SOURCE[0]%/*}/trigger.sh"  # monitored_exec
source "${BASH_SOURCE[0]%/*}/../system/lock.sh"  # lock_fd_close
source "${BASH_SOURCE[0]%/*}/../system/noise.sh"  # noise_before_iteration
source "${BASH_SOURCE[0]%/*}/../system/numa.sh"  # numa_prefix
source "${BASH_SOURCE[0]%/*}/../system/settings.sh"  # settings_restore
source "${BASH_SOURCE[0]%/*}/../system/thp.sh"  # thp_apply

# Run one bench process: ITER_OUT gets its stdout, the bench log its stderr.
# In the background and waited for, so that run.sh's traps run at once on a
# signal instead of after the bench finishes.
iteration_exec() {
	local log=$1; shift
	if [ ${#MONITORS_ACTIVE[@]} -gt 0 ]; then monitored_exec "$log" "$@"; return; fi
	(lock_fd_close && exec "$@") >"$ITER_OUT" 2>>"$log" &
	BENCH_PID=$!
	local rc=0
	wait "$BENCH_PID" || rc=$?
	BENCH_PID=""
	return "$rc"
}

# Check the bench's stdout (metric<TAB>value, declared metrics, numbers) and
# print it as samples rows.
iteration_rows() {
	local metrics=$1 param=$2 iter=$3
	awk -F'\t' -v p="$param" -v i="$iter" -v OFS='\t' '
		NR == FNR { known[$1] = 1; next }
		NF != 2 || !($1 in known) || $2 !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ {
			printf "bad output line %d: %s\n", FNR, $0 > "/dev/stderr"; bad = 1; exit
		}
		{ print $1, p, i, $2 }
		END { exit bad }' "$metrics" "$ITER_OUT"
}

# Is counted iteration I of PARAM the last?  A fixed ITERATIONS stops at
# its count.  ITERATIONS=auto stops once its rule decides (seqgate.sh: the
# mean's interval within CI_TARGET, or with --baseline the gate's verdict),
# or at MAX_ITERATIONS, or after MAX_TIME seconds of this point;
# STOP_REASON says which.
iteration_last() {
	local dir=$1 param=$2 i=$3 primary=$4 started=$5
	if [ "${CFG[ITERATIONS]}" != auto ]; then
		STOP_REASON="ITERATIONS=${CFG[ITERATIONS]}"
		((i >= CFG[ITERATIONS]))
		return
	fi
	if [ -n "$GATE_BASELINE" ]; then
		gate_decided "$dir" "$param" "$i" && return 0
	else
		ci_decided "$dir" "$param" "$i" "$primary" && return 0
	fi
	if ((i >= CFG[MAX_ITERATIONS])); then
		STOP_REASON="MAX_ITERATIONS=${CFG[MAX_ITERATIONS]} reached $AUTO_STATE"
	elif ((SECONDS - started >= CFG[MAX_TIME])); then
		STOP_REASON="MAX_TIME=${CFG[MAX_TIME]}s reached after $i iterations, $AUTO_STATE"
	else
		return 1
	fi
	[ -z "$GATE_BASELINE" ] || seqgate_verdict 3  # stopped undecided
}

# Memory freed by the last iteration comes back to MemAvailable slowly on a
# VM that reports free pages to its host (20G: 2.4G short when the next
# process starts, recovering at ~16 MB/s here), and the bench would then cap
# its size again, below the resolved one.  The harness caps with 1/8 of
# headroom for that; this waits, bounded, until the resolved options fit
# again, as the bench itself judges, for what the headroom does not cover.
wait_until_fits() {
	local bench=$1 tries
	for ((tries = 0; tries < 300; tries++)); do
		"$bench" --check "${RESOLVED_ARGS[@]}" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	say "memory did not come back within 60 s; the bench will cap its size (see the log)"
}

# bench_iterate DIR PARAM LABEL OFFSET CMD...: warm-ups, then the counted
# iterations, numbered on from OFFSET (run.sh --add: those already there).
bench_iterate() {
	local dir=$1 param=$2 label=$3 offset=$4; shift 4
	local w=${CFG[WARMUP]} i n primary unit rows started=$SECONDS progress last t0
	t0=$(date +%s.%N)
	primary=$(awk -F'\t' 'NR == 1 { print $1 }' "$dir/metrics.tsv")
	unit=$(awk -F'\t' 'NR == 1 { print $3 }' "$dir/metrics.tsv")
	AUTO_PROGRESS=""
	for ((i = 1 - w; ; i++)); do
		phase "$label iteration $i"
		printf '== %s iteration %s: %s\n' "$label" "$i" "$*" >>"$dir/log"
		n=$((i > 0 ? i + offset : i))
		monitors_iteration "$param" "$n"
		# an added batch's warm-ups must not overwrite the first batch's files
		((i > 0 || offset == 0)) || MONITOR_TAG+="+$offset"
		insns_process_tag "${CFG[BENCH]}" "$param" "$n"
		noise_before_iteration "${CFG[DROP_CACHES]}" "${CFG[COMPACT]}"
		wait_until_fits "$MMDELTA_BUILD/bin/${CFG[BENCH]}"
		if ! iteration_exec "$dir/log" "$@"; then
			rundir_full "$RUN_DIR" || say "$label: bench failed in iteration $i: $(tail -n 1 "$dir/log")"
			return 1
		fi
		rows=$(iteration_rows "$dir/metrics.tsv" "$param" "$n" 2>>"$dir/log") ||
			{ say "$label: bench printed output that is not metric<TAB>value (see $dir/log)"; return 1; }
		if ((i <= 0)); then
			printf '%s\n' "$rows" 2>/dev/null >>"$dir/warmup.tsv" || { point_write_failed "$dir/warmup.tsv"; return 1; }
			say "$label [warm-up] $primary $(value_of "$rows" "$primary") $unit (not counted)"
			continue
		fi
		printf '%s\n' "$rows" 2>/dev/null >>"$dir/samples.tsv" || { point_write_failed "$dir/samples.tsv"; return 1; }
		last=0
		if iteration_last "$dir" "$param" "$i" "$primary" "$started"; then last=1; fi
		progress="$i/${CFG[ITERATIONS]}"
		[ -z "$AUTO_PROGRESS" ] || progress="$i/auto, $AUTO_PROGRESS"
		say "$label [$progress] $primary $(value_of "$rows" "$primary") $unit"
		((last == 0)) || break
	done
	if [ "${CFG[ITERATIONS]}" = auto ]; then
		say "$label: stopped by $STOP_REASON"
		printf 'stopped%s: %s\n' "${SWEEP_KEY:+ $SWEEP_KEY=$param}" "$STOP_REASON" >>"$dir/config"
	fi
	# What the point cost, for the next --dry-run's estimate.
	printf 'wall%s: %s s, %d processes\n' "${SWEEP_KEY:+ $SWEEP_KEY=$param}" \
		"$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" $((w + i)) >>"$dir/config"
}

# A sample that cannot be written: the disk's line, or which file.
point_write_failed() { rundir_full "$RUN_DIR" || say "cannot write $1"; }

value_of() { awk -F'\t' -v m="$2" '$1 == m { print $4 }' <<<"$1"; }

# Call FN once per sweep point with CFG set to that point: FN PARAM LABEL.
# A point that fails has said so; the points after it still run (a
# stressor this stress-ng lacks, in the catalog), and the status is 1.
for_each_point() {
	local fn=$1 value rc=0
	local -a values
	read -r -a values <<<"${CFG[${SWEEP_KEY:-BENCH}]}"
	for value in "${values[@]}"; do
		if [ -n "$SWEEP_KEY" ]; then
			CFG["$SWEEP_KEY"]=$value
			"$fn" "$value" "${CFG[BENCH]} $SWEEP_KEY=$value" || rc=1
		else
			"$fn" - "${CFG[BENCH]}" || rc=1
		fi
	done
	return "$rc"
}

# Let the bench refuse its options (bad values, sizes that do not fit)
# before anything is written.  A point this machine cannot run (--check's
# exit 3: a stressor this stress-ng lacks) is not refused but written to
# UNAVAILABLE_FILE, for resolve_configs to leave out; status 3 when every
# point so far was.
point_check() {
	local out rc=0
	local -a args
	mapfile -t args < <(bench_args)
	out=$("$MMDELTA_BUILD/bin/${CFG[BENCH]}" --check "${args[@]}" 2>&1 >/dev/null) || rc=$?
	if ((rc == 3)) && [ -n "$UNAVAILABLE_FILE" ]; then
		printf '%s: %s\n' "$(config_name)" "${out#"${CFG[BENCH]}: "}" >>"$UNAVAILABLE_FILE"
		POINTS_UNAVAILABLE=$((POINTS_UNAVAILABLE + 1))
		return 0
	fi
	((rc == 0)) || config_option_die "${out#"${CFG[BENCH]}: "}"
	seqgate_point_check "$1"
}

# How many points the loaded config has (for_each_point leaves a sweep's
# key at its last value, so this is read before it runs).
point_total() {
	local -a values
	read -r -a values <<<"${CFG[${SWEEP_KEY:-BENCH}]}"
	echo "${#values[@]}"
}

# Resolve the current point's options once, through the bench's --check
# (which prints them back; its notes, such as a capped size, go to NOTES): a
# size capped to what the machine holds is then the same bytes in every
# iteration, not whatever MemAvailable happens to be at each start.  Sets
# RESOLVED_ARGS to the options and POINT_ARGV to the whole command line.
point_resolve() {
	local notes=$1 resolved
	local -a args numa
	mapfile -t args < <(bench_args)
	mapfile -t numa < <(numa_prefix "${CFG[NUMA]}" "${CFG[CPU]}")
	# status 3: the point cannot run here (point_check)
	resolved=$("$MMDELTA_BUILD/bin/${CFG[BENCH]}" --check "${args[@]}" 2>"$notes") || return
	mapfile -t RESOLVED_ARGS <<<"$resolved"
	POINT_ARGV=("${numa[@]}" "$MMDELTA_BUILD/bin/${CFG[BENCH]}" "${RESOLVED_ARGS[@]}")
	if [[ " ${args[*]} " == *" --cap-size "* ]]; then POINT_ARGV+=(--cap-size); fi
	# an icount guest's /init sets it (bench/lib/settle.h says why)
	if [ "${MMDELTA_SETTLE:-0}" = 1 ]; then POINT_ARGV+=(--settle); fi
}

# BENCH/config's line for POINT_ARGV at PARAM: "command[ KEY=V]: ARGV",
# the bench named bench/NAME wherever its binary is (run.sh --add reads
# the options after it back).
point_command() {
	local words="${POINT_ARGV[*]}"
	printf 'command%s: %s\n' "${SWEEP_KEY:+ $SWEEP_KEY=$1}" "${words/"$MMDELTA_BUILD/bin/"/bench/}"
}

# Run one sweep point's iterations into RUN_DIR/BENCH.
point_run() {
	local param=$1 label=$2 dir=$RUN_DIR/${CFG[BENCH]} note rc=0
	point_resolve "$dir/.notes" || rc=$?
	if ((rc == 3)); then
		# said when the configs were resolved: left out
		{ printf 'left out: '; cat "$dir/.notes"; } >>"$dir/log"
		rm -f "$dir/.notes"
		return 0
	fi
	((rc == 0)) || { say "$label: $(tail -n 1 "$dir/.notes")"; rm -f "$dir/.notes"; return 1; }
	while IFS= read -r note; do say "$note"; done <"$dir/.notes"
	cat "$dir/.notes" >>"$dir/log"
	rm -f "$dir/.notes"
	point_command "$param" >>"$dir/config"
	bench_iterate "$dir" "$param" "$label" 0 "${POINT_ARGV[@]}"
}

# Run everything one config asks for, into RUN_DIR/BENCH.
bench_run() {
	local file=$1 bench dir
	config_load "$file"
	bench=${CFG[BENCH]}
	dir=$RUN_DIR/$bench
	mkdir "$dir"	# resolve_configs has refused a bench named twice
	# The swept key on a line of its own, so a reader of the run (plots,
	# tables) need not work it out from the command lines.
	{ cfg_dump; printf 'sweep: %s\n' "${SWEEP_KEY:--}"; } >"$dir/config"
	seqgate_design >>"$dir/config"
	"$MMDELTA_BUILD/bin/$bench" --describe >"$dir/metrics.tsv" ||
		die "$bench: --describe failed"
	bench_meta || return 1
	printf 'metric\tparam\titeration\tvalue\n' >"$dir/samples.tsv"
	bench_points "$dir" point_run
}

# The run's meta lines of bench/BENCH.sh's driver_meta, "KEY VALUE" each:
# the version of a program the bench wraps (compare.sh refuses two).
bench_meta() {
	local key value
	declare -F driver_meta >/dev/null || return 0
	while read -r key value; do meta_set "$RUN_DIR" "$key" "$value" || return 1; done < <(driver_meta)
}

# bench_points DIR FN: everything around the loaded config's sweep points
# (its THP and NUMA settings, its monitors, the result), FN for each.
bench_points() {
	local dir=$1 fn=$2
	phase "${CFG[BENCH]} set-up"
	thp_apply "${CFG[THP]}" "${CFG[THP_DEFRAG]}"
	monitors_setup "$dir" "${CFG[MONITORS]}"
	for_each_point "$fn" || { monitors_finish "$dir"; return 1; }
	monitors_finish "$dir"
	settings_restore
	bench_result "$dir"
}
