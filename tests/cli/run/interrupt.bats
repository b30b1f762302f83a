#!/usr/bin/env bats
# SIGINT/SIGTERM to run.sh at each phase, and SIGKILL: settings restored, no
# process left, the run partial with status and phase, earlier runs intact.
# MMDELTA_STOP_AT makes run.sh stop itself on entering a phase, so the signal
# arrives at exactly that point.

bats_require_minimum_version 1.5.0
load ../helpers

THP=/sys/kernel/mm/transparent_hugepage

setup() {
	common_setup
	[ -w "$THP/enabled" ] || skip "THP is not switchable here"
	THP_BEFORE=$(cat "$THP/enabled" "$THP/defrag")
	# an earlier run that nothing may touch
	mkdir -p "$RES/earlier/timedmunlock"
	printf 'status: complete\n' >"$RES/earlier/meta"
	printf 'metric\tparam\titeration\tvalue\nelapsed\t-\t1\t1.5\n' >"$RES/earlier/timedmunlock/samples.tsv"
	EARLIER=$(results_digest)
}

teardown() {
	[ -z "${RUNPID:-}" ] || kill -KILL "$RUNPID" 2>/dev/null || true
	common_teardown
}

# All processes below PID, deepest last.
descendants() {
	local p
	for p in $(ps -o pid= --ppid "$1"); do echo "$p"; descendants "$p"; done
}

# Start run.sh stopped at the first phase matching PATTERN; RUNPID, KIDS.
start_stopped_at() {
	local pattern=$1 i state; shift
	# With job control on, as at a terminal: a plain background job starts
	# with SIGINT ignored, and bash cannot trap a signal ignored on entry.
	set -m
	MMDELTA_STOP_AT=$pattern "$ROOT/run.sh" -o "$RES" "$@" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	RUNPID=$!
	set +m
	for ((i = 0; i < 600; i++)); do
		state=$(awk '{ print $3 }' "/proc/$RUNPID/stat" 2>/dev/null) || break
		if [ "$state" = T ]; then KIDS=$(descendants "$RUNPID"); return 0; fi
		sleep 0.1
	done
	cat "$BATS_TEST_TMPDIR/err"
	return 1
}

# Deliver SIG to the stopped run.sh and wait for it; RC, and SENT the signal.
signal_and_wait() {
	SENT=$1
	kill -"$1" "$RUNPID"
	kill -CONT "$RUNPID"
	RC=0
	wait "$RUNPID" || RC=$?
	RUNPID=""
}

assert_nothing_left() {
	local p i
	[ "$(cat "$THP/enabled" "$THP/defrag")" = "$THP_BEFORE" ]
	for p in $KIDS; do
		for ((i = 0; i < 50; i++)); do kill -0 "$p" 2>/dev/null || continue 2; sleep 0.1; done
		echo "process $p left behind: $(cat "/proc/$p/cmdline" | tr '\0' ' ')"
		return 1
	done
	[ "$(results_digest | grep -c ' ./earlier/')" -eq 2 ]
	diff <(results_digest | grep ' ./earlier/') <(echo "$EARLIER")
	[ ! -s "${MMDELTA_STATE:-/run/mmdelta}/saved-settings" ]
}

assert_partial() {
	local status=$1 phase=$2
	[ ! -e "$RES/r" ]
	grep -qx "status: $status" "$RES/.r.partial/meta"
	grep -q "^phase: $phase\$" "$RES/.r.partial/meta"
	# 128 + the signal's number: interrupted, never a verdict or a failure's 2
	[ "$RC" -eq $((128 + $(kill -l "$SENT"))) ]
	grep -q "interrupted by SIG" "$BATS_TEST_TMPDIR/err"
}

@test "SIGTERM in the dependency check: no run directory, nothing changed" {
	start_stopped_at 'dependency check' -n r --set SIZE=8M timedmunlock
	signal_and_wait TERM
	[ "$RC" -eq 143 ]
	[ ! -e "$RES/r" ] && [ ! -e "$RES/.r.partial" ]
	assert_nothing_left
}

