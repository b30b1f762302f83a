#!/usr/bin/env bats
# --dry-run shows what will run: the exact command lines (the numactl prefix,
# the sizes as the bench's --check resolved them) and the time they should
# take, from the earlier runs in the results root.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	printf '%s\n' BENCH=timedmunlock SIZE=8M NUMA=local WARMUP=1 ITERATIONS=1 >"$RES/cfg"
}

teardown() {
	common_teardown
}

# The "command..." lines of a dry run's output.
commands() { grep '^command' <<<"$output"; }

@test "the command lines are the ones a run then writes, numactl and resolved bytes included" {
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/r" "$RES/cfg"
	[ "$status" -eq 0 ]
	[ "$(commands)" = "command: numactl --membind=0 --cpunodebind=0 bench/timedmunlock --size 8388608 --lock map_locked --madvise none --cap-size" ]
	[ ! -e "$RES/r" ]
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/r" "$RES/cfg"
	local dry
	dry=$(commands)
	run --separate-stderr "$ROOT/run.sh" -n real -o "$RES/r" "$RES/cfg"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(grep '^command' "$RES/r/real/timedmunlock/config")" = "$dry" ]
}

@test "a config's size over the machine is shown capped, in bytes, with the bench's note" {
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/r" --set timedmunlock.NUMA=none timedmunlock
	[ "$status" -eq 0 ]
	local bytes total
	bytes=$(commands | sed -n 's/^command: bench\/timedmunlock --size \([0-9]*\) .*--cap-size$/\1/p')
	total=$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)
	[ -n "$bytes" ] && [ "$bytes" -lt "$total" ]
	[[ $output == *$'\n# timedmunlock: --size capped from 56.0G to '* ]]
}

@test "the expected time comes from the earlier run of the config, scaled by size" {
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/r" "$RES/cfg"
	[[ $output == *"# 2 processes (1 warm-up + 1); no earlier run of timedmunlock in $RES/r to take the time from"* ]]
	run --separate-stderr "$ROOT/run.sh" -n first -o "$RES/r" "$RES/cfg"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	local took
	took=$(sed -n 's/^wall: \([0-9.]*\) s, 2 processes$/\1/p' "$RES/r/first/timedmunlock/config")
	[ -n "$took" ]
	# 8M may take under the 0.1 s a dry run scales from (the next test):
	# the arithmetic, from a recorded time long enough to scale
	took=2.40
	sed -i "s/^wall: [0-9.]* s, 2 processes$/wall: $took s, 2 processes/" "$RES/r/first/timedmunlock/config"
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/r" "$RES/cfg"
	[[ $output == *"# 2 processes (1 warm-up + 1); about $(printf '%.0f' "$took") s: run 'first' took $took s for 2 processes"$'\n'* ]]
	# twice the size and three iterations: 4 processes of 16M, 4 times the time
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/r" --set SIZE=16M -i 3 "$RES/cfg"
	[[ $output == *"# 4 processes (1 warm-up + 3); about $(awk -v t="$took" 'BEGIN { printf "%.0f", t * 4 }') s: run 'first' took $took s for 2 processes at --size 8388608, scaled by size to 16777216"* ]]
	[[ $output == *$'\n# in all: 4 bench processes, about '* ]]
}

@test "a point recorded under 0.1 s is no basis to scale from; the basis is shown as recorded" {
	run --separate-stderr "$ROOT/run.sh" -n first -o "$RES/r" "$RES/cfg"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	sed -i 's/^wall: .*/wall: 0.0 s, 2 processes/' "$RES/r/first/timedmunlock/config"
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/r" --set SIZE=16M -i 3 "$RES/cfg"
	[ "$status" -eq 0 ]
	[[ $output == *"# 4 processes (1 warm-up + 3); no estimate: run 'first' took under 0.1 s for 2 processes, too little to scale from"$'\n'* ]]
	[[ $output == *$'\n# in all: 4 bench processes; 1 sweep point(s) without an estimate (above)' ]]
	[[ $output != *"scaled by size"* ]]
	sed -i 's/^wall: .*/wall: 0.3 s, 2 processes/' "$RES/r/first/timedmunlock/config"
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/r" --set SIZE=16M -i 3 "$RES/cfg"
	# 0.3 s / 2 * 4 * 2 = 1.2 s
	[[ $output == *"# 4 processes (1 warm-up + 3); about 1 s: run 'first' took 0.3 s for 2 processes at --size 8388608, scaled by size to 16777216"* ]]
}

# dry_like_run ARGS...: run.sh ARGS refuses before it starts, and so does
# --dry-run ARGS: the same line on stderr, exit 2, nothing on stdout.
dry_like_run() {
	local want
	run --separate-stderr "$ROOT/run.sh" -o "$RES/r" "$@"
	assert_one_line_error
	want=$stderr
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/r" "$@"
	assert_one_line_error
	[ "$stderr" = "$want" ] || { printf 'dry run: %s\nrun:     %s\n' "$stderr" "$want"; return 1; }
}

@test "a name the run refuses, the dry run refuses: taken, or an unfinished run of it in the way" {
	run --separate-stderr "$ROOT/run.sh" -n first -o "$RES/r" "$RES/cfg"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	dry_like_run -n first "$RES/cfg"
	[[ $stderr == "mmdelta: run 'first' already exists in $RES/r (use --force"* ]]
	mkdir "$RES/r/.left.partial"
	printf 'status: interrupted\n' >"$RES/r/.left.partial/meta"
	dry_like_run -n left "$RES/cfg"
	[ "$stderr" = "mmdelta: $RES/r/.left.partial is left from an unfinished run (status: interrupted); remove it or use --force" ]
	# --force: both go ahead, the dry run printing the commands
	run --separate-stderr "$ROOT/run.sh" --dry-run --force -o "$RES/r" -n first "$RES/cfg"
	[ "$status" -eq 0 ]
	[[ $output == *$'\n# in all: 2 bench processes'* ]]
}
