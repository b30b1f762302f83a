#!/usr/bin/env bats
# Monitors around the timed region: real runs at small sizes, the mmap_lock
# reduction on a hand-made trace, and monitors that cannot run.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

FIXTURES=$ROOT/tests/fixtures/mmaplock

# value METRIC FILE: the metric's values, one per line, in iteration order.
values() { awk -F'\t' -v m="$1" '$1 == m { print $4 }' "$2"; }

@test "the mmap_lock reduction of a hand-made trace gives its known holds, waits and counts" {
	run awk -v pid=4242 -f "$ROOT/drivers/monitors/mmaplock.awk" "$FIXTURES/trace.txt"
	[ "$status" -eq 0 ]
	diff <(printf '%s\n' "$output") "$FIXTURES/expected.tsv"
}

@test "the mmap_lock reduction counts nothing for a process that took no lock" {
	run awk -v pid=9999 -f "$ROOT/drivers/monitors/mmaplock.awk" "$FIXTURES/trace.txt"
	[ "$status" -eq 0 ]
	[ "$(awk -F'\t' '$2 != 0' <<<"$output" | wc -l)" -eq 0 ]
	[ "$(wc -l <<<"$output")" -eq 8 ]
}

@test "a timedmunlock run with every monitor writes their samples and raw files" {
	run --separate-stderr "$ROOT/run.sh" -n all -o "$RES" --set SIZE=64M --set WARMUP=0 -i 2 \
		--monitors vmstat,perfstat,mmaplock,profile timedmunlock
	[ "$status" -eq 0 ]
	d=$RES/all/timedmunlock
	# every page munlocked is counted by the kernel, in the region. The
	# counter is system-wide: another process munlocking (or exiting with
	# mlocked pages) in the same window adds to it, so allow 5% above; and a
	# page another process's compaction or reclaim holds isolated at the
	# munlock is cleared outside the count (16377 of 16384 with a stress-ng
	# mlock load beside the test), so allow 1% below.  A counter that
	# counts the pages twice, or only the faults, still fails.
	paste <(values vmstat_unevictable_pgs_munlocked "$d/samples.tsv") <(values pages "$d/samples.tsv") >"$BATS_TEST_TMPDIR/munlocked"
	cat "$BATS_TEST_TMPDIR/munlocked"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/munlocked")" -eq 2 ]
	awk '$1 < $2 * 0.99 || $1 > $2 * 1.05 { bad = 1 } END { exit bad }' "$BATS_TEST_TMPDIR/munlocked"
	[ "$(values pages "$d/samples.tsv" | head -n 1)" -eq 16384 ]
	# perf stat saw the munlock's CPU time, munlock took the write lock
	[ "$(awk -F'\t' '$1 == "perfstat_task_clock" && $4 > 0' "$d/samples.tsv" | wc -l)" -eq 2 ]
	[ "$(awk -F'\t' '$1 == "mmap_lock_write_hold_max" && $4 > 0' "$d/samples.tsv" | wc -l)" -eq 2 ]
	# the profile holds the munlock, not the set-up or the teardown: its
	# call graphs (the flat table may show only leaf functions) reach the
	# munlock syscall and never the mmap or munmap ones
	perf report -i "$d/monitors/profile.1.data" --stdio --children 2>/dev/null >"$BATS_TEST_TMPDIR/children"
	grep -q 'sys_munlock' "$BATS_TEST_TMPDIR/children"
	run ! grep -q 'sys_munmap\|sys_mmap' "$BATS_TEST_TMPDIR/children"
	[ -s "$d/monitors/profile.1.txt" ]
	for f in vmstat.1.before vmstat.2.after perfstat.1.csv mmaplock.2.data mmaplock.2.txt profile.2.data; do
		[ -s "$d/monitors/$f" ] || { echo "missing $f"; return 1; }
	done
	# metrics.tsv declares every monitor metric, so compare.sh shows them
	for m in vmstat_unevictable_pgs_munlocked perfstat_context_switches mmap_lock_write_hold_max; do
		grep -q "^$m	" "$d/metrics.tsv" || { echo "$m not in metrics.tsv"; return 1; }
	done
	[ ! -e "$d/monitors/skipped" ]
	grep -Eq '^hw_counters: (available|unavailable)$' "$RES/all/meta"
}

