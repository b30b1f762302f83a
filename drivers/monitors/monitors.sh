# Monitors around the timed region.  With monitors on, the bench runs with
# --trigger fifo:DIR: after set-up it writes "ready PID" and waits, after the
# timed region "done PID" and waits again, so the monitors start on a bench
# that is about to measure and stop before it tears down.
#
# A monitor is one file, drivers/monitors/NAME.sh, defining
#   NAME_available        true, or print why not and return 1
#   NAME_metrics          print the metrics it records, one a line
#   NAME_start RAW PID    start watching PID; return once it is watching
#   NAME_stop RAW PID     stop watching; its raw output is under RAW.*
#   NAME_parse RAW PID    print metric<TAB>value lines for the iteration:
#                         every metric NAME_metrics printed, once (0 is a value)
#   NAME_describe METRIC  print METRIC's metrics.tsv fields: name, label,
#                         unit, lower|higher|none (none: a counter, neither
#                         better nor worse); the caller adds NAME as the fifth
# and optionally NAME_finish DIR, run once after the bench's last iteration.
# RAW is BENCH/monitors/NAME.TAG, TAG naming the iteration.  A new monitor
# gets a source line below.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_MONITORS_MONITORS:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_MONITORS_MONITORS=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/contention.sh"
source "${BASH_SOURCE[0]%/*}/insns.sh"
source "${BASH_SOURCE[0]%/*}/mmaplock.sh"
source "${BASH_SOURCE[0]%/*}/perfstat.sh"
source "${BASH_SOURCE[0]%/*}/profile.sh"
source "${BASH_SOURCE[0]%/*}/vmstat.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # say
source "${BASH_SOURCE[0]%/*}/perf.sh"  # perf_sessions_abort
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # meta_set

# Start order; stops run in reverse.  vmstat is innermost so that starting
# and stopping perf is not counted in its deltas.  insns counts between the
# bench's own markers, on the host, so its place does not matter.
MONITOR_ORDER="insns profile mmaplock contention perfstat vmstat"
# Said once per run, not once per bench: monitor -> why it cannot run, and
# monitor -> a caveat of one that runs.
declare -A MONITOR_SKIPPED=() MONITOR_NOTED=()

monitor_names() { tr ' ' '\n' <<<"$MONITOR_ORDER" | sort | paste -sd ' '; }

# MONITORS is a comma-separated list; "none" or empty turns them off.
monitor_list() {
	[ "$1" != none ] || return 0
	tr ',' '\n' <<<"$1" | awk 'NF'
}

# The requested monitors in start order.
monitor_ordered() {
	local wanted m
	wanted=" $(monitor_list "$1" | tr '\n' ' ') "
	for m in $MONITOR_ORDER; do [[ $wanted != *" $m "* ]] || echo "$m"; done
}

# Decide which requested monitors run for the bench in DIR.  One that cannot
# run here is said once per run, noted in DIR/monitors/skipped and left out;
# what one that runs prints (a caveat) is said once per run too.
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
			if [ -s "$tmp" ] && [ -z "${MONITOR_NOTED[$m]:-}" ]; then
				MONITOR_NOTED[$m]=1
				say "monitor $m: $(tr '\n' ' ' <"$tmp")"
			fi
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
	[ ${#MONITORS_ACTIVE[@]} -eq 0 ] || { monitors_declare "$dir"; monitors_fifo_dir; }
}

# Every metric of every monitor that runs goes into metrics.tsv before the
# first iteration, its fifth field naming the monitor: a metric a run lacks
# is then one its monitor did not run for (skipped, or not asked for), never
# one that happened to be zero or was seen in a warm-up only.  Once: run.sh
# --add sets the monitors up again in a run that has their metrics.
monitors_declare() {
	local dir=$1 m metric
	for m in "${MONITORS_ACTIVE[@]}"; do
		while IFS= read -r metric; do
			printf '%s\t%s\n' "$("${m}_describe" "$metric")" "$m" >>"$dir/metrics.tsv"
		done < <("${m}_metrics" | awk -F'\t' 'NR == FNR { known[$1] = 1; next } !($1 in known)' "$dir/metrics.tsv" -)
	done
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

# Each monitor's metric<TAB>value lines join the bench's own in ITER_OUT, so
# they go wherever the bench's go (samples or warm-up) and compare.sh shows
# them like any metric.  They must be exactly the metrics it declared.
monitors_parse() {
	local pid=$1 m out why
	for m in "${MONITORS_ACTIVE[@]}"; do
		if ! out=$("${m}_parse" "$(monitor_raw "$m")" "$pid"); then
			monitor_drop "$m" "its output could not be read (see $(monitor_raw "$m").*)"
			continue
		fi
		if why=$(monitor_rows_check "$m" "$out"); then
			[ -z "$out" ] || printf '%s\n' "$out" >>"$ITER_OUT"
		else
			monitor_drop "$m" "$why (see $(monitor_raw "$m").*)"
		fi
	done
}

# Does OUT hold each metric monitor M declared, once, and nothing else?
monitor_rows_check() {
	awk -F'\t' -v m="$1" '
		FILENAME == ARGV[1] { if ($5 == m) want[$1] = 1; next }
		NF == 0 { next }
		!($1 in want) { printf "it printed %s, which it did not declare\n", $1; bad = 1; exit }
		($1 in got) { printf "it printed %s twice\n", $1; bad = 1; exit }
		{ got[$1] = 1 }
		END { if (!bad) for (k in want) if (!(k in got)) { printf "it recorded no %s\n", k; bad = 1; break }
			exit bad }' "$MONITOR_DIR/metrics.tsv" - <<<"$2"
}

# On interrupt: end the perf sessions and the bench they watch.
monitors_abort() {
	perf_sessions_abort
	[ -z "$MONITOR_BENCH_PID" ] || kill -TERM "$MONITOR_BENCH_PID" 2>/dev/null || true
	[ -z "$MONITOR_FIFO" ] || rm -rf "$MONITOR_FIFO"
}
