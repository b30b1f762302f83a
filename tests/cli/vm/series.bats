#!/usr/bin/env bats
# series.sh on a throwaway tree (bisect_tree.bash: each commit's "build"
# copies a fake image) and the stand-in for run.sh --kernel: every commit
# measured once, the table with one column per commit (base, 1 ... N), a
# commit that does not build and one that does not boot keeping columns
# that say so, the subjects under the table, the tree left as found, Ctrl-C,
# and bad input.

bats_require_minimum_version 1.5.0
load ../helpers
load bisect_tree
load bisect_setup

series() { run --separate-stderr "$ROOT/series.sh" -o "$RES/out" --tree "$RES/tree" --build "$BUILD" --image bzImage "$@"; }
TXT() { cat "$RES/out/series-timedmunlock/series.txt"; }
h() { sha "$1" | cut -c1-7; }

@test "every commit a column: base, then 1 ... N; no build and no boot say so; subjects listed; exit 2" {
	tree 10 10 12 fail noboot 11
	series timedmunlock c0 c5
	[ "$status" -eq 2 ]
	# Each commit built and measured once, in order, by position and short hash.
	[ "$(cut -d' ' -f1 "$FAKE_CALLS" | tr '\n' ' ')" = "base-$(h c0) 1-$(h c1) 2-$(h c2) 4-$(h c4) 5-$(h c5) " ]
	local out=$RES/out/series-timedmunlock
	[ -d "$out/base-$(h c0)" ] && [ -d "$out/5-$(h c5)" ] && [ -f "$out/images/2-$(h c2).bzImage" ]
	# The header: positions over hashes; the failed columns say why.
	TXT | grep -Eq '^Elapsed \[s\] +base +1 +2 +3 +4 +5$'
	TXT | grep -Eq "^ +$(h c0) +$(h c1) +$(h c2) +$(h c3) \(no build\) +$(h c4) \(no boot\) +$(h c5)\$"
	# 12 against 10 is +20% (worse: -20.00%), 11 is -10%; no figure where none ran.
	TXT | grep -Eq '^Elapsed mean +10\.00 \(  0\.00%\) +10\.00 \(  0\.00%\) +12\.00 \*-20\.00%\* +- +- +11\.00 \*-10\.00%\*$'
	# Under the table, one line per column: position, hash, subject, why not.
	TXT | grep -qx "base  $(h c0) c0"
	TXT | grep -qx "2     $(h c2) c2"
	TXT | grep -q "^3     $(h c3) c3  \[build failed (log in "
	TXT | grep -qx "4     $(h c4) c4  \[the guest kernel panicked: Kernel panic - not syncing: fake\]"
	[ "${stderr_lines[-1]}" = "mmdelta: series: did not run: 3-$(h c3) 4-$(h c4); table in $out/series.txt" ]
	# stdout is the table and the list, as written.
	[ "$output" = "$(TXT)" ]
	tree_untouched
}

@test "every commit runs: exit 0; the base must run" {
	tree 10 11 12
	series timedmunlock c0 c2
	[ "$status" -eq 0 ]
	TXT | grep -Eq '^Elapsed mean +10\.00 \(  0\.00%\) +11\.00 \*-10\.00%\* +12\.00 \*-20\.00%\*$'
	rm -rf "$RES/out" "$RES/tree"
	tree fail 11 12
	series timedmunlock c0 c2
	[ "$status" -eq 2 ]
	[[ ${stderr_lines[-1]} == "mmdelta: the base (c0) cannot be measured: build failed (log in "* ]]
	tree_untouched
}

@test "Ctrl-C during a commit's run: stopped, exit 130, the tree back on its branch" {
	tree 10 sleep 12
	env --default-signal=INT "$ROOT/series.sh" -o "$RES/out" --tree "$RES/tree" --build "$BUILD" --image bzImage \
		timedmunlock c0 c2 2>"$RES/err" &
	local pid=$! i rc=0
	for i in $(seq 600); do [ -s "$FAKE_CALLS.pid" ] && break; sleep 0.1; done
	[ -s "$FAKE_CALLS.pid" ]
	[ -s "$FAKE_CALLS.pid" ]
	kill -INT "$pid"
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ]
	grep -q '^mmdelta: series: interrupted by SIGINT$' "$RES/err"
	run ! kill -0 "$(cat "$FAKE_CALLS.pid")"
	tree_untouched
}

@test "bad input: no tree, TIP not after BASE, no such commit, a dirty tree; one line, exit 2, nothing written" {
	tree 10 11 12
	run --separate-stderr "$ROOT/series.sh" -o "$RES/out" timedmunlock c0 c2
	assert_one_line_error
	[ "$status" -eq 2 ] && [[ $stderr == *"--tree DIR is needed"* ]]
	series timedmunlock c2 c0
	assert_one_line_error
	[ "$stderr" = "mmdelta: TIP c0 is not a descendant of BASE c2: give BASE the older commit" ]
	series timedmunlock c0 nope
	assert_one_line_error
	[[ $stderr == *"TIP 'nope' is not a commit" ]]
	echo dirty >"$RES/tree/image"
	series timedmunlock c0 c2
	assert_one_line_error
	[[ $stderr == *"has uncommitted changes to tracked files"* ]]
	git -C "$RES/tree" checkout -q image
	series timedmunlok c0 c2
	assert_one_line_error
	[[ $stderr == "mmdelta: unknown bench or config 'timedmunlok' (did you mean timedmunlock? configs: "* ]]
	# an option where a value belongs is not taken for it
	run --separate-stderr "$ROOT/series.sh" -o "$RES/out" --tree --build x timedmunlock c0 c2
	assert_one_line_error
	[ "$status" -eq 2 ] && [ "$stderr" = "mmdelta: --tree --build: expected a value" ]
	[ ! -e "$RES/out" ] && [ ! -s "$FAKE_CALLS" ]
	tree_untouched
}
