# Monitors around the timed region.  With monitors on, the bench runs with
# --trigger fifo:DIR: after set-up it writes "ready PID" and waits, after the
# timed region "done PID" and waits again, so the monitors start on a bench
# that is about to measure and stop before it tears down.
#
# A monitor is one file, drivers/lib/monitors/NAME.sh, defining
#   NAME_available        true, or print why not and return 1
#   NAME_start RAW PID    start watching PID; return once it is watching
#   NAME_stop RAW PID     stop watching; its raw output is under RAW.*
#   NAME_parse RAW PID    print metric<TAB>value lines for the iteration
#   NAME_describe METRIC  print METRIC's metrics.tsv fields: name, label,
#                         unit, lower|higher|none (none: a counter, neither
#                         better nor worse); the caller adds NAME as the fifth
# and optionally NAME_finish DIR, run once after the bench's last iteration.
# RAW is BENCH/monitors/NAME.TAG, TAG naming the iteration.  A new monitor
# gets a source line below.
# shellcheck shell=bash

# shellcheck source=drivers/lib/state.sh
source "${BASH_SOURCE[0]%/*}/state.sh"
# shellcheck source=drivers/lib/monitors/mmaplock.sh
source "${BASH_SOURCE[0]%/*}/monitors/mmaplock.sh"
# shellcheck source=drivers/lib/monitors/perfstat.sh
source "${BASH_SOURCE[0]%/*}/monitors/perfstat.sh"
# shellcheck source=drivers/lib/monitors/profile.sh
source "${BASH_SOURCE[0]%/*}/monitors/profile.sh"
# shellcheck source=drivers/lib/monitors/vmstat.sh
source "${BASH_SOURCE[0]%/*}/monitors/vmstat.sh"

# Start order; stops run in reverse.  vmstat is innermost so that starting
# and stopping perf is not counted in its deltas.
MONITOR_ORDER="profile mmaplock perfstat vmstat"
# Said once per run, not once per bench: monitor -> why it cannot run.
declare -A MONITOR_SKIPPED=()

monitor_names() { tr ' ' '\n' <<<"$MONITOR_ORDER" | sort | paste -sd ' '; }

# MONITORS is a comma-separated list; "none" or empty turns them off.
monitor_list() {
	[ "$1" != none ] || return 0
	tr ',' '\n' <<<"$1" | awk 'NF'
}

monitor_check_list() {
	local file=$1 list=$2 m
	for m in $(monitor_list "$list"); do
		[[ " $(monitor_names) " == *" $m "* ]] ||
			die "${file##*/}: MONITORS=$list: unknown monitor '$m' (monitors: $(monitor_names))"
	done
}

# The requested monitors in start order.
monitor_ordered() {
	local wanted m
	wanted=" $(monitor_list "$1" | tr '\n' ' ') "
	for m in $MONITOR_ORDER; do [[ $wanted != *" $m "* ]] || echo "$m"; done
}

# Decide which requested monitors run for the bench in DIR.  One that cannot
# run here is said once per run, noted in DIR/monitors/skipped and left out.
monitors_setup() {
	local dir=$1 list=$2 m why tmp
	MONITORS_ACTIVE=() MONITOR_DIR=$dir
	[ -n "$(monitor_list "$list")" ] || return 0
	mkdir -p "$dir/monitors"
	tmp=$(mktemp "$dir/monitors/.why.XXXXXX")
	for m in $(monitor_ordered "$list"); do
		# Not in a subshell: a check may set what its start needs (PERF).
		if "${m}_available" >"$tmp" 2>&1; then
			MONITORS_ACTIVE+=("$m")
			continue
		fi
		why=$(tr '\n' ' ' <"$tmp")
		why=${why% }
		why=${why:-not available}
		[ -n "${MONITOR_SKIPPED[$m]:-}" ] || say "monitor $m skipped: $why"
		MONITOR_SKIPPED[$m]=$why
		printf '%s\t%s\n' "$m" "$why" >>"$dir/monitors/skipped"
	done
	rm -f "$tmp"
	[ ${#MONITORS_ACTIVE[@]} -eq 0 ] || monitors_fifo_dir
}

# The private directory of the trigger and perf fifos; meta names it, so
# that the next run.sh can remove it should this one be killed.
monitors_fifo_dir() {
	MONITOR_FIFO=$(mktemp -d "${TMPDIR:-/tmp}/mmdelta-fifo.XXXXXX")
	meta_set "$RUN_DIR" fifo_dir "$MONITOR_FIFO"
}

# After the last iteration: each monitor's finishing step, and the fifos go.
monitors_finish() {
	local dir=$1 m
	for m in "${MONITORS_ACTIVE[@]}"; do
		if declare -F "${m}_finish" >/dev/null; then "${m}_finish" "$dir"; fi
	done
	[ -z "$MONITOR_FIFO" ] || rm -rf "$MONITOR_FIFO"
	MONITORS_ACTIVE=() MONITOR_FIFO=""
}

# A monitor that fails mid-run is dropped for the rest of the bench, loudly.
monitor_drop() {
	local m=$1 why=$2 keep=() a
	say "monitor $m dropped: $why"
	printf '%s\t%s\n' "$m" "$why" >>"$MONITOR_DIR/monitors/skipped"
	for a in "${MONITORS_ACTIVE[@]}"; do [ "$a" = "$m" ] || keep+=("$a"); done
	MONITORS_ACTIVE=("${keep[@]}")
}

monitor_raw() { printf '%s/monitors/%s.%s\n' "$MONITOR_DIR" "$1" "$MONITOR_TAG"; }

# Name iteration I of PARAM in raw file names: "3", "warmup1", "SIZE=1G.3".
monitors_iteration() {
	local param=$1 i=$2
	if ((i <= 0)); then MONITOR_TAG=warmup$((1 - i)); else MONITOR_TAG=$i; fi
	if [ "$param" != - ]; then MONITOR_TAG="${SWEEP_KEY}=$param.$MONITOR_TAG"; fi
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
		# the fifth field names the monitor: compare.sh shows the bench's
		# own metrics first and tells a skipped monitor from a lost metric
		while read -r metric; do
			printf '%s\t%s\n' "$("${m}_describe" "$metric")" "$m" >>"$MONITOR_DIR/metrics.tsv"
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
