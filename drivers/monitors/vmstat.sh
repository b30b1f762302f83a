# vmstat: every /proc/vmstat counter's change over the timed region, as
# vmstat_NAME rows (unevictable_pgs_munlocked for munlock, pgfault, thp_*),
# zero included: a patch that drives a counter to zero shows as -100%, not
# as a metric the patched run lacks.  The counters are system-wide: anything
# else the machine does in the region is in them too.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_MONITORS_VMSTAT:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_MONITORS_VMSTAT=1

vmstat_available() {
	[ -r /proc/vmstat ] || { echo "/proc/vmstat is not readable"; return 1; }
}

# The kernel's counters; a kernel never adds one while it runs.
vmstat_metrics() { awk '{ print "vmstat_" $1 }' /proc/vmstat; }

# mapfile is a builtin: a snapshot forks nothing, so the driver adds no page
# faults of its own between the two reads.
VMSTAT_BEFORE=() VMSTAT_AFTER=()
vmstat_start() { mapfile -t VMSTAT_BEFORE </proc/vmstat; }

vmstat_stop() {
	mapfile -t VMSTAT_AFTER </proc/vmstat
	printf '%s\n' "${VMSTAT_BEFORE[@]}" >"$1.before"
	printf '%s\n' "${VMSTAT_AFTER[@]}" >"$1.after"
}

vmstat_parse() {
	awk 'NR == FNR { before[$1] = $2; next }
		($1 in before) { printf "vmstat_%s\t%.0f\n", $1, $2 - before[$1] }' "$1.before" "$1.after"
}

vmstat_describe() {
	printf '%s\t%s\tcount\tnone\n' "$1" "${1#vmstat_}"
}
