# The driver's side of `--trigger fifo:DIR` (bench/lib/trigger.c): run one
# bench process, start the active monitors when it says "ready", stop them
# when it says "done", and add their values to its output.
# shellcheck shell=bash disable=SC2034  # globals shared across the sourced libs

TRIGGER_READY="" TRIGGER_GO=""

# Wait for the bench's next message; true when it is WANT.  The subshell that
# runs the bench writes "exit RC" when the bench ends, so a bench that fails
# never leaves the driver waiting.
trigger_expect() {
	local want=$1 word pid
	read -r -u "$TRIGGER_READY" word pid || return 1
	[ "$word" = "$want" ] || return 1
	MONITOR_BENCH_PID=$pid
}

trigger_release() { printf 'g' >&"$TRIGGER_GO"; }

# For a monitor's child processes: they must not hold the bench's fifos.
trigger_fds_close() {
	[ -z "$TRIGGER_READY" ] || exec {TRIGGER_READY}>&-
	[ -z "$TRIGGER_GO" ] || exec {TRIGGER_GO}>&-
}

# monitored_exec LOG CMD...: iteration_exec with the monitors around the
# timed region.  The driver holds both fifos open read-write, so the bench's
# opens never block; the bench and the monitors hold neither, so that when
# the driver dies the bench reads end-of-file and exits instead of waiting
# forever with its memory locked.
monitored_exec() {
	local log=$1 rc=0 pid
	shift
	mkfifo "$MONITOR_FIFO/ready" "$MONITOR_FIFO/go"
	exec {TRIGGER_READY}<>"$MONITOR_FIFO/ready" {TRIGGER_GO}<>"$MONITOR_FIFO/go"
	(
		exec {TRIGGER_GO}>&-
		rc=0
		"$@" --trigger "fifo:$MONITOR_FIFO" >"$ITER_OUT" 2>>"$log" {TRIGGER_READY}>&- || rc=$?
		echo "exit $rc" >&"$TRIGGER_READY"
		exit "$rc"
	) &
	BENCH_PID=$!
	local at=$PHASE
	phase "$at: set-up and populate"
	if trigger_expect ready; then
		pid=$MONITOR_BENCH_PID
		monitors_start
		phase "$at: timed region, monitors running"
		trigger_release
		trigger_expect 'done' || true
		monitors_stop
		phase "$at: teardown"
		trigger_release
	fi
	wait "$BENCH_PID" || rc=$?
	BENCH_PID="" MONITOR_BENCH_PID=""
	exec {TRIGGER_READY}>&- {TRIGGER_GO}>&-
	TRIGGER_READY="" TRIGGER_GO=""
	rm -f "$MONITOR_FIFO/ready" "$MONITOR_FIFO/go"
	[ "$rc" -eq 0 ] || return "$rc"
	monitors_parse "$pid"
}

monitors_start() {
	local m
	for m in "${MONITORS_ACTIVE[@]}"; do
		"${m}_start" "$(monitor_raw "$m")" "$MONITOR_BENCH_PID" ||
			monitor_drop "$m" "could not start (see $(monitor_raw "$m").*)"
	done
}

monitors_stop() {
	local i m
	for ((i = ${#MONITORS_ACTIVE[@]} - 1; i >= 0; i--)); do
		m=${MONITORS_ACTIVE[i]}
		"${m}_stop" "$(monitor_raw "$m")" "$MONITOR_BENCH_PID" ||
			monitor_drop "$m" "could not stop cleanly (see $(monitor_raw "$m").*)"
	done
}

# Each monitor's metric<TAB>value lines join the bench's own in ITER_OUT,
# and metrics.tsv learns each new metric, so the rows go wherever the
# bench's go (samples or warm-up) and compare.sh shows them like any metric.
monitors_parse() {
	local pid=$1 m out metric
	for m in "${MONITORS_ACTIVE[@]}"; do
		if ! out=$("${m}_parse" "$(monitor_raw "$m")" "$pid"); then
			monitor_drop "$m" "its output could not be read (see $(monitor_raw "$m").*)"
			continue
		fi
		[ -n "$out" ] || continue
		while read -r metric; do
			"${m}_describe" "$metric" >>"$MONITOR_DIR/metrics.tsv"
		done < <(awk -F'\t' 'NR == FNR { known[$1] = 1; next } !($1 in known) { print $1 }' \
			"$MONITOR_DIR/metrics.tsv" - <<<"$out")
		printf '%s\n' "$out" >>"$ITER_OUT"
	done
}

# On interrupt: end the perf sessions and the bench they watch.
monitors_abort() {
	perf_sessions_abort
	[ -z "$MONITOR_BENCH_PID" ] || kill -TERM "$MONITOR_BENCH_PID" 2>/dev/null || true
	[ -z "$MONITOR_FIFO" ] || rm -rf "$MONITOR_FIFO"
}
