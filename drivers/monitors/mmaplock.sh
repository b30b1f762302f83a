# mmaplock: the mmap_lock tracepoints (kernel 5.11+) over the timed region,
# reduced to hold and wait times of the bench's mm: procmunmap's headline,
# how long munmap held the lock exclusively (the 2018 thread: seconds of
# zapping, which it moved under the read lock, leaving microseconds).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_MONITORS_MMAPLOCK:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_MONITORS_MMAPLOCK=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # say
source "${BASH_SOURCE[0]%/*}/perf.sh"  # perf_find, perf_session_start, perf_session_stop, perf_user_only
source "${BASH_SOURCE[0]%/*}/../system/settings.sh"  # setting_mount

MMAPLOCK_EVENTS=mmap_lock:mmap_lock_start_locking,mmap_lock:mmap_lock_acquire_returned,mmap_lock:mmap_lock_released

# perf needs tracefs for the tracepoints' formats; mount it if nobody has,
# as a setting that is undone at the end.
mmaplock_tracefs() {
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ ! -d "$d/events" ] || { echo "$d"; return 0; }
	done
	setting_mount tracefs /sys/kernel/tracing && [ -d /sys/kernel/tracing/events ] &&
		echo /sys/kernel/tracing
}

mmaplock_available() {
	local t
	perf_find || { echo "no working perf (install linux-perf, or set MMDELTA_PERF)"; return 1; }
	! perf_user_only || return 1
	t=$(mmaplock_tracefs) || { echo "tracefs is not mounted and cannot be (mount -t tracefs nodev /sys/kernel/tracing)"; return 1; }
	[ -d "$t/events/mmap_lock" ] || { echo "this kernel has no mmap_lock tracepoints (5.11+ with CONFIG_TRACING)"; return 1; }
}

# System-wide, because other processes take the bench's mmap_lock too
# (procmunmap's readers of /proc/PID/cmdline).  That is millions of events
# a second under procmunmap's readers: 250 MB of perf.data for one 1-2 s
# munmap, 7 MB compressed (-z), and a large buffer so that few if any are
# lost.  The workload `tail --pid` ends the recording should the driver
# be killed outright; normally the session is stopped first.
mmaplock_start() {
	local -a z=()
	local opts re='zstd: *\[ on'
	opts=$("$PERF" version --build-options 2>/dev/null) || true
	if [[ $opts =~ $re ]]; then z=(-z); fi
	perf_session_start mmaplock "$MONITOR_FIFO" "$1.log" \
		record -a "${z[@]}" -e "$MMAPLOCK_EVENTS" -m 16M -o "$1.data" -- tail --pid="$2" -f /dev/null
}

# perf record writes its data 0600; the run's files take the umask's modes.
mmaplock_stop() {
	perf_session_stop mmaplock
	[ ! -e "$1.data" ] || chmod "$RUN_FILE_MODE" "$1.data"
}

mmaplock_parse() {
	[ -s "$1.data" ] || return 1
	if grep -qi 'lost' "$1.log" 2>/dev/null; then
		say "monitor mmaplock: perf lost events in $(basename "$1"); the hold times may miss some (see $1.log)"
	fi
	"$PERF" script -i "$1.data" -F pid,tid,time,event,trace --ns 2>>"$1.log" |
		awk -v pid="$2" -f "$MMDELTA_ROOT/drivers/monitors/mmaplock.awk" >"$1.txt" || return 1
	cat "$1.txt"
}

# The reduction's rows, from the reduction itself over no events.
mmaplock_metrics() {
	awk -v pid=0 -f "$MMDELTA_ROOT/drivers/monitors/mmaplock.awk" </dev/null | cut -f1
}

mmaplock_describe() {
	case $1 in
	*_hold_max|*_hold_total|*_wait_max) printf '%s\t%s\ts\tlower\n' "$1" "$(mmaplock_label "$1")" ;;
	*) printf '%s\t%s\tcount\tnone\n' "$1" "$(mmaplock_label "$1")" ;;
	esac
}

mmaplock_label() {
	local l=${1#mmap_lock_}
	printf 'mmap_lock %s\n' "${l//_/ }"
}
