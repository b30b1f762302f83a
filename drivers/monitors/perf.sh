# perf for the monitors: which binary to run, whether the machine has
# hardware counters, and perf sessions that cover exactly the timed region.
# A session starts perf with its events disabled (--delay=-1) and switches
# them on and off through perf's --control fifos; perf answers "ack" once it
# has done so, so the driver releases the bench only when perf is counting,
# with no sleep in between.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_MONITORS_PERF:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_MONITORS_PERF=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # say
source "${BASH_SOURCE[0]%/*}/../run/trigger.sh"  # trigger_fds_close
source "${BASH_SOURCE[0]%/*}/../system/lock.sh"  # lock_fd_close

PERF_HW=""
declare -A PERF_PID=() PERF_SUB=() PERF_CTL=() PERF_ACK=() PERF_LOG=()

# Set PERF to a perf that runs on this kernel.  Debian's /usr/bin/perf can be
# a wrapper that refuses any kernel it has no perf_X.Y for (a custom 6.18
# kernel, say); perf's ABI is backward compatible, so any perf_X.Y on PATH
# serves, newest first.  MMDELTA_PERF names a binary explicitly.
perf_find() {
	local c d
	local -a cands=(perf) dirs
	[ -z "$PERF" ] || return 0
	if [ -n "${MMDELTA_PERF:-}" ]; then
		cands=("$MMDELTA_PERF")
	else
		IFS=: read -r -a dirs <<<"$PATH"
		mapfile -t -O 1 cands < <(for d in "${dirs[@]}"; do
			for c in "$d"/perf_[0-9]*; do [ ! -x "$c" ] || printf '%s\n' "$c"; done
		done | sort -rV)
	fi
	for c in "${cands[@]}"; do
		if "$c" --version >/dev/null 2>&1; then PERF=$c; return 0; fi
	done
	return 1
}

# perf counts the kernel's side of a process only for root, CAP_PERFMON or
# kernel.perf_event_paranoid <= 1; otherwise it falls back to user space
# without failing ("task-clock:u"), and a syscall benchmark's faults and
# context switches would read as 0.  Print why, and succeed, when so.  perf
# is asked once per run: "kernel", or why not, in PERF_SCOPE.
PERF_SCOPE=""
perf_user_only() {
	local out
	if [ -z "$PERF_SCOPE" ]; then
		out=$("$PERF" stat -x, -e task-clock -- true 2>&1 >/dev/null) || true
		PERF_SCOPE=kernel
		[[ $out != *task-clock:u* ]] ||
			PERF_SCOPE="perf counts user space only for this user (kernel.perf_event_paranoid is $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)); run as root, or set it to 1 or less"
	fi
	[ "$PERF_SCOPE" != kernel ] || return 1
	echo "$PERF_SCOPE"
}

# "available" when perf counts cycles here; VMs and containers often
# expose no PMU, and perf then prints "<not supported>".
perf_hw_counters() {
	local out
	[ -z "$PERF_HW" ] || { echo "$PERF_HW"; return 0; }
	if ! perf_find; then
		[ -d /sys/bus/event_source/devices/cpu ] && echo "available (no working perf to read them)" || echo unavailable
		return 0
	fi
	out=$("$PERF" stat -x, -e cycles -- true 2>&1 >/dev/null) || true
	if [[ $out =~ (^|$'\n')[0-9]+,[^,]*,cycles ]]; then PERF_HW=available; else PERF_HW=unavailable; fi
	echo "$PERF_HW"
}

# Read one line of perf's acknowledgements; true when it is WANT.  The
# session's subshell writes "exit RC" there when perf ends, so a perf that
# dies never leaves the driver waiting.
perf_expect() {
	local name=$1 want=$2 line
	read -r -u "${PERF_ACK[$name]}" line || line="exit ?"
	[ "$line" = "$want" ] && return 0
	say "monitor $name: perf ended early (${line}; see ${PERF_LOG[$name]:-its log})"
	return 1
}

# perf_session_start NAME FIFODIR LOG PERF-ARGS...: start perf with events
# disabled, enable them, return once perf says they are on.
perf_session_start() {
	local name=$1 fifo=$2 log=$3 c a pid
	shift 3
	rm -f "$fifo/$name.ctl" "$fifo/$name.ack"
	mkfifo "$fifo/$name.ctl" "$fifo/$name.ack"
	exec {c}<>"$fifo/$name.ctl" {a}<>"$fifo/$name.ack"
	PERF_CTL[$name]=$c PERF_ACK[$name]=$a PERF_LOG[$name]=$log
	(
		trigger_fds_close
		lock_fd_close
		# Options go before a workload's "--", so right after the subcommand.
		"$PERF" "$1" --delay=-1 --control "fd:$c,$a" "${@:2}" 2>>"$log" &
		echo "pid $!" >&"$a"
		rc=0
		wait $! || rc=$?
		echo "exit $rc" >&"$a"
	) &
	PERF_SUB[$name]=$!
	read -r -u "$a" _ pid
	PERF_PID[$name]=$pid
	echo enable >&"$c"
	perf_expect "$name" ack || { perf_session_end "$name"; return 1; }
}

# Switch the events off, then end perf so it writes its output.  perf ends
# on SIGINT with status 130 by design; its output is checked by the parser.
perf_session_stop() {
	local name=$1
	[ -n "${PERF_SUB[$name]:-}" ] || return 0
	echo disable >&"${PERF_CTL[$name]}"
	perf_expect "$name" ack || true
	kill -INT "${PERF_PID[$name]}" 2>/dev/null || true
	perf_session_end "$name"
}

# Reap the session and close its fifos.
perf_session_end() {
	local name=$1 c=${PERF_CTL[$1]} a=${PERF_ACK[$1]}
	wait "${PERF_SUB[$name]}" 2>/dev/null || true
	exec {c}>&- {a}>&-
	unset "PERF_SUB[$name]" "PERF_PID[$name]" "PERF_CTL[$name]" "PERF_ACK[$name]"
}

# On interrupt: end every perf still running.
perf_sessions_abort() {
	local name
	for name in "${!PERF_PID[@]}"; do
		kill -INT "${PERF_PID[$name]}" 2>/dev/null || true
	done
	for name in "${!PERF_SUB[@]}"; do perf_session_end "$name"; done
}
