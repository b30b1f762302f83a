# contention: the waits for locks over the timed region, from the kernel's
# lock:contention_begin/end tracepoints (5.19+), recorded as perf lock
# record records them.  The heap thread's and the munmap thread's own
# figures were waits: sleeps on mmap_sem, ps hung behind a munmap.  The
# metrics are the bench's mmap_lock (every task's waits for it) and every
# other lock its own tasks waited for; perf lock contention's table of the
# whole machine is kept beside them.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_MONITORS_CONTENTION:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_MONITORS_CONTENTION=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # say
source "${BASH_SOURCE[0]%/*}/perf.sh"  # perf_session_start, perf_session_stop
source "${BASH_SOURCE[0]%/*}/mmaplock.sh"  # mmaplock_available, mmaplock_tracefs

# The size of a struct mm_struct on this kernel, from /proc/slabinfo: the
# bench's mmap_lock is the rw_semaphore inside that object.
CONTENTION_MM_SIZE=""

contention_available() {
	local t
	# perf, the kernel's side, tracefs, and the mmap_lock tracepoints,
	# which find the bench's mm: what mmaplock needs
	mmaplock_available || return 1
	t=$(mmaplock_tracefs) || return 1
	[ -d "$t/events/lock/contention_begin" ] || { echo "this kernel has no lock:contention_begin tracepoint (5.19+ with CONFIG_TRACEPOINTS)"; return 1; }
	awk '$3 == "proc_pid_cmdline_read" { ok = $1 !~ /^0+$/ } END { exit !ok }' /proc/kallsyms 2>/dev/null ||
		{ echo "kernel symbols are not readable here (CONFIG_KALLSYMS, kernel.kptr_restrict), so the bench's mm cannot be found"; return 1; }
	CONTENTION_MM_SIZE=$(awk '$1 == "mm_struct" { print $4 }' /proc/slabinfo 2>/dev/null) || true
	[[ $CONTENTION_MM_SIZE =~ ^[1-9][0-9]*$ ]] ||
		{ echo "/proc/slabinfo has no mm_struct (CONFIG_SLUB_DEBUG), so mmap_lock cannot be told from other locks"; return 1; }
	# printed on success: a note, said once per run
	[ "$(nproc)" -gt 1 ] ||
		echo "one CPU: only sleeping locks (mmap_lock, mutexes) contend, when their holder is preempted; spinlocks never do"
}

contention_metrics() {
	awk -v mm=0 -v mmsize=0 -f "$MMDELTA_ROOT/drivers/monitors/contention.awk" </dev/null | cut -f1
}

# Before the region: which mm is the bench's (RAW.mm) and which processes
# are its (RAW.tasks: itself and the children it forked in set-up, such as
# procmunmap's readers).  Then system-wide, because other processes wait
# for the bench's lock too.  The workload `tail --pid` ends the recording
# should the driver be killed outright.
contention_start() {
	local raw=$1 pid=$2 mm
	mm=$(contention_mm "$raw" "$pid") || { say "monitor contention: no mmap_lock event showed process $pid's mm (see $raw.log)"; return 1; }
	printf '%s %s\n' "$mm" "$CONTENTION_MM_SIZE" >"$raw.mm"
	contention_tasks "$pid" >"$raw.tasks"
	perf_session_start contention "$MONITOR_FIFO" "$raw.log" \
		record -a -R -m 1024 -c 1 --synth task -e lock:contention_begin -e lock:contention_end \
		--call-graph fp,8 -o "$raw.data" -- tail --pid="$pid" -f /dev/null
}

# The bench's mm: reading /proc/PID/cmdline takes PID's mmap_lock, and the
# mmap_lock tracepoint names the mm; the reader's own mm (its exec, its
# faults) is told apart by the call chain.
contention_mm() {
	local mm=""
	if "$PERF" record -q -g -e mmap_lock:mmap_lock_start_locking -o "$1.mm.data" \
		-- cat "/proc/$2/cmdline" >/dev/null 2>>"$1.log"; then
		mm=$("$PERF" script -i "$1.mm.data" -F trace:trace,ip,sym 2>>"$1.log" | awk '
			$1 ~ /^mm=/ { mm = substr($1, 4); next }
			$2 == "proc_pid_cmdline_read" && found == "" { found = mm }
			END { print found }')
	fi
	rm -f "$1.mm.data"
	[ -n "$mm" ] && echo "$mm"
}

contention_tasks() {
	{
		echo "$1"
		cat /proc/[0-9]*/status 2>/dev/null | awk -v p="$1" '$1 == "Tgid:" { t = $2 } $1 == "PPid:" && $2 == p { print t }'
	} | sort -un | paste -sd ' '
}

# perf record writes its data 0600; the run's files take the umask's modes.
contention_stop() {
	perf_session_stop contention
	[ ! -e "$1.data" ] || chmod "$RUN_FILE_MODE" "$1.data"
}

# The metrics, RAW.tsv (a row per lock, type and caller, longest total
# wait first) and RAW.perf.txt (perf lock contention's table: every task
# on the machine, by caller).
contention_parse() {
	local raw=$1 mm size tasks
	[ -s "$raw.data" ] && read -r mm size <"$raw.mm" && read -r tasks <"$raw.tasks" || return 1
	if grep -qi 'lost' "$raw.log" 2>/dev/null; then
		say "monitor contention: perf lost events in $(basename "$raw"); the waits may miss some (see $raw.log)"
	fi
	"$PERF" script -i "$raw.data" -F trace:pid,tid,time,event,trace,ip,sym --ns 2>>"$raw.log" |
		awk -v mm="$mm" -v mmsize="$size" -v tasks="$tasks" -v detail="$raw.rows" \
			-f "$MMDELTA_ROOT/drivers/monitors/contention.awk" >"$raw.txt" || return 1
	{
		printf '# waits in the timed region: mmap_lock (the rw_semaphore in the mm_struct at %s, %s bytes), any task; other locks, tasks %s\n' "$mm" "$size" "$tasks"
		printf 'lock\ttype\tcaller\tlocks\tcontentions\twait_s\tmax_s\n'
		sort -t "$(printf '\t')" -k6,6gr -k1,3 "$raw.rows" 2>/dev/null
	} >"$raw.tsv"
	rm -f "$raw.rows"
	# perf lock prints its table on stderr
	"$PERF" lock contention -i "$raw.data" >"$raw.perf.txt" 2>&1 ||
		say "monitor contention: perf lock contention could not read $(basename "$raw").data (see $raw.perf.txt)"
	cat "$raw.txt"
}

contention_describe() {
	case $1 in
	*_count) printf '%s\t%s\tcount\tnone\n' "$1" "$(contention_label "$1")" ;;
	*) printf '%s\t%s\ts\tlower\n' "$1" "$(contention_label "$1")" ;;
	esac
}

contention_label() {
	local l=${1#contention_} what=other
	[[ $l != mmap_lock_* ]] || what=mmap_lock
	case ${l##*_} in
	count) printf '%s contentions\n' "$what" ;;
	wait) printf '%s wait\n' "$what" ;;
	max) printf '%s longest wait\n' "$what" ;;
	esac
}
