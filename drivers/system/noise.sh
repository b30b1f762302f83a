# Noise control between iterations and before a run.  Each step is a config
# key, documented with what it measurably did here (docs/measurement.md).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_SYSTEM_NOISE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_SYSTEM_NOISE=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say

# DROP_CACHES=yes: start each iteration without the page cache of the last;
# COMPACT=yes: with free memory compacted, so THP runs find huge pages alike.
# Both happen before the bench process starts, outside any timed region.
noise_before_iteration() {
	local drop_caches=$1 compact=$2
	if [ "$drop_caches" = yes ]; then
		sync
		echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || say "DROP_CACHES: cannot write /proc/sys/vm/drop_caches"
	fi
	if [ "$compact" = yes ]; then
		echo 1 >/proc/sys/vm/compact_memory 2>/dev/null || say "COMPACT: cannot write /proc/sys/vm/compact_memory"
	fi
	return 0
}

# CPUs' worth of time that other work used over a quarter second, from
# /proc/stat (our own sampling is negligible).
cpu_busy() {
	local a b
	a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat)
	sleep 0.25
	b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat)
	awk -v a="$a" -v b="$b" -v n="$(nproc)" 'BEGIN { split(a, x, " "); split(b, y, " ")
		busy = y[1] - x[1]; idle = y[2] - x[2]
		printf "%.2f\n", (busy + idle > 0) ? n * busy / (busy + idle) : 0 }'
}

# Refuse to measure on an obviously busy machine: less than half a CPU left
# idle for the bench, or a 1-minute load average above twice the CPU count.
load_check() {
	local ignore=$1 busy load
	busy=$(cpu_busy)
	load=$(cut -d' ' -f1 /proc/loadavg)
	LOAD_AT_START="cpu busy $busy of $(nproc) CPUs, loadavg $load"
	[ "$ignore" = 1 ] && return 0
	if awk -v b="$busy" -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(b >= n - 0.5 || l > 2 * n) }'; then
		die "the machine is busy ($LOAD_AT_START): timings would be noise; stop the other work or pass --ignore-load"
	fi
}
