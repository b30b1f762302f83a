# perfstat: `perf stat` of the bench process over the timed region: the
# software events the heap thread argued with (context switches, faults),
# plus cycles and instructions where the machine has hardware counters.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_MONITORS_PERFSTAT:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_MONITORS_PERFSTAT=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/perf.sh"  # perf_find, perf_hw_counters, perf_session_start, perf_session_stop, perf_user_only

PERFSTAT_EVENTS=""

# Only events perf really counts here, kernel side included: perf is asked
# once, over `true`.  An event it cannot count ("<not supported>") is left
# out and said once; a perf that counts user space only skips the monitor,
# so no metric is ever a zero that means "not counted".
perfstat_available() {
	local want=task-clock,page-faults,context-switches,cpu-migrations out ev ok=() missing=()
	perf_find || { echo "no working perf (install linux-perf, or set MMDELTA_PERF)"; return 1; }
	! perf_user_only || return 1
	if [ "$(perf_hw_counters)" = available ]; then want+=,cycles,instructions; fi
	out=$("$PERF" stat -x, -e "$want" -- true 2>&1 >/dev/null) || true
	for ev in ${want//,/ }; do
		if awk -F, -v e="$ev" '$3 == e && $1 ~ /^[0-9.]+$/ { f = 1 } END { exit !f }' <<<"$out"; then
			ok+=("$ev")
		else
			missing+=("$ev")
		fi
	done
	[ ${#ok[@]} -gt 0 ] || { echo "perf counts none of $want here"; return 1; }
	# printed on success: a note, said once per run
	[ ${#missing[@]} -eq 0 ] || echo "perf cannot count ${missing[*]} here; they are not recorded"
	PERFSTAT_EVENTS=$(IFS=,; echo "${ok[*]}")
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
# perf did not count in this iteration ("<not counted>") gives no row, and
# the monitor is dropped for lacking it.
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
