# The driver's side of `--trigger fifo:DIR` (bench/lib/trigger.c): run one
# bench process, start the active monitors when it says "ready", stop them
# when it says "done", and add their values to its output.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_RUN_TRIGGER:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_RUN_TRIGGER=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # phase
source "${BASH_SOURCE[0]%/*}/../monitors/monitors.sh"  # monitors_parse, monitors_start, monitors_stop
source "${BASH_SOURCE[0]%/*}/../system/lock.sh"  # lock_fd_close

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
		lock_fd_close
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
