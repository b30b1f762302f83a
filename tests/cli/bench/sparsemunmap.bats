#!/usr/bin/env bats
# bench/sparsemunmap run directly: the thread's 16 TiB case at its real size
# (it costs address space, not memory), the variants, and bad input.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

B=$ROOT/build/bin/sparsemunmap

# The value of metric $1 in $output.
metric() { awk -F'\t' -v m="$1" '$1 == m { print $2 }' <<<"$output"; }

@test "the thread's 16 TiB untouched file mapping is unmapped and timed" {
	run --separate-stderr "$B"
	[ "$status" -eq 0 ]
	awk -v e="$(metric elapsed)" 'BEGIN { exit !(e > 0 && e < 1) }'
	[ "$(metric pages_touched)" -eq 0 ]
	[ -n "$(metric mmap_elapsed)" ]
}

@test "the temp file is created in --dir and never left behind" {
	d=$(mktemp -d)
	run --separate-stderr "$B" --dir "$d" --size 1G --touch-stride 256M
	[ "$status" -eq 0 ]
	[ -z "$(ls -A "$d")" ]
	rmdir "$d"
}

@test "a 1G stride over 4T touches one page per PUD, with every backing" {
	for b in file memfd anon; do
		run --separate-stderr "$B" --backing "$b" --size 4T --touch-stride 1G
		[ "$status" -eq 0 ]
		[ "$(metric pages_touched)" -eq 4096 ]
	done
}

@test "--cycles reports per-cycle times and their total" {
	run --separate-stderr "$B" --size 1T --cycles 100
	[ "$status" -eq 0 ]
	awk -v c="$(metric cycle_elapsed)" -v t="$(metric total_elapsed)" \
		'BEGIN { exit !(t > 0 && (t / c) > 99.9 && (t / c) < 100.1) }'
}

@test "--cycles: the kernel counts an mmap and a munmap per cycle; elapsed is their median" {
	command -v perf >/dev/null || skip "no perf"
	perf stat -e syscalls:sys_enter_munmap true >/dev/null 2>&1 || skip "perf cannot count syscall tracepoints here"
	run --separate-stderr perf stat -x, -o "$BATS_TEST_TMPDIR/stat" \
		-e syscalls:sys_enter_munmap,syscalls:sys_enter_mmap "$B" --size 1T --cycles 500
	[ "$status" -eq 0 ]
	# The C library adds a few calls of its own, never 500.
	awk -F, '$3 ~ /munmap/ { u = $1 } $3 ~ /_mmap$/ { m = $1 } END { exit !(u >= 500 && u < 520 && m >= 500 && m < 540) }' \
		"$BATS_TEST_TMPDIR/stat"
	# A median munmap is below the mean mmap+munmap cycle, whose tail it ignores.
	awk -v e="$(metric elapsed)" -v c="$(metric cycle_elapsed)" 'BEGIN { exit !(e > 0 && e < c) }'
}

