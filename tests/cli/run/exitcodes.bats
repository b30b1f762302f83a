#!/usr/bin/env bats
# The exit status of every front door (docs/errors.md, "Exit codes"): 0
# complete or a gate passed, 1 REGRESSION, 3 inconclusive, 2 bad input or a
# run that could not complete, 128+N a signal.  A CI job must never take a
# typo, a failed bench, a helper's death or a crash for a verdict.  The
# verdicts themselves are tested where they are made: seqgate.bats (run.sh),
# compare_gate.bats, history.bats, bisect.bats and series.bats.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	export MMDELTA_STATE=$RES/state  # a machine lock of this test's own
	mkdir "$MMDELTA_STATE"
}
teardown() { common_teardown; }

# status_of RC [VERDICT]: what drivers/core/exit.sh leaves with when RC ended
# the script, after exit_verdict VERDICT or none.
status_of() {
	bash -c 'source "$1/drivers/core/exit.sh"; EXIT_VERDICT=$3; exit_status "$2"' _ "$ROOT" "$1" "${2:-}"
}

@test "the mapping: a verdict only when declared, a signal only when sent to stop, anything else 2" {
	[ "$(status_of 0)" = 0 ]
	[ "$(status_of 1 1)" = 1 ] && [ "$(status_of 3 3)" = 3 ]
	# a 1 or 3 nobody declared: a `|| exit 1`, a set -e death, a helper's status
	[ "$(status_of 1)" = 2 ] && [ "$(status_of 3)" = 2 ] && [ "$(status_of 3 1)" = 2 ]
	[ "$(status_of 2)" = 2 ] && [ "$(status_of 127)" = 2 ] && [ "$(status_of 125)" = 2 ]
	# Ctrl-C, SIGTERM, SIGHUP, a closed pipe: interrupted
	[ "$(status_of 130)" = 130 ] && [ "$(status_of 143)" = 143 ]
	[ "$(status_of 129)" = 129 ] && [ "$(status_of 141)" = 141 ]
	# a crash (SIGSEGV, SIGABRT, SIGBUS) or SIGKILL (the OOM killer): could not complete
	[ "$(status_of 139)" = 2 ] && [ "$(status_of 134)" = 2 ] && [ "$(status_of 135)" = 2 ] && [ "$(status_of 137)" = 2 ]
	[ "$(status_of 255)" = 2 ]
}

@test "run.sh: a typo in --gate is 2, never the REGRESSION's 1" {
	run --separate-stderr "$ROOT/run.sh" -o "$RES" --baseline base --gate timedmunlock -i auto timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --gate timedmunlock: expected a percentage, such as 5" ]
}

@test "run.sh: a bench that fails is 2, the run left partial" {
	# an address space too small for the bench's 1G: its mmap fails
	run --separate-stderr bash -c 'ulimit -v 400000; exec "$@"' _ "$ROOT/run.sh" -o "$RES" -n f -i 1 \
		--monitors none --set SIZE=1G --set WARMUP=0 timedmunlock
	[ "$status" -eq 2 ]
	[[ $stderr == *"mmdelta: timedmunlock: bench failed in iteration 1: timedmunlock: mmap of 1073741824 bytes failed"* ]]
	[[ $stderr == *$'\nmmdelta: failed: timedmunlock\n'* ]]
	grep -qx 'status: failed' "$RES/.f.partial/meta"
}

@test "run.sh: a helper that fails under set -e is 2, not its own status" {
	# flock failing where run.sh takes the machine lock: a set -e death
	mkdir "$RES/bin"
	printf '#!/bin/sh\nexit 1\n' >"$RES/bin/flock"
	chmod +x "$RES/bin/flock"
	run --separate-stderr env PATH="$RES/bin:$PATH" "$ROOT/run.sh" -o "$RES" -n h -i 1 --set SIZE=4M timedmunlock
	[ "$status" -eq 2 ]
	[[ $stderr == *"waiting for another run.sh on this machine to finish"* ]]
	[ ! -e "$RES/h" ]
}

# A tree laid out as make install lays it out (no Makefile: nothing is
# built), whose TOOL is a stand-in that crashes with SIGSEGV.
crashing_tree() {
	local t=$RES/tree
	mkdir -p "$t/bin"
	cp "$ROOT"/*.sh "$t/"
	cp -R "$ROOT/drivers" "$ROOT/libexec" "$ROOT/reports" "$t/"
	printf '#!/bin/sh\nkill -SEGV $$\n' >"$t/bin/$1"
	chmod +x "$t/bin/$1"
}

@test "compare.sh: mmstat that crashes is 2, not the signal's 139" {
	crashing_tree mmstat
	run --separate-stderr "$RES/tree/compare.sh" -o "$ROOT/tests/fixtures/compare" 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 2 ]
	[[ $stderr == *"Segmentation fault"* ]]
	run --separate-stderr "$RES/tree/compare.sh" -o "$ROOT/tests/fixtures/compare" --gate 5 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 2 ]
}

@test "history.sh: mmhistory that crashes is 2, in changes --gate too" {
	crashing_tree mmhistory
	mkdir "$RES/r"
	run --separate-stderr "$RES/tree/history.sh" -o "$RES/r" ingest
	[ "$status" -eq 2 ]
	run --separate-stderr "$RES/tree/history.sh" -o "$RES/r" changes --gate 5
	[ "$status" -eq 2 ]
	[[ $stderr == *"Segmentation fault"* ]]
}

@test "bisect.sh's step script: a failure of its own aborts git bisect (128), never calls the commit bad (1)" {
	# git bisect run reads 1-127 but 125 as "bad": a set -e death there
	# would name a wrong culprit.  A step whose bisection files are missing:
	mkdir "$RES/work"
	printf '%s\0' timedmunlock a b >"$RES/work/argv"
	run --separate-stderr "$ROOT/bisect.sh" --step "$RES/work"
	[ "$status" -eq 128 ]
	[[ $stderr == *"$RES/work/bench: No such file or directory"* ]]
}
