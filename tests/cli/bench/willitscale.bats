#!/usr/bin/env bats
# bench/willitscale: will-it-scale's mm tests, each config at a small size,
# what each test does counted by the kernel, the tasks and their region,
# and bad input.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

B=$ROOT/build/bin/willitscale

metric() { awk -F'\t' -v m="$1" '$1 == m { print $2 }' <<<"$output"; }
sample() { awk -F'\t' -v m="$2" '$1 == m { print $4 }' "$1"; }

# Operations in one loop of each test, counted by hand from will-it-scale's
# tests: a page of 128 MiB (page_fault*, tlb_flush1/3) or of 1 MiB
# (tlb_flush2), an mmap+munmap pair, a malloc+free pair, a brk call (two a
# loop).  And a small number of loops for a test run.
ops_per_loop() {
	case $1 in
	page_fault*|tlb_flush1|tlb_flush3) echo 32768 ;;
	tlb_flush2) echo 256 ;;
	brk1) echo 2 ;;
	*) echo 1 ;;
	esac
}
small_loops() {
	case $1 in
	page_fault*|tlb_flush1|tlb_flush3) echo 1 ;;
	tlb_flush2) echo 4 ;;
	brk1) echo 1000 ;;
	*) echo 200 ;;
	esac
}

@test "every will-it-scale config runs, and its rate is its operations over the region" {
	local c t n=0
	for c in "$ROOT"/configs/will-it-scale-*; do
		t=${c##*will-it-scale-}
		run --separate-stderr "$ROOT/run.sh" -n "$t" -o "$RES" -i 1 --set WARMUP=0 --set TASKS=1 \
			--set LOOPS="$(small_loops "$t")" --monitors none "$c"
		[ "$status" -eq 0 ] || { echo "$t: $stderr"; false; }
		s=$RES/$t/willitscale/samples.tsv
		grep -q "^command: bench/willitscale --test $t " "$RES/$t/willitscale/config"
		# per_process_ops x elapsed = loops x ops; ns/op is its inverse
		awk -v r="$(sample "$s" per_process_ops)" -v e="$(sample "$s" elapsed)" \
			-v n="$(sample "$s" ns_per_op)" -v w="$(sample "$s" workload)" \
			-v ops=$(($(small_loops "$t") * $(ops_per_loop "$t"))) -v t="$t" '
			BEGIN { ok = e > 0 && r * e > ops * 0.999999 && r * e < ops * 1.000001 &&
				n * r > 0.999999e9 && n * r < 1.000001e9 && w == r
				printf "%s: %s ops/s x %s s, %s ns/op (%d ops)\n", t, r, e, n, ops; exit !ok }'
		n=$((n + 1))
	done
	[ "$n" -eq 10 ]
}

@test "the catalog config sweeps every test at one task, and per_thread_ops is the thread mode's" {
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES" willitscale
	[ "$status" -eq 0 ]
	[ "$(grep -c '^command TEST=' <<<"$output")" -eq 10 ]
	run --separate-stderr "$B" --test brk1 --tasks 2 --mode thread --loops 500
	[ "$status" -eq 0 ]
	[ -z "$(metric per_process_ops)" ]
	# workload is every task's: twice a task's rate
	awk -v r="$(metric per_thread_ops)" -v w="$(metric workload)" -v t="$(metric tasks)" \
		'BEGIN { exit !(t == 2 && r > 0 && w > 1.999999 * r && w < 2.000001 * r) }'
}

@test "page_fault1 faults once per page it touches, as the kernel counts faults" {
	local thp=()
	if [ "$(id -u)" -eq 0 ]; then
		thp=(--set THP=never)
	elif grep -q '\[always\]' /sys/kernel/mm/transparent_hugepage/enabled; then
		skip "THP is always here, and THP=never needs root"
	fi
	run --separate-stderr "$ROOT/run.sh" -n pf -o "$RES" -i 2 --set WARMUP=0 --set TASKS=2 "${thp[@]}" \
		--monitors vmstat will-it-scale-page_fault1
	[ "$status" -eq 0 ]
	s=$RES/pf/willitscale/samples.tsv
	# 2 tasks x 128 MiB / 4 KiB, and a few of the code's own first runs;
	# the machine's pgfault over the region counts at least as many
	paste <(sample "$s" minor_faults) <(sample "$s" vmstat_pgfault) | awk '
		{ print "minor_faults " $1 ", vmstat pgfault " $2; n++
		  if ($1 < 65536 || $1 > 65536 + 16 || $2 < $1) bad = 1 }
		END { exit bad || n != 2 }'
}

# How many times the kernel saw each of EVENTS (syscall tracepoints) in a
# run of the bench with ARGS: "count event" lines.
syscalls() {
	local events=$1; shift
	perf stat -x, -o "$BATS_TEST_TMPDIR/stat" -e "$events" "$B" "$@" >/dev/null
	awk -F, '$3 ~ /sys_enter/ { sub(/.*sys_enter_/, "", $3); print $1, $3 }' "$BATS_TEST_TMPDIR/stat"
}

# The difference in EVENT's count between LOOPS2 and LOOPS1 loops of ARGS.
more_calls() {
	local event=$1 l1=$2 l2=$3; shift 3
	echo $(($(syscalls "syscalls:sys_enter_$event" "$@" --loops "$l2" | cut -d' ' -f1) -
		$(syscalls "syscalls:sys_enter_$event" "$@" --loops "$l1" | cut -d' ' -f1)))
}

@test "the kernel counts each test's own calls: brk1's brks, mmap1's and malloc1's munmaps, tlb_flush2's madvises" {
	command -v perf >/dev/null || skip "no perf"
	perf stat -e syscalls:sys_enter_brk true >/dev/null 2>&1 || skip "perf cannot count syscall tracepoints here"
	# every task's loops: two brk calls a loop, one munmap, 256 madvises
	[ "$(more_calls brk 100 600 --test brk1 --tasks 2)" -eq $((2 * 500 * 2)) ]
	[ "$(more_calls munmap 100 300 --test mmap1 --tasks 2)" -eq $((200 * 2)) ]
	[ "$(more_calls mmap 100 300 --test mmap1 --tasks 2)" -eq $((200 * 2)) ]
	# glibc serves 128 MiB with mmap and munmap: malloc1 is not optimised away
	[ "$(more_calls munmap 100 300 --test malloc1 --tasks 2)" -eq $((200 * 2)) ]
	[ "$(more_calls madvise 1 3 --test tlb_flush2 --tasks 2)" -eq $((2 * 256 * 2)) ]
}

@test "tlb_flush2 faults each page in twice: the write, and the read after MADV_DONTNEED" {
	run --separate-stderr "$B" --test tlb_flush2 --loops 10
	[ "$status" -eq 0 ]
	echo "minor_faults $(metric minor_faults)"
	[ "$(metric minor_faults)" -ge $((2 * 256 * 10)) ]
	[ "$(metric minor_faults)" -le $((2 * 256 * 10 + 8)) ]
}

# Each child of PID, or each thread but the first, one per line.
tasks_of() {
	if [ "$2" = thread ]; then
		ls "/proc/$1/task" | grep -vx "$1"
	else
		tr ' ' '\n' <"/proc/$1/task/$1/children" | grep .
	fi
}

@test "tasks exist before the region and after it, each bound to its CPU; the bench runs without ASLR" {
	local mode pids t i allowed n
	allowed=$(cpus_of "$(taskset -pc $$ | sed 's/.*: //')")
	n=$(wc -l <<<"$allowed")
	for mode in process thread; do
		trigger_start "$B" --test brk1 --tasks 3 --mode "$mode" --loops 100
		[[ $TRIG_STATE == "ready $TRIG_PID" ]]
		[ "$(cat "/proc/$TRIG_PID/personality")" = 00040000 ]
		pids=$(tasks_of "$TRIG_PID" "$mode" | sort -n)
		[ "$(wc -l <<<"$pids")" -eq 3 ]
		# task i, made i-th, on the i-th allowed CPU, round the allowed set
		i=0
		for t in $pids; do
			[ "$(taskset -pc "$t" | sed 's/.*: //')" = "$(sed -n "$((i % n + 1))p" <<<"$allowed")" ]
			i=$((i + 1))
		done
		trigger_region
		# the region is over and no task has ended: their ends come after it
		[ "$(tasks_of "$TRIG_PID" "$mode" | sort -n)" = "$pids" ]
		trigger_finish
		grep -q "^per_${mode}_ops	" <<<"$TRIG_OUT"
	done
}

# The ns task PID has run on a CPU, from /proc/PID/schedstat.
cpu_ns() { read -r ns _ <"/proc/$1/schedstat" && echo "$ns"; }

@test "the region holds every task's work: no task ran longer in it than its elapsed" {
	[ -r /proc/self/schedstat ] || skip "no /proc/PID/schedstat in this kernel"
	local t before=() after=()
	trigger_start "$B" --test brk1 --tasks 2 --loops 20000
	pids=$(tasks_of "$TRIG_PID" process)
	for t in $pids; do wait_asleep "$t"; before+=("$(cpu_ns "$t")"); done
	trigger_region
	# done: each task waits, asleep, until the teardown
	for t in $pids; do wait_asleep "$t"; after+=("$(cpu_ns "$t")"); done
	trigger_finish
	output=$TRIG_OUT
	echo "elapsed $(metric elapsed) s; tasks on a CPU $((after[0] - before[0])) and $((after[1] - before[1])) ns"
	# All of a task's time from its release to its wait is in the region
	# but its getrusage and its count of the done (a few us).
	for t in 0 1; do
		awk -v e="$(metric elapsed)" -v c=$((after[t] - before[t])) \
			'BEGIN { exit !(c > 1e6 && c <= e * 1e9 + 200000) }'
	done
}

@test "TASKS=50% and 100% are shares of the CPUs the bench may run on" {
	local n
	n=$(nproc)
	run --separate-stderr "$B" --tasks 100% --check
	[ "$(sed -n '/^--tasks$/{n;p}' <<<"$output")" -eq "$n" ]
	run --separate-stderr "$B" --tasks 50% --check
	[ "$(sed -n '/^--tasks$/{n;p}' <<<"$output")" -eq $((n / 2 > 0 ? n / 2 : 1)) ]
	# one CPU, as in a guest: 50% is one task, not none
	run --separate-stderr taskset -c 0 "$B" --tasks 50% --check
	[ "$(sed -n '/^--tasks$/{n;p}' <<<"$output")" -eq 1 ]
}

@test "bad tasks, loops, tests and directories are refused in one line, and a failing task is named" {
	for args in "--tasks 0" "--tasks 4097" "--tasks 0%" "--tasks two" "--loops 0" "--test page_fault9" \
		"--mode fork" "--test mmap2 --dir /nonexistent" "--test page_fault2 --tasks 4096" \
		"--test malloc1 --mode thread"; do
		# shellcheck disable=SC2086  # word splitting intended
		run --separate-stderr "$B" $args
		assert_one_line_error
		[ "$status" -eq 2 ]
	done
	[[ $stderr == "willitscale: --mode thread: malloc1 runs as processes only, as the kernel test robot runs it" ]]
	run --separate-stderr "$B" --test page_fault2 --dir /proc --tasks 2
	[ "$status" -eq 2 ]
	[[ ${stderr_lines[-1]} == "willitscale: task 0: creating a file in /proc failed: "* ]]
}

@test "run.sh refuses malloc1 as threads, and 0 or 4097 tasks, in one line and with no run directory" {
	local set
	for set in MODE=thread TASKS=0 TASKS=4097; do
		run --separate-stderr "$ROOT/run.sh" -n bad -o "$RES" --set "$set" will-it-scale-malloc1
		[ "$status" -ne 0 ]
		[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$stderr"; false; }
		[ ! -e "$RES/bad" ] && [ ! -e "$RES/.bad.partial" ]
	done
	[[ $stderr == *"--tasks 4097: at most 4096"* ]]
}
