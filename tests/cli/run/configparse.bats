#!/usr/bin/env bats
# What a config file's lines mean: trailing comments, sweeps, values a key
# cannot take (named by file and line), and the bench's default monitors.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	CFG=$RES/in/cfg
	mkdir "$RES/in"
}

teardown() {
	common_teardown
}

# dry_run LINES...: the config BENCH=timedmunlock plus LINES, through
# run.sh --dry-run; the results root must stay empty either way.
dry_run() {
	printf '%s\n' BENCH=timedmunlock "$@" >"$CFG"
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/out" "$CFG"
	[ ! -e "$RES/out" ]
}

@test "a # comment after a value ends it; a # inside a word is kept" {
	dry_run 'SIZE=8M   # small, for a quick look' 'DESCRIPTION=bug#12 and a blank  # the comment'
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ $output == *$'\nSIZE=8M\n'* ]]
	[[ $output == *$'\nDESCRIPTION=bug#12 and a blank\n'* ]]
}

@test "DESCRIPTION may hold blanks; it is never a sweep" {
	dry_run 'DESCRIPTION=the thread'"'"'s first set' 'SIZE=8M 16M'
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ $output == *$'\nDESCRIPTION=the thread\'s first set\n'* ]]
}

@test "a swept value listed twice is refused at its line" {
	dry_run '# one point twice' 'SIZE=64M 1G 64M'
	assert_one_line_error
	[ "$stderr" = "mmdelta: $CFG:3: SIZE=64M 1G 64M: lists 64M twice; each swept value is run once" ]
}

@test "THP=Never and CPU=5 name the file and line" {
	dry_run 'SIZE=8M' 'THP=Never'
	assert_one_line_error
	[ "$stderr" = "mmdelta: $CFG:3: THP=Never: must be one of never always madvise default" ]
	local cpus
	cpus=$(nproc --all)
	dry_run 'SIZE=8M' "CPU=$cpus"
	assert_one_line_error
	[ "$stderr" = "mmdelta: $CFG:3: CPU=$cpus: this machine has no CPU $cpus" ]
	dry_run 'NUMA=far'
	assert_one_line_error
	[ "$stderr" = "mmdelta: $CFG:2: NUMA=far: must be one of none local interleave" ]
}

@test "a value the bench refuses is named at its line" {
	dry_run 'SIZE=8M' 'LOCK=sometimes'
	assert_one_line_error
	[ "$stderr" = "mmdelta: $CFG:3: --lock sometimes: must be one of map_locked|mlock" ]
}

@test "a config without MONITORS gets its bench's monitors; none turns them off" {
	dry_run 'SIZE=8M'
	[ "$status" -eq 0 ]
	[[ $output == *$'\nMONITORS=vmstat\n'* ]]
	[ "$("$ROOT/build/bin/timedmunlock" --default-monitors)" = vmstat ]
	printf '%s\n' BENCH=heaprelease >"$CFG"
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/out" "$CFG"
	[[ $output == *$'\nMONITORS=perfstat\n'* ]]
	dry_run 'SIZE=8M' 'MONITORS=none'
	[[ $output == *$'\nMONITORS=none\n'* ]]
}

@test "a config without MONITORS runs its bench's monitors" {
	printf '%s\n' BENCH=timedmunlock SIZE=8M WARMUP=0 ITERATIONS=1 >"$CFG"
	run --separate-stderr "$ROOT/run.sh" -n m -o "$RES/out" "$CFG"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	grep -q '^vmstat_unevictable_pgs_munlocked	' "$RES/out/m/timedmunlock/metrics.tsv"
	ls "$RES/out/m/timedmunlock/monitors/" | grep -q '^vmstat\.'
}

@test "mmconfig: a key twice in the file is refused at its second line; a --set replaces, never duplicates" {
	local mm=$ROOT/build/bin/mmconfig
	printf 'BENCH=timedmunlock\nSIZE=4M\nTHP=never\nSIZE=8M\n' >"$CFG"
	run --separate-stderr "$mm" --keys BENCH,SIZE,THP "$CFG"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$CFG:4: SIZE given twice" ]
	[ -z "$output" ]
	# once in the file, then twice by --set: the last --set wins, in the
	# file's key order, with where it came from
	printf 'BENCH=timedmunlock\nSIZE=4M\nTHP=never\n' >"$CFG"
	run --separate-stderr "$mm" --keys BENCH,SIZE,THP --set SIZE=8M --set SIZE=16M "$CFG"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'BENCH\ttimedmunlock\tfile\t1\nSIZE\t16M\tset\t0\nTHP\tnever\tfile\t3')" ]
}
