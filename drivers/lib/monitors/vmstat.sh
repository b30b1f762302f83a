# vmstat: the /proc/vmstat counters that changed over the timed region, as
# vmstat_NAME rows (unevictable_pgs_munlocked for munlock, pgfault, thp_*).
# The counters are system-wide: anything else the machine does in the
# region is in them too.
# shellcheck shell=bash

vmstat_available() {
	[ -r /proc/vmstat ] || { echo "/proc/vmstat is not readable"; return 1; }
}

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
		($1 in before) && $2 != before[$1] { printf "vmstat_%s\t%.0f\n", $1, $2 - before[$1] }' \
		"$1.before" "$1.after"
}

vmstat_describe() {
	printf '%s\t%s\tcount\tnone\n' "$1" "${1#vmstat_}"
}

# A counter that changed in some iterations only is 0 in the others: fill
# those rows in, so its mean is over every iteration, not the busy ones.
vmstat_finish() {
	local samples=$1/samples.tsv zeros
	zeros=$(awk -F'\t' -v OFS='\t' 'FNR > 1 { iter[$2 SUBSEP $3] = 1
			if ($1 ~ /^vmstat_/) { seen[$1 SUBSEP $2 SUBSEP $3] = 1; names[$1] = 1 } }
		END { for (k in iter) { split(k, pi, SUBSEP)
			for (n in names) if (!((n SUBSEP k) in seen)) print n, pi[1], pi[2], 0 } }' "$samples")
	[ -z "$zeros" ] || printf '%s\n' "$zeros" >>"$samples"
}