@test "SIGINT in set-up: partial, interrupted, phase set-up" {
	start_stopped_at set-up -n r --set SIZE=8M timedmunlock
	signal_and_wait INT
	assert_partial interrupted set-up
	# how to run it again, which would otherwise be refused
	grep -qxF "mmdelta: run left partial in $RES/.r.partial (status: interrupted, phase: set-up); to run it again, add --force, or remove $RES/.r.partial" "$BATS_TEST_TMPDIR/err"
	assert_nothing_left
}

@test "SIGTERM after THP was changed, in a bench's populate: THP restored, bench gone" {
	start_stopped_at '*populate' -n r --monitors vmstat --set SIZE=2G timedmunlock
	[ "$(cat "$THP/enabled")" = "always madvise [never]" ]
	[ -n "$KIDS" ]
	signal_and_wait TERM
	assert_partial interrupted 'timedmunlock iteration 0: set-up and populate'
	assert_nothing_left
}

@test "SIGINT in the timed region with perf monitors running: no perf, no bench left" {
	command -v perf >/dev/null || skip "no perf"
	start_stopped_at '*timed region*' -n r --monitors vmstat,perfstat,mmaplock --set SIZE=64M timedmunlock
	signal_and_wait INT
	assert_partial interrupted 'timedmunlock iteration 0: timed region, monitors running'
	assert_nothing_left
}

@test "SIGTERM in a counted iteration without monitors" {
	start_stopped_at 'timedmunlock iteration 2' -n r --monitors none --set SIZE=64M -i 3 timedmunlock
	signal_and_wait TERM
	assert_partial interrupted 'timedmunlock iteration 2'
	# the first iteration's samples are kept in the partial run
	[ "$(awk -F'\t' '$1 == "elapsed"' "$RES/.r.partial/timedmunlock/samples.tsv" | wc -l)" -eq 1 ]
	assert_nothing_left
}

@test "SIGTERM while writing results: the run stays partial" {
	start_stopped_at 'writing results' -n r --set SIZE=8M -i 1 timedmunlock
	signal_and_wait TERM
	assert_partial interrupted 'writing results'
	assert_nothing_left
}

@test "--force: an interrupted replacement leaves the old run in place" {
	mkdir -p "$RES/r"
	echo old >"$RES/r/marker"
	start_stopped_at '*iteration 1' -n r --force --set SIZE=8M timedmunlock
	signal_and_wait TERM
	[ "$(cat "$RES/r/marker")" = old ]
	grep -qx 'status: interrupted' "$RES/.r.partial/meta"
}

@test "after a SIGKILL the next run restores the settings, removes the fifos, marks the run killed" {
	start_stopped_at '*populate' -n r --monitors vmstat --set SIZE=256M timedmunlock
	fifo=$(awk '$1 == "fifo_dir:" { print $2 }' "$RES/.r.partial/meta")
	[ -d "$fifo" ]
	kill -KILL "$RUNPID"
	wait "$RUNPID" || true
	RUNPID=""
	[ "$(cat "$THP/enabled")" = "always madvise [never]" ]
	run --separate-stderr "$ROOT/run.sh" -o "$RES" -n next --set SIZE=8M -i 1 --set THP=default timedmunlock
	[ "$status" -eq 0 ]
	[[ $stderr == *"restoring settings left by a killed run (pid "* ]]
	[[ $stderr == *".r.partial: its run.sh (pid "*") was killed; status set to killed"* ]]
	[ ! -e "$fifo" ]
	grep -qx 'status: killed' "$RES/.r.partial/meta"
	assert_nothing_left
}

# The lock file as run.sh finds it.
lock_file() { if [ -n "${MMDELTA_STATE:-}" ]; then echo "$MMDELTA_STATE/lock"; else echo /run/lock/mmdelta.lock; fi; }