@test "the run directory holds the kernel config and meta says where it came from" {
	[ -r /proc/config.gz ] || [ -r "/boot/config-$(uname -r)" ] || skip "this kernel's config is not available"
	run "$ROOT/run.sh" -n kc -o "$RES" --set SIZE=8M --set WARMUP=0 -i 1 timedmunlock
	[ "$status" -eq 0 ]
	grep -q '^CONFIG_MMU=y$' "$RES/kc/kernel-config"
	grep -Eq '^kernel_config: (/proc/config.gz|/boot/config-)' "$RES/kc/meta"
}

@test "a procmunmap run gives a positive mmap_lock_write_hold_max" {
	[ -f "$ROOT/bench/procmunmap.c" ] || skip "procmunmap not in this tree"
	run --separate-stderr "$ROOT/run.sh" -n pm -o "$RES" --set SIZE=64M --set WARMUP=0 -i 1 \
		--monitors mmaplock procmunmap
	[ "$status" -eq 0 ]
	[ "$(awk -F'\t' '$1 == "mmap_lock_write_hold_max" && $4 > 0' "$RES/pm/procmunmap/samples.tsv" | wc -l)" -eq 1 ]
}

@test "without a working perf the perf monitors are skipped with one message each and the run completes" {
	mkdir -p "$RES/bin"
	printf '#!/bin/sh\necho "perf not found for kernel $(uname -r)" >&2\nexit 1\n' >"$RES/bin/perf"
	chmod +x "$RES/bin/perf"
	PATH=$RES/bin:$PATH run --separate-stderr "$ROOT/run.sh" -n noperf -o "$RES" --set SIZE=8M \
		--set WARMUP=1 -i 2 --monitors vmstat,perfstat,mmaplock timedmunlock
	[ "$status" -eq 0 ]
	d=$RES/noperf/timedmunlock
	[ "$(grep -c 'monitor perfstat skipped: no working perf' <<<"$stderr")" -eq 1 ]
	[ "$(grep -c 'monitor mmaplock skipped: no working perf' <<<"$stderr")" -eq 1 ]
	[ "$(cut -f1 "$d/monitors/skipped" | sort | tr '\n' ' ')" = "mmaplock perfstat " ]
	# vmstat still ran, and the bench's own samples are all there
	[ "$(values vmstat_unevictable_pgs_munlocked "$d/samples.tsv" | wc -l)" -eq 2 ]
	[ "$(values elapsed "$d/samples.tsv" | wc -l)" -eq 2 ]
	run ! grep -q '^perfstat_' "$d/samples.tsv"
	grep -q '^status: complete$' "$RES/noperf/meta"
}

@test "an unknown monitor is refused before anything is written" {
	run --separate-stderr "$ROOT/run.sh" -n bad -o "$RES" --monitors vmstat,nosuch timedmunlock
	assert_one_line_error
	[[ $stderr == *"unknown monitor 'nosuch'"* ]]
	[ -z "$(results_digest)" ]
}

@test "--monitors none turns off a config's monitors" {
	printf 'BENCH=timedmunlock\nSIZE=8M\nMONITORS=vmstat\nWARMUP=0\nITERATIONS=1\n' >"$RES/cfg"
	run "$ROOT/run.sh" -n off -o "$RES" --monitors none "$RES/cfg"
	[ "$status" -eq 0 ]
	[ ! -e "$RES/off/timedmunlock/monitors" ]
	! grep -q '^vmstat_' "$RES/off/timedmunlock/samples.tsv"
}