# The address of the mapping as the kernel shows it in /proc/PID/maps while
# the bench waits at "ready", after the first mmap.
mapping_start() {
	local range
	trigger_start "$B" --size 1T "$@"
	while read -r range _; do
		(( 0x${range#*-} - 0x${range%-*} == 1 << 40 )) && echo "${range%-*}"
	done <"/proc/$TRIG_PID/maps"
	trigger_finish
}

@test "--placement isolated maps at 16 TiB, kernel where mmap(NULL) puts it" {
	[ "$(mapping_start --placement isolated)" = 100000000000 ]
	start=$(mapping_start --placement kernel)
	[ -n "$start" ] && [ "$start" != 100000000000 ]
}

@test "a stride that is not a multiple of the page size is refused in one line" {
	run --separate-stderr "$B" --touch-stride 1000
	assert_one_line_error
	[[ $stderr == *"--touch-stride 1000: must be a non-zero multiple of the page size"* ]]
}

@test "a mapping larger than the address space names the limit" {
	run --separate-stderr "$B" --size 1P
	assert_one_line_error
	[[ $stderr == *"user address space"* ]]
	run --separate-stderr bash -c "ulimit -v 1000000; exec '$B'"
	assert_one_line_error
	[[ $stderr == *RLIMIT_AS* ]]
}

@test "touches that would not fit in memory are refused, or shrink with --cap-size" {
	run --separate-stderr "$B" --touch-stride 4K
	assert_one_line_error
	[[ $stderr == *"more than this machine can hold"* ]]
	run --separate-stderr "$B" --size 1T --touch-stride 4K --cap-size --check
	[ "$status" -eq 0 ]
	[[ $stderr == *"--size reduced"* ]]
}

@test "bad --backing, --cycles, --placement and --dir are refused in one line that names the problem" {
	local args want
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086  # word splitting intended
		run --separate-stderr "$B" $args
		assert_one_line_error
		[ "$stderr" = "sparsemunmap: $want" ] || { printf 'args: %s\nstderr: %s\nwanted: %s\n' "$args" "$stderr" "$want"; return 1; }
	done <<-'EOF'
	--backing foo|--backing foo: must be one of file|memfd|anon
	--cycles 0|--cycles 0: must be between 1 and 1000000
	--cycles 1000001|--cycles 1000001: must be between 1 and 1000000
	--placement far|--placement far: must be one of kernel|isolated
	--dir /nonexistent|--dir /nonexistent: not a directory this process can create files in: No such file or directory
	--backing anon --dir /tmp|--dir applies only to --backing file
	EOF
}

@test "run.sh: a SIZE sweep gives one sample set per size" {
	run --separate-stderr "$ROOT/run.sh" -n sweep -o "$RES" --set "SIZE=1G 16T" --set WARMUP=0 -i 2 sparsemunmap-sweep
	[ "$status" -eq 0 ]
	s=$RES/sweep/sparsemunmap/samples.tsv
	[ "$(awk -F'\t' '$1 == "elapsed" && $4 > 0 { n[$2]++ } END { print n["1G"], n["16T"] }' "$s")" = "2 2" ]
}

@test "run.sh accepts every sparsemunmap config" {
	for c in "$ROOT"/configs/sparsemunmap*; do
		run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES" "$c"
		[ "$status" -eq 0 ] || { echo "$c: $stderr"; false; }
	done
}

# The raw series $2 of --raw-times file $1, one value a line.
raw() { awk -F'\t' -v s="$2" '$1 == s { print $2 }' "$1"; }
# ministat's median of a file of values (the middle one, for an odd count).
ministat_median() { ministat -n "$1" | awk 'NR == 3 { printf "%d", $5 }'; }

@test "--raw-times: elapsed and mmap_elapsed are the medians of the cycles' own times, as ministat finds them" {
	command -v ministat >/dev/null || skip "no ministat"
	f=$BATS_TEST_TMPDIR/raw
	run --separate-stderr "$B" --size 1T --cycles 101 --raw-times "$f"
	[ "$status" -eq 0 ]
	raw "$f" munmap >"$f.munmap"
	raw "$f" mmap >"$f.mmap"
	[ "$(wc -l <"$f.munmap")" -eq 101 ] && [ "$(wc -l <"$f.mmap")" -eq 101 ]
	# reported in seconds to 15 digits: the median's nanoseconds exactly
	[ "$(awk -v e="$(metric elapsed)" 'BEGIN { printf "%.0f", e * 1e9 }')" = "$(ministat_median "$f.munmap")" ]
	[ "$(awk -v e="$(metric mmap_elapsed)" 'BEGIN { printf "%.0f", e * 1e9 }')" = "$(ministat_median "$f.mmap")" ]
	# total_elapsed is every mmap and munmap summed; cycle_elapsed its mean per cycle
	sum=$(cat "$f.munmap" "$f.mmap" | awk '{ s += $1 } END { printf "%d", s }')
	[ "$(awk -v t="$(metric total_elapsed)" 'BEGIN { printf "%.0f", t * 1e9 }')" = "$sum" ]
	awk -v c="$(metric cycle_elapsed)" -v s="$sum" 'BEGIN { d = c * 1e9 * 101 - s; exit !(d > -1 && d < 1) }'
}

@test "--raw-times into a file that cannot be written: one line, exit 2, no figures" {
	run --separate-stderr "$B" --size 1G --cycles 3 --raw-times /nonexistent/raw
	assert_one_line_error
	[ "$stderr" = "sparsemunmap: --raw-times /nonexistent/raw: No such file or directory" ]
}
