#!/usr/bin/env bats
# bench/procmunmap run directly: a small munmap under /proc readers, the
# variants, the trigger a monitor wraps the munmap with, and bad input.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

B=$ROOT/build/bin/procmunmap

metric() { awk -F'\t' -v m="$1" '$1 == m { print $2 }' <<<"$output"; }

@test "a 64M munmap under two cmdline readers reports reader latencies" {
	run --separate-stderr "$B" --size 64M --idle-ms 50
	[ "$status" -eq 0 ]
	[ "$(metric pages)" -eq 16384 ]
	awk -v r="$(metric reader_reads)" 'BEGIN { exit !(r > 0) }'
	awk -v a="$(metric reader_p50)" -v b="$(metric reader_p99)" -v c="$(metric reader_max)" \
		'BEGIN { exit !(a > 0 && a <= b && b <= c) }'
	[ -n "$(metric idle_reader_max)" ]
	[ -n "$(metric idle_reader_p50)" ]
	# The munmap's CPU time is part of its elapsed time.
	awk -v c="$(metric munmap_cpu)" -v e="$(metric elapsed)" 'BEGIN { exit !(c > 0 && c <= e * 1.01) }'
}

@test "chunked munmap: the longest call is shorter than the whole" {
	run --separate-stderr "$B" --size 64M --chunk 4M --idle-ms 20 --proc-file maps,status
	[ "$status" -eq 0 ]
	awk -v m="$(metric munmap_call_max)" -v e="$(metric elapsed)" 'BEGIN { exit !(m < e) }'
}

@test "fault threads run during the munmap" {
	run --separate-stderr "$B" --size 64M --fault-threads 1 --idle-ms 20
	[ "$status" -eq 0 ]
	awk -v f="$(metric fault_pages)" 'BEGIN { exit !(f > 0) }'
}

@test "--trigger fifo brackets the munmap for a monitor" {
	trigger_start "$B" --size 16M --idle-ms 20
	[[ $TRIG_STATE == "ready $TRIG_PID" ]]
	pid=$TRIG_PID
	trigger_finish
	[[ $TRIG_STATE == "done $pid" ]]
	grep -q '^elapsed	' <<<"$TRIG_OUT"
}

