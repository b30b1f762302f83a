#!/usr/bin/env bats
# The contention monitor: its reduction on a hand-made trace, and a real
# contended run (two threads on the old glibc heap pattern) checked against
# perf lock contention's own per-thread figures and the mmaplock monitor's.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

FIXTURES=$ROOT/tests/fixtures/contention

reduce() {
	awk -v mm=0xffff888100001000 -v mmsize=1600 -v tasks="100 200" -v detail="$RES/locks.tsv" \
		-f "$ROOT/drivers/monitors/contention.awk" "$FIXTURES/trace.txt"
}

# value METRIC ITERATION: the metric's value in that iteration of $D.
value() { awk -F'\t' -v m="$1" -v i="$2" '$1 == m && $3 == i { print $4 }' "$D/samples.tsv"; }

# perf lock contention's per-thread table of RAW.data, for the threads of
# the processes in RAW.tasks: contentions and total wait (s), and the
# rounding of that total (perf prints two decimals of its unit).
perf_bench_threads() {
	local raw=$1
	perf script -i "$raw.data" -F trace:pid,tid 2>/dev/null |
		awk -v t="$(cat "$raw.tasks")" 'BEGIN { split(t, p, " "); for (i in p) mine[p[i]] = 1 }
			{ split($1, w, "/"); if (w[1] in mine) print w[2] }' | sort -u >"$raw.tids"
	perf lock contention -t -i "$raw.data" 2>&1 |
		awk 'NR == FNR { tid[$1] = 1; next }
			function unit(u) { return u == "ns" ? 1e-9 : u == "us" ? 1e-6 : u == "ms" ? 1e-3 : 1 }
			$8 in tid { n += $1; w += $2 * unit($3); r += 0.005 * unit($3); k++ }
			END { printf "%d %.9f %.9f %d\n", n, w, r, k }' "$raw.tids" -
}

@test "the contention reduction of a hand-made trace gives its known waits, in total and per lock and caller" {
	run reduce
	[ "$status" -eq 0 ]
	diff <(printf '%s\n' "$output") "$FIXTURES/expected.tsv"
	diff <(LC_ALL=C sort "$RES/locks.tsv") "$FIXTURES/expected-locks.tsv"
}

@test "the contention reduction of no events gives each of its six metrics as zero" {
	run awk -v mm=0 -v mmsize=0 -f "$ROOT/drivers/monitors/contention.awk" </dev/null
	[ "$status" -eq 0 ]
	[ "$(wc -l <<<"$output")" -eq 6 ]
	[ "$(awk -F'\t' '$1 ~ /^contention_(mmap_lock|other)_(count|wait|max)$/ && $2 == 0' <<<"$output" | wc -l)" -eq 6 ]
}

@test "two threads on the mprotect pattern wait for mmap_lock, as perf lock contention and the mmaplock monitor see it" {
	command -v perf >/dev/null || skip "no perf"
	run --separate-stderr "$ROOT/run.sh" -n hr -o "$RES" --set THREADS=2 --set OPS=5000 --set WARMUP=0 -i 2 \
		--monitors contention,mmaplock heaprelease-mprotect
	[ "$status" -eq 0 ]
	D=$RES/hr/heaprelease
	[ ! -e "$D/monitors/skipped" ]
	[ "$(awk -F'\t' '$5 == "contention"' "$D/metrics.tsv" | wc -l)" -eq 6 ]
	for i in 1 2; do
		raw=$D/monitors/contention.$i
		n=$(value contention_mmap_lock_count "$i") w=$(value contention_mmap_lock_wait "$i")
		m=$(value contention_mmap_lock_max "$i") el=$(value elapsed "$i")
		echo "iteration $i: mmap_lock $n waits, $w s, longest $m s; elapsed $el s"
		# waits happened, and add up: the longest is one of them, and no
		# task (two threads and main) waited longer than the region
		awk -v n="$n" -v w="$w" -v m="$m" -v el="$el" 'BEGIN { exit !(n >= 1 && m > 0 && w >= m && w <= 3 * el) }'
		# the table's rows add up to the metrics
		awk -F'\t' -v n="$n" -v w="$w" '$1 == "mmap_lock" { c += $5; t += $6 }
			END { exit !(c == n && (t - w) ^ 2 < 1e-12) }' "$raw.tsv"
		# every wait for mmap_lock ends in an acquisition of it, or a
		# failed one; the mmaplock monitor's wait (start of locking to its
		# return, around the same tasks' contention) is as long or longer
		acq=$(($(value mmap_lock_write_acquisitions "$i") + $(value mmap_lock_read_acquisitions "$i") + $(value mmap_lock_failed_acquisitions "$i")))
		[ "$n" -le "$acq" ]
		awk -v m="$m" -v q="$(value mmap_lock_wait_max "$i")" 'BEGIN { exit !(m <= q) }'
		# perf's own reader of the same recording, per thread of the
		# bench: it counts a wait at its begin, the monitor at its end, so
		# it may have a wait or two more per thread still open at the
		# region's end; its total is the monitor's to its rounding.  The
		# monitor may have more: another process's waits for mmap_lock.
		read -r pn pw pr pk < <(perf_bench_threads "$raw")
		echo "perf lock contention: $pn waits, $pw s (± $pr s) over $pk threads"
		c=$(($(value contention_mmap_lock_count "$i") + $(value contention_other_count "$i")))
		t=$(awk -v a="$w" -v b="$(value contention_other_wait "$i")" 'BEGIN { printf "%.9f", a + b }')
		[ "$pk" -ge 2 ]
		[ "$c" -ge $((pn - 2 * pk)) ]
		awk -v t="$t" -v pw="$pw" -v pr="$pr" 'BEGIN { exit !(t >= pw - pr - 1e-9) }'
		grep -q '^ *contended *total wait' "$raw.perf.txt"
	done
	# the writers' waits are named by the syscall that took the lock
	grep -q '^mmap_lock	rwsem:W	[^	]*mprotect' "$D/monitors/contention.1.tsv"
}

