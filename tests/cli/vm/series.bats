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
# The run of commit cI: base-HASH, then I-HASH.
series_run() { if [ "$1" = 0 ]; then echo "base-$(h c0)"; else echo "$1-$(h "c$1")"; fi; }
# The steps of the series in DIR as JSON objects, one a line.
steps_json() {
	jq -R -c '("role run image release commit verdict mean half n iterations booted seconds build_seconds note round kept" | split(" ")) as $k
		| [$k, split("\t")] | transpose | map({key: .[0], value: (.[1] | if . == "-" then null else . end)}) | from_entries' <"$1/.bisect/steps.tsv"
}

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

@test "the images a bisection of the tree built are booted again, not rebuilt; a new .config or build command rebuilds" {
	tree 10 10 12
	# the builds, counted: one line each in builds
	BUILD="echo >>$RES/builds; $BISECT_TREE_BUILD"
	tbisect c0 c2
	[ "$status" -eq 0 ] && [ "$(wc -l <"$RES/builds")" = 3 ]
	series timedmunlock c0 c2
	[ "$status" -eq 0 ] && [ "$(wc -l <"$RES/builds")" = 3 ]
	local out=$RES/out/series-timedmunlock b=$RES/out/bisect-timedmunlock i
	# each commit's image is the bisection's, said in the log and in steps
	for i in 0 1 2; do
		[ "$out/images/$(series_run "$i").bzImage" -ef "$b/images/$(sha "c$i" | cut -c1-12).bzImage" ]
		grep -qx "mmdelta: series: $(series_run "$i"): not built again: bisect-timedmunlock built this commit with the same .config and build command" <<<"$stderr"
	done
	[ "$(jq -r 'select(.kept != null) | .kept' < <(steps_json "$out") | sort -u)" = bisect-timedmunlock ]
	# the table as from builds of its own
	TXT | grep -Eq '^Elapsed mean +10\.00 \(  0\.00%\) +10\.00 \(  0\.00%\) +12\.00 \*-20\.00%\*$'
	# another .config (not tracked: the tree stays clean), then another
	# build command: every commit built again
	echo CONFIG_FAKE=y >"$RES/tree/.config"
	series -n series-config timedmunlock c0 c2
	[ "$status" -eq 0 ] && [ "$(wc -l <"$RES/builds")" = 6 ]
	BUILD="echo >>$RES/builds; true; $BISECT_TREE_BUILD"
	series -n series-build timedmunlock c0 c2
	[ "$status" -eq 0 ] && [ "$(wc -l <"$RES/builds")" = 9 ]
	run ! grep -q 'not built again' <<<"$stderr"
	tree_untouched
}

@test "a build's progress: its time, the .o files built so far and make's last line; a line to a log, one line rewritten on a terminal" {
	tree 10 12
	# three objects, a second apart; a report every second
	BUILD="for i in 1 2 3; do touch o\$i.o; echo \"  CC      o\$i.o\"; sleep 1; done; $BISECT_TREE_BUILD"
	MMDELTA_BUILD_PROGRESS_SECONDS=1 series timedmunlock c0 c1
	[ "$status" -eq 0 ]
	local base
	base=$(series_run 0)
	grep -Eq "^mmdelta: series: building $base: [0-9]+ s, [0-3] \.o files; make: CC o[1-3]\.o\$" <<<"$stderr"
	grep -Eqx "mmdelta: series: built $base in [0-9]+ s, 3 \.o files" <<<"$stderr"
	# the whole output is kept
	[ "$(grep -c '^  CC      o[1-3]\.o$' "$RES/out/series-timedmunlock/.bisect/build-$base.log")" = 3 ]
	# on a terminal: one line, rewritten in place (a carriage return and
	# clear-to-end-of-line before each report), not a line each
	rm -rf "$RES/out"
	script -qec "MMDELTA_BUILD_PROGRESS_SECONDS=1 $(printf '%q ' "$ROOT/series.sh" -o "$RES/out" --tree "$RES/tree" \
		--build "$BUILD" --image bzImage timedmunlock c0 c1) >/dev/null" /dev/null >"$RES/tty"
	grep -q "$(printf '\r\033\\[K')mmdelta: series: building $base: " "$RES/tty"
	run ! grep -Eq "^mmdelta: series: building $base: " "$RES/tty"
	tree_untouched
}

@test "--dry-run: the commits, what each builds and boots, the time from earlier runs; nothing touched, refusals as the run's" {
	tree 10 11 12
	# earlier runs: three boots of 40, 50, 60 s; a series of the tree whose
	# builds took 100 and 300 s
	earlier_boots 40 50 60
	earlier_builds 100 300
	local before
	before=$(results_digest)
	series --dry-run timedmunlock c0 c2
	[ "$status" -eq 0 ]
	grep -Eqx "$(series_run 0) +BASE +build +c0" <<<"$output"
	grep -Eqx "$(series_run 2) +TIP +build +c2" <<<"$output"
	# the median build 200 s, the median boot 50 s: 3 * 200 + 3 * 50 = 750 s
	grep -qx '# the series: about 12m30s (3 builds, 3 boots)' <<<"$output"
	[ "$(results_digest)" = "$before" ] && [ ! -s "$FAKE_CALLS" ] && [ ! -e "$RES/out/series-timedmunlock" ]
	tree_untouched
	# a refusal is the run's own line
	echo dirty >"$RES/tree/image"
	series --dry-run timedmunlock c0 c2
	local dry=$stderr
	assert_one_line_error
	series timedmunlock c0 c2
	[ "$status" -eq 2 ] && [ "$stderr" = "$dry" ] && [[ $dry == *"has uncommitted changes to tracked files"* ]]
	git -C "$RES/tree" checkout -q image
	# a commit whose image is kept is booted, not built
	series timedmunlock c0 c1
	[ "$status" -eq 0 ]
	series -n again --dry-run timedmunlock c0 c2
	grep -Eqx "$(series_run 1) +kept by series-timedmunlock +c1" <<<"$output"
	grep -Eqx "$(series_run 2) +TIP +build +c2" <<<"$output"
	grep -Eqx '# the series: about .* \(1 build, 3 boots\)' <<<"$output"
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