@test "after a SIGKILL mid-bench the bench holds no lock; the next run stops it at once" {
	printf 'BENCH=heaprelease\nPATTERN=mprotect\nTHREADS=1\nOPS=1000000000\nWARMUP=0\nITERATIONS=1\nMONITORS=none\n' >"$BATS_TEST_TMPDIR/long"
	set -m
	"$ROOT/run.sh" -o "$RES" -n r --ignore-load "$BATS_TEST_TMPDIR/long" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	RUNPID=$!
	set +m
	# the measuring bench, not the short-lived --check that resolves its
	# options (which may be gone before its cmdline is read)
	for ((i = 0; i < 300; i++)); do
		bench=$(pgrep -P "$RUNPID" -x heaprelease) && cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$bench/cmdline") &&
			[ -n "$cmd" ] && [[ $cmd != *" --check "* ]] && break
		bench=""
		sleep 0.1
	done
	[ -n "$bench" ]
	# the bench does not hold the machine lock's descriptor
	lock=$(readlink -f "$(lock_file)")
	for fd in /proc/"$bench"/fd/*; do [ "$(readlink "$fd")" != "$lock" ]; done
	kill -KILL "$RUNPID"
	wait "$RUNPID" || true
	RUNPID_KILLED=$RUNPID RUNPID=""
	kill -0 "$bench"
	# the next run neither waits for the orphan nor measures beside it
	run --separate-stderr timeout 120 "$ROOT/run.sh" -o "$RES" -n next --ignore-load --set SIZE=8M -i 1 --monitors none timedmunlock
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	# (another session's run.sh may hold the machine lock for a while: that is
	# a real wait, not the orphan's)
	[[ $stderr != *"waiting for another run.sh (pid $bench)"* ]]
	[[ $stderr != *"waiting for another run.sh (pid $RUNPID_KILLED)"* ]]
	[[ $stderr == *"stopped 1 process(es) left by a killed run.sh (pid $bench)"* ]]
	# the dead run.sh's pid is gone from /proc: no shell error about it
	[[ $stderr != *"No such file"* ]]
	run ! kill -0 "$bench" 2>/dev/null
	grep -qx 'status: killed' "$RES/.r.partial/meta"
}

@test "a partial run whose run.sh is alive is not offered for --force, and is kept" {
	start_stopped_at set-up -n r --set SIZE=8M timedmunlock
	run --separate-stderr timeout 60 "$ROOT/run.sh" -o "$RES" -n r --force --set SIZE=8M -i 1 timedmunlock
	assert_one_line_error
	[[ $stderr == *".r.partial is being written by a run.sh that is still running (pid $RUNPID)"* ]]
	[[ $stderr != *"--force"* ]]
	grep -qx 'status: running' "$RES/.r.partial/meta"
	signal_and_wait TERM
	assert_partial interrupted set-up
}

@test "SIGHUP in a counted iteration: partial, interrupted, the signal in meta" {
	start_stopped_at 'timedmunlock iteration 1' -n r --monitors none --set SIZE=8M -i 2 timedmunlock
	signal_and_wait HUP
	[ "$RC" -eq 129 ]
	assert_partial interrupted 'timedmunlock iteration 1'
	grep -qx 'signal: SIGHUP' "$RES/.r.partial/meta"
	assert_nothing_left
}

@test "SIGPIPE: run.sh 2>&1 | head -3 leaves the run partial with a final status" {
	KIDS=""
	"$ROOT/run.sh" -o "$RES" -n r --monitors none --set SIZE=8M -i 20 timedmunlock 2>&1 | head -3 >"$BATS_TEST_TMPDIR/out"
	[ "${PIPESTATUS[0]}" -eq 141 ]
	[ "$(wc -l <"$BATS_TEST_TMPDIR/out")" -eq 3 ]
	[ ! -e "$RES/r" ]
	grep -qx 'status: interrupted' "$RES/.r.partial/meta"
	grep -qx 'signal: SIGPIPE' "$RES/.r.partial/meta"
	grep -Eq '^phase: timedmunlock iteration [0-9]+$' "$RES/.r.partial/meta"
	assert_nothing_left
}
