#!/usr/bin/env bats
# bench/heaprelease run directly: the thread's two heap-release patterns at
# small op counts, and bad input.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

B=$ROOT/build/bin/heaprelease

metric() { awk -F'\t' -v m="$1" '$1 == m { print $2 }' <<<"$output"; }

@test "with 2 threads the mprotect pattern sleeps on the lock more than madvise" {
	run --separate-stderr "$B" --pattern mprotect --threads 2 --ops 50000
	[ "$status" -eq 0 ]
	old=$(metric voluntary_cs)
	run --separate-stderr "$B" --pattern madvise --threads 2 --ops 50000
	[ "$status" -eq 0 ]
	new=$(metric voluntary_cs)
	echo "voluntary cs: mprotect $old, madvise $new"
	[ "$old" -gt "$new" ]
}

@test "every pattern reports its rates over the timed region" {
	for p in mprotect madvise madvfree; do
		run --separate-stderr "$B" --pattern "$p" --threads 1 --ops 2000 --heap-size 8K
		[ "$status" -eq 0 ]
		# ops_per_sec is threads x ops over elapsed
		awk -v e="$(metric elapsed)" -v r="$(metric ops_per_sec)" \
			'BEGIN { exit !(e > 0 && r * e > 1999 && r * e < 2001) }'
		[ -n "$(metric cs_per_sec)" ]
	done
}

@test "cpu_time is the threads' CPU time: within what the shell's time saw for the process" {
	TIMEFORMAT='%U %S'
	{ time "$B" --pattern madvise --threads 2 --ops 5000 >"$BATS_TEST_TMPDIR/out"; } 2>"$BATS_TEST_TMPDIR/time"
	output=$(cat "$BATS_TEST_TMPDIR/out")
	read -r user sys <"$BATS_TEST_TMPDIR/time"
	# time(1)'s figures have 1 ms steps and include the set-up and the teardown.
	awk -v c="$(metric cpu_time)" -v u="$user" -v s="$sys" 'BEGIN { exit !(c > 0 && c <= u + s + 0.002) }'
}

@test "MADV_DONTNEED faults every page back in; MADV_FREE keeps them" {
	run --separate-stderr "$B" --pattern madvise --threads 1 --ops 5000
	[ "$(metric minor_faults)" -ge 5000 ]
	run --separate-stderr "$B" --pattern madvfree --threads 1 --ops 5000
	[ "$(metric minor_faults)" -lt 5000 ]
}

# The kernel's view of each thread of a bench from trigger_start, waiting at
# the barrier of the timed region: "main CPUS" first, then each other
# thread's CPUs, sorted; CPUS as "0,1" (task_cpus: of one thread).
task_cpus() { cpus_of "$(taskset -pc "$1" | sed 's/.*: //')" | paste -sd,; }
bindings() {
	local t
	echo "main $(task_cpus "$TRIG_PID")"
	for t in /proc/"$TRIG_PID"/task/*; do
		[ "${t##*/}" = "$TRIG_PID" ] || task_cpus "${t##*/}"
	done | sort -n
}

@test "--pin binds each thread to one allowed CPU, in turn round the allowed set" {
	allowed=$(cpus_of "$(taskset -pc $$ | sed 's/.*: //')")
	n=$(wc -l <<<"$allowed")
	# n + 1 threads: each allowed CPU once and the first twice; main() unbound
	want=$(echo "main $(paste -sd, <<<"$allowed")"; (cat <<<"$allowed"; head -n 1 <<<"$allowed") | sort -n)
	trigger_start "$B" --pin --threads $((n + 1)) --ops 1000
	[[ $TRIG_STATE == "ready $TRIG_PID" ]]
	got=$(bindings)
	trigger_finish
	[ "$got" = "$want" ] || { printf 'bound:\n%s\nwanted:\n%s\n' "$got" "$want"; return 1; }
	grep -q '^elapsed	' <<<"$TRIG_OUT"
	# allowed only the last CPU, both threads go there, not to CPUs 0 and 1
	[ "$n" -ge 2 ] || skip "one CPU"
	last=$(tail -n 1 <<<"$allowed")
	trigger_start taskset -c "$last" "$B" --pin --threads 2 --ops 1000
	got=$(bindings)
	trigger_finish
	[ "$got" = "$(printf 'main %s\n%s\n%s' "$last" "$last" "$last")" ] || { printf 'bound:\n%s\n' "$got"; return 1; }
}