@test "on one CPU the run says once that only sleeping locks can contend" {
	command -v perf >/dev/null || skip "no perf"
	command -v taskset >/dev/null || skip "no taskset"
	run --separate-stderr taskset -c 0 "$ROOT/run.sh" -n one -o "$RES" --set OPS=500 --set WARMUP=0 -i 2 \
		--monitors contention heaprelease-mprotect
	[ "$status" -eq 0 ]
	[ "$(grep -c 'monitor contention: one CPU: only sleeping locks' <<<"$stderr")" -eq 1 ]
	[ "$(grep -c '^contention_' "$RES/one/heaprelease/samples.tsv")" -eq 12 ]
}

# The newest of the cached Debian kernels, 6.12 where there is one.
newest_kernel() {
	debian_kernels
	grep '^6\.12\.' <<<"$KERNELS" | tail -n 1 | cut -f2 | grep . || tail -n 1 <<<"$KERNELS" | cut -f2
}

# Opt-in (make test-contention-guests): two TCG boots take minutes on a
# busy host, and a realtime boot there can fail its IO-APIC timer check.
@test "in a guest: with two vCPUs under realtime the threads wait for mmap_lock; under icount the run says what one CPU shows" {
	[ -n "${MMDELTA_CONTENTION_GUESTS:-}" ] || skip "opt-in: make test-contention-guests"
	img=$(newest_kernel)
	make -s -C "$ROOT" static
	args=(-o "$RES" --vm-timeout 1500 --set THREADS=2 --set OPS=2000 --set WARMUP=0 -i 1
		--monitors contention heaprelease-mprotect)
	"$ROOT/run.sh" --kernel "$img" --vm-cpus 2 --vm-clock realtime -n rt "${args[@]}" 2>"$RES/rt.err" &
	"$ROOT/run.sh" --kernel "$img" --vm-clock icount -n ic "${args[@]}" 2>"$RES/ic.err" &
	wait
	tail -n 3 "$RES/rt.err" "$RES/ic.err"
	grep -q '^status: complete$' "$RES/rt/meta"
	grep -q '^status: complete$' "$RES/ic/meta"
	D=$RES/rt/heaprelease
	n=$(value contention_mmap_lock_count 1) w=$(value contention_mmap_lock_wait 1) m=$(value contention_mmap_lock_max 1)
	echo "realtime, 2 vCPUs: mmap_lock $n waits, $w s, longest $m s"
	awk -v n="$n" -v w="$w" -v m="$m" -v el="$(value elapsed 1)" 'BEGIN { exit !(n >= 1 && m > 0 && w >= m && w <= 3 * el) }'
	grep -q '^mmap_lock	rwsem:W	[^	]*mprotect' "$D/monitors/contention.1.tsv"
	run ! grep -q 'one CPU' "$RES/rt.err"
	# one vCPU: said once, and the metrics are there, whatever they are
	[ "$(grep -c 'monitor contention: one CPU: only sleeping locks' "$RES/ic.err")" -eq 1 ]
	[ "$(grep -c '^contention_' "$RES/ic/heaprelease/samples.tsv")" -eq 6 ]
}
