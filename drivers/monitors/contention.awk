# Reduce lock:contention_begin/end events to the waits of one bench:
#   perf script -F pid,tid,time,event,trace,ip,sym --ns |
#     awk -v mm=0xMM -v mmsize=BYTES -v tasks="PID PID..." -v detail=FILE -f contention.awk
# Input, one event and its kernel call chain (other lines are ignored):
#   4242/4243   615.397556123: lock:contention_begin: 0xffff888118b586f8 (flags=WRITE)
#   	ffffffff8226a7fc rwsem_down_write_slowpath
#   	ffffffff8226ac2c down_write_killable
#   	ffffffff81612379 do_mprotect_pkey
#   4242/4243   615.397844321:   lock:contention_end: 0xffff888118b586f8 (ret=0)
# Output: metric<TAB>value, times in seconds; with detail=FILE, a row per
# lock, type and caller there: mmap_lock or other, the type, the caller,
# how many lock addresses, contentions, total wait, longest wait.
#
# A wait is a task's contention_begin to its contention_end on the same
# lock address.  A second begin before the end (a mutex that spun, then
# sleeps) is the same wait, as perf lock contention counts it; an end
# whose begin fell before the region, or a begin whose end fell after it,
# is no wait.
#
# Which lock: the bench's mmap_lock is the read-write semaphore inside its
# mm_struct, the object of mmsize bytes at mm (mmap_lock is the one
# rw_semaphore there but for x86's LDT semaphore, which only modify_ldt(2)
# takes).  Every task's waits for it count.  Every other lock counts when
# one of the bench's tasks waited for it; those are told apart by type and
# caller, as perf lock contention tells them, since most are one of many
# instances (each VMA's anon_vma lock, say).  The caller is the first
# frame of the chain outside the lock implementation.

# Kernel addresses exceed a double's 53 bits: compare them as 16 hex
# digits, their low 32 bits as a number.  A slab object never crosses a
# 4 GiB boundary (slabs are naturally aligned pages), so an address inside
# the mm_struct has the mm's upper 32 bits.
function hex16(s) {
	sub(/^0x/, "", s)
	s = tolower(s)
	while (length(s) < 16)
		s = "0" s
	return s
}

function low32(s,   i, v) {
	v = 0
	for (i = 9; i <= 16; i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}

function in_mm(a) {
	return substr(a, 1, 8) == mm_high && low32(a) >= mm_low && low32(a) < mm_low + mmsize
}

# The flags of contention_begin, named as perf lock contention names them.
function lock_type(f) {
	if (f == "WRITE") return "rwsem:W"
	if (f == "READ") return "rwsem:R"
	if (f == "SPIN") return "spinlock"
	if (f == "SPIN|READ") return "rwlock:R"
	if (f == "SPIN|WRITE") return "rwlock:W"
	if (f ~ /^MUTEX/ || f == "SPIN|MUTEX") return "mutex"
	if (f == "PERCPU|READ") return "pcpu-sem:R"
	if (f == "PERCPU|WRITE") return "pcpu-sem:W"
	if (f == "RT") return "rtmutex"
	if (f == "RT|READ") return "rwsem-rt:R"
	if (f == "RT|WRITE") return "rwsem-rt:W"
	if (f == "") return "semaphore"
	return f
}

# A rw_semaphore's wait: reader or writer, no spinning lock, no per-CPU one.
function rwsem(f) { return f == "READ" || f == "WRITE" || f == "RT|READ" || f == "RT|WRITE" }

# The lock implementation's own frames (slow paths, the down/mutex/spin
# entries, their .isra/.constprop clones), which a caller is not.
function lock_frame(sym) {
	return sym ~ /^_*(rwsem|down|mutex|ww_mutex|rt_mutex|rtlock|rwbase|percpu_down|percpu_rwsem|raw_spin|raw_read|raw_write|do_raw_spin|do_raw_read|do_raw_write|queued_spin|queued_read|queued_write|native_queued_spin|pv_queued_spin|osq)(_|\.|$)/
}

function wait_done(key, class, a, d) {
	if (!((key, a) in seen)) {
		seen[key, a] = 1
		locks[key]++
	}
	n[key]++
	total[key] += d
	if (d > longest[key]) longest[key] = d
	cn[class]++
	ct[class] += d
	if (d > cm[class]) cm[class] = d
}

BEGIN {
	mm = hex16(mm)
	mm_high = substr(mm, 1, 8)
	mm_low = low32(mm)
	split(tasks, t, " ")
	for (i in t) mine[t[i]] = 1
	cn["mmap_lock"] = cn["other"] = 0
}

# A frame of the event above: the first one outside the lock code names
# the caller of a wait just begun.
/^\t/ {
	if (naming != "" && !((naming) in caller) && NF >= 2 && !lock_frame($2))
		caller[naming] = $2
	next
}

{ naming = "" }

$3 != "lock:contention_begin:" && $3 != "lock:contention_end:" { next }

{
	split($1, who, "/")
	ts = $2
	gsub(/[.:]/, "", ts)	# --ns: seconds.nanoseconds, so digits are ns
	ts += 0
	a = hex16($4)
	k = who[2] SUBSEP a
}

$3 == "lock:contention_begin:" {
	if (k in since) next
	f = $5
	gsub(/^\(flags=|\)$/, "", f)
	since[k] = ts
	pid_of[k] = who[1]
	flags[k] = f
	naming = k
	next
}

{
	if (!(k in since)) next
	d = ts - since[k]
	f = flags[k]
	c = (k in caller) ? caller[k] : "[unknown]"
	if (rwsem(f) && in_mm(a))
		wait_done("mmap_lock" SUBSEP lock_type(f) SUBSEP c, "mmap_lock", a, d)
	else if (pid_of[k] in mine)
		wait_done("other" SUBSEP lock_type(f) SUBSEP c, "other", a, d)
	delete since[k]
	delete pid_of[k]
	delete flags[k]
	delete caller[k]
}

END {
	for (key in n) {
		split(key, p, SUBSEP)
		if (detail != "")
			printf "%s\t%s\t%s\t%d\t%d\t%.9f\t%.9f\n", p[1], p[2], p[3], locks[key], n[key],
				total[key] / 1e9, longest[key] / 1e9 >detail
	}
	printf "contention_mmap_lock_count\t%d\n", cn["mmap_lock"]
	printf "contention_mmap_lock_wait\t%.9f\n", ct["mmap_lock"] / 1e9
	printf "contention_mmap_lock_max\t%.9f\n", cm["mmap_lock"] / 1e9
	printf "contention_other_count\t%d\n", cn["other"]
	printf "contention_other_wait\t%.9f\n", ct["other"] / 1e9
	printf "contention_other_max\t%.9f\n", cm["other"] / 1e9
}