# The CPUs of a taskset list ("0-2,5") one per line.
cpus_of() {
	local part
	for part in ${1//,/ }; do
		seq "${part%-*}" "${part#*-}"
	done
}

@test "--reader-cpus others: the munmap on the last CPU, the readers on the rest" {
	[ "$(nproc)" -ge 2 ] || skip "one CPU"
	allowed=$(cpus_of "$(taskset -pc $$ | sed 's/.*: //')")
	last=$(tail -n 1 <<<"$allowed")
	trigger_start "$B" --size 16M --idle-ms 20 --reader-cpus others
	# The kernel's view of each process's CPUs, while the bench waits at ready.
	mine=$(cpus_of "$(taskset -pc "$TRIG_PID" | sed 's/.*: //')")
	theirs=""
	for r in $(cat "/proc/$TRIG_PID/task/$TRIG_PID/children"); do
		theirs+="$(cpus_of "$(taskset -pc "$r" | sed 's/.*: //')" | paste -sd,);"
	done
	trigger_finish
	[ "$mine" = "$last" ]
	others=$(grep -vx "$last" <<<"$allowed" | paste -sd,)
	[ "$theirs" = "$others;$others;" ]
}

@test "--read-gap-us: each reader reads at most once per gap" {
	run --separate-stderr "$B" --size 256M --idle-ms 20 --read-gap-us 2000
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	# Two readers, a 2 ms gap: at most one read each per 2 ms of munmap, plus the one in flight.
	awk -v r="$(metric reader_reads)" -v e="$(metric elapsed)" 'BEGIN { exit !(r >= 1 && r <= 2 * (e / 0.002 + 2)) }'
}

@test "an unreadable proc file, zero readers and a partial chunk are refused in one line that names the problem" {
	local args want
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086  # word splitting intended
		run --separate-stderr "$B" --size 16M $args
		assert_one_line_error
		[[ $stderr == "procmunmap: $want"* ]] || { printf 'args: %s\nstderr: %s\nwanted: %s...\n' "$args" "$stderr" "$want"; return 1; }
	done <<-EOF
	--proc-file nosuch|--proc-file nosuch: cannot read /proc/self/nosuch: No such file or directory
	--proc-file cmdline,../x|--proc-file ../x: a file name in /proc/PID is expected
	--readers 0|--readers 0: must be between 1 and 32
	--chunk 1000|--chunk 1000: must be a non-zero multiple of the page size ($(getconf PAGESIZE))
	--size 1P|--size 1.0P is more than this machine can hold: MemAvailable less a margin
	--reader-cpus some|--reader-cpus some: must be one of any|others
	--read-gap-us 2000000|--read-gap-us 2000000: at most 1000000 (a second)
	EOF
}

@test "run.sh procmunmap: reader metrics in the samples" {
	run --separate-stderr "$ROOT/run.sh" -n pm -o "$RES" --set SIZE=64M --set IDLE_MS=20 --set WARMUP=0 -i 1 procmunmap
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	s=$RES/pm/procmunmap/samples.tsv
	awk -F'\t' '$1 == "reader_reads" && $4 > 0 { ok = 1 } END { exit !ok }' "$s"
	awk -F'\t' '$1 == "idle_reader_max" && $4 > 0 { ok = 1 } END { exit !ok }' "$s"
	grep -q '^PROC_FILE=cmdline$' "$RES/pm/procmunmap/config"
}

@test "run.sh accepts every procmunmap config" {
	for c in "$ROOT"/configs/procmunmap*; do
		run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES" "$c"
		[ "$status" -eq 0 ] || { echo "$c: $stderr"; false; }
	done
}

# Nearest-rank percentile P (0..1) of the values on stdin: the smallest
# with at least P of them at or below it.
nearest_rank() { sort -n | awk -v p="$1" '{ v[NR] = $1 } END { r = p * NR; k = int(r); if (k < r) k++; if (k < 1) k = 1; print v[k] }'; }
ns() { awk -v s="$1" 'BEGIN { printf "%.0f", s * 1e9 }'; }

@test "--raw-times: the reader percentiles are the nearest ranks of the reads' own latencies, the mean their mean" {
	f=$BATS_TEST_TMPDIR/raw
	run --separate-stderr "$B" --size 64M --idle-ms 50 --raw-times "$f"
	[ "$status" -eq 0 ]
	awk -F'\t' '$1 == "read" { print $2 }' "$f" >"$f.read"
	awk -F'\t' '$1 == "idle_read" { print $2 }' "$f" >"$f.idle"
	[ "$(wc -l <"$f.read")" -eq "$(metric reader_reads)" ]
	[ "$(ns "$(metric reader_max)")" = "$(nearest_rank 1 <"$f.read")" ]
	[ "$(ns "$(metric reader_p99)")" = "$(nearest_rank 0.99 <"$f.read")" ]
	[ "$(ns "$(metric reader_p50)")" = "$(nearest_rank 0.5 <"$f.read")" ]
	[ "$(ns "$(metric idle_reader_max)")" = "$(nearest_rank 1 <"$f.idle")" ]
	[ "$(ns "$(metric idle_reader_p50)")" = "$(nearest_rank 0.5 <"$f.idle")" ]
	[ "$(ns "$(metric reader_mean)")" = "$(awk '{ s += $1 } END { printf "%.0f", s / NR }' "$f.read")" ]
	# and the maximum as ministat finds it, where its 8 digits hold it (and
	# it has the 3 values it needs: a loaded machine leaves the readers few)
	if command -v ministat >/dev/null && [ "$(wc -l <"$f.read")" -ge 3 ] &&
		[ "$(nearest_rank 1 <"$f.read")" -lt 100000000 ]; then
		[ "$(ministat -n "$f.read" | awk 'NR == 3 { printf "%d", $4 }')" = "$(ns "$(metric reader_max)")" ]
	fi
}