@test "vmstat records every counter in every counted iteration, zero included" {
	run --separate-stderr "$ROOT/run.sh" -n vm -o "$RES" --set SIZE=8M --set WARMUP=1 -i 2 \
		--monitors vmstat timedmunlock
	[ "$status" -eq 0 ]
	d=$RES/vm/timedmunlock
	# one metric per counter the kernel has, each declared as vmstat's
	[ "$(grep -c '^vmstat_' "$d/metrics.tsv")" -eq "$(wc -l </proc/vmstat)" ]
	[ "$(awk -F'\t' '$5 == "vmstat"' "$d/metrics.tsv" | wc -l)" -eq "$(wc -l </proc/vmstat)" ]
	# every declared metric has a sample in each counted iteration: no
	# metric of the warm-up only, no counter missing where it stood still
	awk -F'\t' 'NR == FNR { m[$1] = 1; next } FNR > 1 { n[$1 SUBSEP $3]++ }
		END { for (k in m) for (i = 1; i <= 2; i++) if (n[k SUBSEP i] != 1) { print k, i; exit 1 } }' \
		"$d/metrics.tsv" "$d/samples.tsv"
	# a counter nothing touched is a zero, not a missing row
	[ "$(values vmstat_drop_pagecache "$d/samples.tsv" | tr '\n' ' ')" = "0 0 " ]
}

@test "a counter at zero in one run is compared, not reported missing" {
	thp=/sys/kernel/mm/transparent_hugepage
	[ -w "$thp/enabled" ] || skip "THP is not switchable here"
	for t in always never; do
		run --separate-stderr "$ROOT/run.sh" -n "thp-$t" -o "$RES" --set SIZE=16M --set WARMUP=0 -i 2 \
			--set THP="$t" --monitors vmstat timedmunlock
		[ "$status" -eq 0 ]
	done
	# huge pages were allocated under THP=always and none under never
	[ "$(values vmstat_thp_fault_alloc "$RES/thp-never/timedmunlock/samples.tsv" | tr '\n' ' ')" = "0 0 " ]
	run --separate-stderr "$ROOT/compare.sh" -o "$RES" --format csv thp-always thp-never
	[ "$status" -eq 0 ]
	[[ $stderr != *"lacks metric"* ]]
	grep -q 'vmstat_thp_fault_alloc' <<<"$output"
}

# A perf that cannot count cpu-migrations: its answers to the check run
# over `true` say "<not supported>" for that event.
fake_perf_without_migrations() {
	mkdir -p "$RES/bin"
	cat >"$RES/bin/perf" <<'PERF'
#!/bin/bash
if [ "$1" = stat ] && [ "${*: -1}" = true ]; then
	out=$(perf "$@" 2>&1 >/dev/null)
	sed 's/^[0-9.]*,,cpu-migrations,/<not supported>,,cpu-migrations,/' <<<"$out" >&2
	exit 0
fi
exec perf "$@"
PERF
	chmod +x "$RES/bin/perf"
}

@test "perfstat leaves out an event perf cannot count, and says so once" {
	command -v perf >/dev/null || skip "no perf"
	fake_perf_without_migrations
	MMDELTA_PERF=$RES/bin/perf run --separate-stderr "$ROOT/run.sh" -n nomig -o "$RES" --set SIZE=8M \
		--set WARMUP=1 -i 2 --monitors perfstat timedmunlock
	[ "$status" -eq 0 ]
	d=$RES/nomig/timedmunlock
	[ "$(grep -c 'monitor perfstat: perf cannot count cpu-migrations here' <<<"$stderr")" -eq 1 ]
	run ! grep -q '^perfstat_cpu_migrations' "$d/metrics.tsv" "$d/samples.tsv"
	for m in perfstat_task_clock perfstat_page_faults perfstat_context_switches; do
		[ "$(values "$m" "$d/samples.tsv" | wc -l)" -eq 2 ] || { echo "$m"; return 1; }
	done
}