@test "zero threads, an unknown pattern and a partial page are refused in one line" {
	for args in "--threads 0" "--pattern brk" "--heap-size 100" "--ops 0" "--threads -2"; do
		# shellcheck disable=SC2086  # word splitting intended
		run --separate-stderr "$B" $args
		assert_one_line_error
	done
	run --separate-stderr "$B" --pattern brk
	[[ $stderr == *"--pattern brk: must be one of mprotect|madvise|madvfree"* ]]
}

@test "run.sh heaprelease: the two patterns side by side in one run" {
	run --separate-stderr "$ROOT/run.sh" -n pat -o "$RES" --set OPS=2000 --set WARMUP=0 -i 2 heaprelease
	[ "$status" -eq 0 ]
	s=$RES/pat/heaprelease/samples.tsv
	[ "$(awk -F'\t' '$1 == "cs_per_sec" { n[$2]++ } END { print n["mprotect"], n["madvise"] }' "$s")" = "2 2" ]
}

@test "run.sh: a PIN that is not yes or no is refused before anything is written" {
	run --separate-stderr "$ROOT/run.sh" -n pin -o "$RES" --set PIN=maybe -i 1 heaprelease
	[ "$status" -ne 0 ]
	[[ $stderr == *"PIN=maybe"* ]]
	[ ! -e "$RES/pin" ]
}

@test "run.sh accepts every heaprelease config" {
	for c in "$ROOT"/configs/heaprelease*; do
		run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES" "$c"
		[ "$status" -eq 0 ] || { echo "$c: $stderr"; false; }
	done
}

# The sum and the largest of raw series $2 in --raw-times file $1.
raw_sum() { awk -F'\t' -v s="$2" '$1 == s { t += $2 } END { printf "%d", t }' "$1"; }
raw_max() { awk -F'\t' -v s="$2" '$1 == s && $2 > m { m = $2 } END { printf "%d", m }' "$1"; }

@test "--raw-times: the process's counts hold the threads' own, and the region holds each thread's loop" {
	f=$BATS_TEST_TMPDIR/raw
	for p in mprotect madvise; do
		run --separate-stderr "$B" --pattern "$p" --threads 2 --ops 5000 --raw-times "$f"
		[ "$status" -eq 0 ]
		[ "$(awk -F'\t' '$1 == "thread_elapsed"' "$f" | wc -l)" -eq 2 ]
		# a page per operation per thread faults back in, in each thread's loop
		awk -F'\t' '$1 == "thread_minor_faults" && $2 < 5000 { exit 1 }' "$f"
		# RUSAGE_SELF sums every thread over the region: at least the loops' sums
		[ "$(raw_sum "$f" thread_minor_faults)" -le "$(metric minor_faults)" ]
		[ "$(raw_sum "$f" thread_voluntary_cs)" -le "$(metric voluntary_cs)" ]
		[ "$(raw_sum "$f" thread_involuntary_cs)" -le "$(metric involuntary_cs)" ]
		# each thread's CPU time truncates to a microsecond
		awk -v c="$(metric cpu_time)" -v s="$(raw_sum "$f" thread_cpu)" 'BEGIN { exit !(s > 0 && s <= c * 1e9 + 2000) }'
		# the region starts before the threads are released and ends after the last
		awk -v e="$(metric elapsed)" -v m="$(raw_max "$f" thread_elapsed)" 'BEGIN { exit !(m > 0 && m <= e * 1e9) }'
	done
}

@test "each thread's part of the heap is one VMA with its reserve, between holes: no thread's VMA meets another's" {
	trigger_start "$B" --pattern mprotect --threads 3 --ops 10
	# part and reserve, PROT_NONE until the loop starts: 2 pages each
	span=$((2 * $(getconf PAGESIZE)))
	# anonymous (inode 0), PROT_NONE, that size; bash does the hex, which
	# POSIX awk (Debian's mawk) cannot
	parts=$(while read -r range perms _ _ inode _; do
		if [ "$perms" = ---p ] && [ "$inode" = 0 ] && [ $((16#${range#*-} - 16#${range%-*})) -eq "$span" ]; then
			echo "${range%-*} ${range#*-}"
		fi
	done <"/proc/$TRIG_PID/maps")
	trigger_finish
	[ "$(wc -l <<<"$parts")" -eq 3 ]
	# a hole between each part and the next: none ends where another starts
	! awk '{ s[$1] = 1; e[$2] = 1 } END { for (a in s) if (a in e) exit 0; exit 1 }' <<<"$parts"
}
