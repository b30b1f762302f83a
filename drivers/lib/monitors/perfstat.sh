# perfstat: `perf stat` of the bench process over the timed region: the
# software events the heap thread argued with (context switches, faults),
# plus cycles and instructions where the machine has hardware counters.
# shellcheck shell=bash

# shellcheck source=drivers/lib/state.sh
source "${BASH_SOURCE[0]%/*}/../state.sh"

PERFSTAT_EVENTS=""

perfstat_available() {
	perf_find || { echo "no working perf (install linux-perf, or set MMDELTA_PERF)"; return 1; }
	PERFSTAT_EVENTS=task-clock,page-faults,context-switches,cpu-migrations
	if [ "$(perf_hw_counters)" = available ]; then PERFSTAT_EVENTS+=,cycles,instructions; fi
}

perfstat_metrics() {
	tr ',' '\n' <<<"$PERFSTAT_EVENTS" | awk '{ gsub(/[^A-Za-z0-9]+/, "_"); print "perfstat_" $0 }'
}

# Counts include the bench's threads and any child it forks while counting
# (perf inherits counters across fork).
perfstat_start() {
	perf_session_start perfstat "$MONITOR_FIFO" "$1.log" \
		stat -x, -e "$PERFSTAT_EVENTS" -p "$2" -o "$1.csv"
}

perfstat_stop() { perf_session_stop perfstat; }

# perf stat -x, lines: value,unit,event,...; task-clock is in msec.  An event
# perf could not count ("<not counted>", "<not supported>") gives no row.
perfstat_parse() {
	[ -s "$1.csv" ] || return 1
	awk -F, '$1 ~ /^[0-9.]+$/ && $3 != "" {
		name = $3; gsub(/[^A-Za-z0-9]+/, "_", name)
		v = $1; if ($2 == "msec") v /= 1000
		printf "perfstat_%s\t%.9g\n", name, v }' "$1.csv"
}

perfstat_describe() {
	case $1 in
	perfstat_task_clock) printf '%s\ttask-clock\ts\tlower\n' "$1" ;;
	*) printf '%s\t%s\tcount\tnone\n' "$1" "$(tr _ - <<<"${1#perfstat_}")" ;;
	esac
}
