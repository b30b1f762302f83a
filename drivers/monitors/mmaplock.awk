# Reduce mmap_lock tracepoint events to the hold and wait times of one
# process's mm:
#   perf script -F pid,tid,time,event,trace --ns | awk -v pid=PID -f mmaplock.awk
# Input, one event a line (other lines are ignored):
#   1234/1235  476.785869743:  mmap_lock:mmap_lock_start_locking: mm=0xff.. memcg_id=3 write=true
#   1234/1235  476.785871956:  mmap_lock:mmap_lock_acquire_returned: mm=0xff.. write=true success=true
#   1234/1235  476.785876435:  mmap_lock:mmap_lock_released: mm=0xff.. write=true
# Output: metric<TAB>value, times in seconds.
#
# Whose lock: every mm that process PID (a tgid) itself locked in the window,
# i.e. the bench's own.  Other tasks' events on that mm count too: they
# contend for the same lock (procmunmap's readers of /proc/PID/maps).
#
# Per (task, mm): start_locking begins a wait; acquire_returned ends it and
# begins a hold (a trylock has no start_locking: a hold without a wait);
# released ends the hold.  mmap_write_downgrade() reports itself as a read
# acquire_returned while the task holds the write lock: the exclusive hold
# ends there and a read hold begins; munmap zaps the pages after that point
# since 4.20, which is the 2018 thread's fix.  A release or acquire cut off
# by the window's edges has no partner and is ignored.

function ns(t,   dot, frac) {
	sub(/:$/, "", t)
	dot = index(t, ".")
	if (!dot)
		return t * 1e9
	frac = substr(t, dot + 1)
	return substr(t, 1, dot - 1) * 1e9 + frac * 10 ^ (9 - length(frac))
}

function field(name,   i) {
	for (i = 4; i <= NF; i++)
		if (index($i, name "=") == 1)
			return substr($i, length(name) + 2)
	return ""
}

function hold_end(k, m, t,   d) {
	d = t - since[k]
	if (held[k] == "w") {
		wtotal[m] += d
		if (d > wmax[m]) wmax[m] = d
	} else if (d > rmax[m]) {
		rmax[m] = d
	}
	delete held[k]
}

$3 !~ /^mmap_lock:mmap_lock_/ { next }

{
	split($1, who, "/")
	t = ns($2)
	m = field("mm")
	k = who[2] SUBSEP m
	if (who[1] == pid)
		mine[m] = 1
	write = field("write") == "true"
}

$3 ~ /start_locking/ { wait_from[k] = t; next }

$3 ~ /acquire_returned/ {
	if (k in wait_from) {
		if (t - wait_from[k] > waitmax[m]) waitmax[m] = t - wait_from[k]
		delete wait_from[k]
	}
	if (field("success") != "true") { failed[m]++; next }
	if (!write && (k in held) && held[k] == "w") {
		hold_end(k, m, t)
		downgrades[m]++
	} else if (write) {
		writes[m]++
	} else {
		reads[m]++
	}
	held[k] = write ? "w" : "r"
	since[k] = t
	next
}

$3 ~ /released/ { if (k in held) hold_end(k, m, t) }

END {
	for (m in mine) {
		wt += wtotal[m]
		if (wmax[m] > wm) wm = wmax[m]
		if (rmax[m] > rm) rm = rmax[m]
		if (waitmax[m] > qm) qm = waitmax[m]
		nw += writes[m]; nr += reads[m]; nd += downgrades[m]; nf += failed[m]
	}
	printf "mmap_lock_write_hold_max\t%.9f\n", wm / 1e9
	printf "mmap_lock_write_hold_total\t%.9f\n", wt / 1e9
	printf "mmap_lock_read_hold_max\t%.9f\n", rm / 1e9
	printf "mmap_lock_wait_max\t%.9f\n", qm / 1e9
	printf "mmap_lock_write_acquisitions\t%d\n", nw
	printf "mmap_lock_read_acquisitions\t%d\n", nr
	printf "mmap_lock_downgrades\t%d\n", nd
	printf "mmap_lock_failed_acquisitions\t%d\n", nf
}
