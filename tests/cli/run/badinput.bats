#!/usr/bin/env bats
# Every input a user can get wrong gets a one-line error
# naming the problem, a non-zero exit, and nothing written.  One test per
# row of docs/errors.md ("Bad input and what it gets"); the rows that
# run.bats, memory.bats and compare_errors.bats already test are only
# referenced there.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	IN=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-in.XXXXXX")
	mkdir -p "$RES/keep/timedmunlock"
	echo "status: complete" >"$RES/keep/meta"
	echo precious >"$RES/keep/timedmunlock/samples.tsv"
	BEFORE=$(results_digest)
}
teardown() {
	if mountpoint -q "$IN/ro"; then umount "$IN/ro"; fi
	rm -rf "$IN"
	common_teardown
}

says() { [[ $stderr == *"$1"* ]] || { printf 'stderr: %s\nwanted: *%s*\n' "$stderr" "$1"; return 1; }; }

# The results root holds what it held, and no partial run was started.
nothing_written() {
	[ "$(results_digest)" = "$BEFORE" ]
	[ -z "$(find "$RES" -mindepth 1 -maxdepth 1 -name '.*')" ]
}

# run_refuses MESSAGE RUN.SH-ARGS...: refused in one line that says MESSAGE.
run_refuses() {
	local want=$1
	shift
	run --separate-stderr "$ROOT/run.sh" -o "$RES" "$@"
	assert_one_line_error
	says "$want"
	nothing_written
}

# config_refuses MESSAGE CONTENT: a config file of CONTENT (printf %b) is refused.
config_refuses() {
	printf '%b' "$2" >"$IN/cfg"
	run_refuses "$1" -n c "$IN/cfg"
}

# bench_refuses MESSAGE BENCH ARGS...: the bench binary itself refuses, exit 2.
bench_refuses() {
	local want=$1 bench=$2
	shift 2
	[ -x "$ROOT/build/bin/$bench" ] || make -s -C "$ROOT" "build/bin/$bench"
	run --separate-stderr "$ROOT/build/bin/$bench" "$@"
	assert_one_line_error
	[ "$status" -eq 2 ]
	says "$want"
}

# compare_refuses MESSAGE ARGS...: compare.sh on copies of the fixtures, run
# in an empty directory, exits 2 in one line and writes nothing anywhere.
compare_refuses() {
	local want=$1 runs_before
	shift
	runs_before=$(cd "$IN/runs" && find . -type f -print0 | sort -z | xargs -0r sha256sum)
	mkdir -p "$IN/cwd"
	cd "$IN/cwd"
	run --separate-stderr "$ROOT/compare.sh" -o "$IN/runs" "$@"
	assert_one_line_error
	[ "$status" -eq 2 ]
	says "$want"
	[ -z "$(ls -A "$IN/cwd")" ]
	[ "$(cd "$IN/runs" && find . -type f -print0 | sort -z | xargs -0r sha256sum)" = "$runs_before" ]
}
runs() {
	mkdir -p "$IN/runs"
	cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-0" "$IN/runs/base"
	cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-1" "$IN/runs/new"
}

# An image qemu would take for a bzImage ("HdrS" at 0x202) whose header
# points at no version string.
fake_bzimage() { head -c 4096 /dev/zero >"$1" && printf HdrS | dd of="$1" bs=1 seek=514 conv=notrunc 2>/dev/null; }

# --- run.sh options ---

@test "run.sh: no bench or config" {
	run_refuses "nothing to run: name a bench or config"
}

@test "run.sh: -c without a config" {
	run_refuses "-c needs a config" -c
}

@test "run.sh: an option whose value is missing does not take the next word" {
	run_refuses "mmdelta: --gate timedmunlock: expected a percentage, such as 5" --baseline keep -i auto --gate timedmunlock
	run_refuses "mmdelta: --gate --force: expected a percentage, such as 5" --gate --force timedmunlock
	run_refuses "mmdelta: -c --force: expected a config" -c --force timedmunlock
	run_refuses "mmdelta: --add -n: expected a number of iterations" --add -n keep
	run_refuses "mmdelta: --baseline --gate: expected a run name" --baseline --gate 5 -i auto timedmunlock
	run_refuses "mmdelta: --set --force: expected KEY=VALUE" --set --force timedmunlock
	run_refuses "mmdelta: --vm-mem --kernel: expected a value" --vm-mem --kernel x timedmunlock
}

@test "bisect.sh and history.sh: an option whose value is missing does not take the next word" {
	run --separate-stderr "$ROOT/bisect.sh" -o "$RES" --metric --threshold 5 timedmunlock a b
	assert_one_line_error
	[ "$stderr" = "mmdelta: --metric --threshold: expected a value" ]
	run --separate-stderr "$ROOT/history.sh" -o --help changes
	assert_one_line_error
	[ "$stderr" = "history: -o --help: expected a directory" ]
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --bench --gate 5
	assert_one_line_error
	[ "$stderr" = "history: --bench --gate: expected a value" ]
	nothing_written
}

@test "run.sh: -o without a directory" {
	run --separate-stderr "$ROOT/run.sh" timedmunlock -o
	assert_one_line_error
	says "-o needs a directory"
}

@test "run.sh: -i that is not a number" {
	run_refuses "-i abc: must be a whole number > 0" -i abc timedmunlock
}

@test "run.sh: --set without KEY=VALUE" {
	run_refuses "mmdelta: --set SIZE: expected KEY=VALUE or BENCH.KEY=VALUE" --set SIZE timedmunlock
}

@test "run.sh: --set of a key the bench does not have" {
	run_refuses "mmdelta: --set NOSUCH=1: no config of this run has NOSUCH (timedmunlock: SIZE LOCK MADVISE;" --set NOSUCH=1 timedmunlock
}

@test "run.sh: --set KEY= with no value" {
	run_refuses "mmdelta: --set SIZE=: SIZE has no value" --set SIZE= timedmunlock
}

@test "run.sh: --monitors naming an unknown monitor" {
	run_refuses "MONITORS=bogus: unknown monitor 'bogus'" --monitors bogus timedmunlock
}

# --- run names ---

@test "run name: empty" {
	run_refuses "run name '' is not usable" -n '' timedmunlock
}

@test "run name: starting with '-'" {
	run_refuses "run name '-x' is not usable" -n -x timedmunlock
}

@test "run name: ending in '-', as from an empty variable" {
	CI_PIPELINE_ID=""
	run_refuses "mmdelta: run name 'cand-' ends in '-': it looks truncated (an empty variable?)" -n "cand-$CI_PIPELINE_ID" --dry-run timedmunlock
	run --separate-stderr "$ROOT/bisect.sh" -o "$RES" -n "bisect-$CI_PIPELINE_ID" timedmunlock a b
	assert_one_line_error
	says "run name 'bisect-' ends in '-'"
}

@test "run name: with a newline" {
	run_refuses "is not usable" -n $'a\nb' timedmunlock
}

@test "run name: longer than 200 characters" {
	run_refuses "is 300 characters long; at most 200" -n "$(printf 'a%.0s' {1..300})" timedmunlock
}

# --- results directories ---

@test "results directory: empty -o" {
	run_refuses "results directory is empty" -o '' timedmunlock
}

@test "results directory: MMDELTA_RESULTS names a file" {
	touch "$IN/file"
	MMDELTA_RESULTS=$IN/file run --separate-stderr "$ROOT/run.sh" timedmunlock
	assert_one_line_error
	says "results directory $IN/file cannot be created: $IN/file is not a directory"
}

@test "results directory: on a read-only filesystem" {
	mkdir "$IN/ro"
	mount -t tmpfs -o ro,size=64k tmpfs "$IN/ro"
	run_refuses "results directory $IN/ro/r is not writable ($IN/ro is on a read-only filesystem)" -o "$IN/ro/r" timedmunlock
}

@test "results directory: a partial run left by an unfinished run.sh" {
	mkdir "$RES/.keep2.partial"
	echo "status: interrupted" >"$RES/.keep2.partial/meta"
	BEFORE=$(results_digest)
	run --separate-stderr "$ROOT/run.sh" -o "$RES" -n keep2 --set SIZE=4M timedmunlock
	assert_one_line_error
	says "$RES/.keep2.partial is left from an unfinished run (status: interrupted); remove it or use --force"
	[ "$(results_digest)" = "$BEFORE" ]
}

# --- configs: files, keys and values ---

@test "config: a path that does not exist" {
	run_refuses "unknown bench or config '$IN/nope'" "$IN/nope"
}

@test "config: a path that is a directory" {
	run_refuses "unknown bench or config '$IN'" "$IN"
}

@test "config: an empty file" {
	config_refuses "$IN/cfg: no BENCH= line" ""
}

@test "config: BENCH that is not a bench" {
	config_refuses "$IN/cfg: unknown bench 'nosuch' (benches: " 'BENCH=nosuch\n'
}

@test "config: BENCH that is a path" {
	config_refuses "$IN/cfg: unknown bench '../../x'" 'BENCH=../../x\n'
}

@test "config: a key given twice" {
	config_refuses "$IN/cfg:3: SIZE given twice" 'BENCH=timedmunlock\nSIZE=4M\nSIZE=8M\n'
}

@test "config: a lower-case key" {
	config_refuses "$IN/cfg:2: a key is upper-case letters, digits and _" 'BENCH=timedmunlock\nsize=4M\n'
}

@test "config: a blank inside a key" {
	config_refuses "$IN/cfg:2: blank inside the key" 'BENCH=timedmunlock\nSI ZE=4M\n'
}

@test "config: a key with no value" {
	config_refuses "$IN/cfg:2: SIZE has no value" 'BENCH=timedmunlock\nSIZE=\n'
}

@test "config: a control character in a value" {
	config_refuses "$IN/cfg:2: control character in value" 'BENCH=timedmunlock\nLOCK=map\001locked\n'
}

@test "config: a NUL byte" {
	config_refuses "$IN/cfg:2: NUL byte in line" 'BENCH=timedmunlock\nSIZE=4M\0x\n'
}

@test "config: a line longer than a value may be" {
	config_refuses "$IN/cfg:2: line too long" "BENCH=timedmunlock\nLOCK=$(printf 'x%.0s' {1..2000})\n"
}

@test "config: ITERATIONS that is not a number" {
	config_refuses "$IN/cfg:2: ITERATIONS=abc: must be a whole number > 0" 'BENCH=timedmunlock\nITERATIONS=abc\n'
}

@test "config: a negative WARMUP" {
	config_refuses "$IN/cfg:2: WARMUP=-1: must be a whole number" 'BENCH=timedmunlock\nWARMUP=-1\n'
}

@test "config: two swept keys" {
	config_refuses "$IN/cfg: both " 'BENCH=timedmunlock\nSIZE=4M 8M\nLOCK=mlock map_locked\n'
}

@test "config: a list for a key that cannot be swept" {
	config_refuses "$IN/cfg:2: THP=never always: cannot be swept" 'BENCH=timedmunlock\nTHP=never always\n'
}

@test "config: a value the bench does not know" {
	config_refuses "$IN/cfg:2: --lock sometimes: must be one of map_locked|mlock" 'BENCH=timedmunlock\nLOCK=sometimes\n'
}

@test "config: THP_DEFRAG that is not a kernel setting" {
	config_refuses "THP_DEFRAG=sometimes: must be one of" 'BENCH=timedmunlock\nTHP_DEFRAG=sometimes\n'
}

@test "config: the same bench twice in one run" {
	run_refuses "bench timedmunlock is named twice" --set SIZE=4M timedmunlock timedmunlock-thp
}

# --- sizes ---

@test "size: zero" {
	run_refuses "--size 0: size must be greater than zero" --set SIZE=0 timedmunlock
}

@test "size: negative" {
	run_refuses "--size -1G: not a size" --set SIZE=-1G timedmunlock
}

@test "size: a fraction" {
	run_refuses "--size 1.5G: unknown suffix" --set SIZE=1.5G timedmunlock
}

@test "size: more digits than 64 bits hold" {
	run_refuses "--size 99999999999999999999: number too large" --set SIZE=99999999999999999999 timedmunlock
}

@test "size: a suffix that overflows 64 bits" {
	run_refuses "--size 20000000P: size overflows 64 bits" --set SIZE=20000000P timedmunlock
}

@test "size: 0%" {
	run_refuses "--size 0%: percentage must be 1-100" --set SIZE=0% timedmunlock
}

@test "size: less than a page" {
	run_refuses "--size is smaller than a page" --set SIZE=100 timedmunlock
}

# --- bench options, given to a bench binary directly ---

@test "bench: an unknown option" {
	bench_refuses "timedmunlock: unknown option --bogus" timedmunlock --bogus
}

@test "bench: an option without its value" {
	bench_refuses "timedmunlock: --size needs a value" timedmunlock --size
}

@test "bench: an argument that is not an option" {
	bench_refuses "timedmunlock: unexpected argument 'foo'" timedmunlock foo
}

@test "bench: an unknown --trigger" {
	bench_refuses "timedmunlock: --trigger bogus: must be none, signal or fifo:DIR" timedmunlock --trigger bogus --size 4M
}

@test "bench: a /proc file that is a path" {
	bench_refuses "procmunmap: --proc-file ../../etc/passwd: a file name in /proc/PID is expected" \
		procmunmap --proc-file ../../etc/passwd --size 4M
}

@test "bench: a count out of range" {
	bench_refuses "procmunmap: --readers 1000: must be between 1 and 32" procmunmap --readers 1000 --size 4M
}

# --- kernel images (run.sh --kernel) ---

@test "kernel: an image that does not exist" {
	run_refuses "--kernel $IN/none: no such file" --kernel "$IN/none" timedmunlock
}

@test "kernel: a directory" {
	run_refuses "--kernel $IN: not a readable file" --kernel "$IN" timedmunlock
}

@test "kernel: a file of zeros" {
	head -c 4096 /dev/zero >"$IN/zeros"
	run_refuses "--kernel $IN/zeros: not a Linux kernel image" --kernel "$IN/zeros" timedmunlock
}

@test "kernel: an image without a release, and no -n" {
	fake_bzimage "$IN/bzImage"
	run_refuses "--kernel $IN/bzImage: no release in its header; name the run with -n" --kernel "$IN/bzImage" timedmunlock
}

@test "kernel: --vm-mem that is not a size" {
	fake_bzimage "$IN/bzImage"
	run_refuses "--vm-mem 2X: give megabytes or gigabytes" --kernel "$IN/bzImage" --vm-mem 2X timedmunlock
}

@test "kernel: an unknown --vm-clock" {
	run_refuses "--vm-clock fast: must be icount or realtime" --vm-clock fast timedmunlock
}

@test "kernel: --vm-* without --kernel" {
	run_refuses "--vm-* options need --kernel IMAGE" --vm-mem 1G timedmunlock
}

# --- compare.sh ---

@test "compare: -o without a directory" {
	runs
	compare_refuses "compare.sh: -o needs a directory" base new -o
}

@test "compare: a run that is a file" {
	runs
	touch "$IN/runs/file"
	compare_refuses "no run '$IN/runs/file/'" base "$IN/runs/file/"
}

@test "compare: an option whose value is missing does not take the next word" {
	runs
	compare_refuses "compare.sh: --gate --junit: expected a percentage, 0 or more" --gate --junit x.xml base new
	compare_refuses "mmstat: --gate 'base': expected a percentage, 0 or more" --gate base new
	compare_refuses "mmstat: --alpha 'base': expected a level between 0 and 1" --alpha base new
	compare_refuses "mmstat: --format 'base': expected text, markdown" --format base new
	compare_refuses "compare.sh: --junit needs a file" --gate 5 base new --junit
	compare_refuses "compare.sh: --html --gate: expected a directory" --html --gate 5 base new
}

@test "compare: a significance level outside (0, 1)" {
	runs
	compare_refuses "mmstat: --alpha '2': expected a level between 0 and 1" --alpha 2 base new
}

@test "compare: a gate that is not a percentage" {
	runs
	compare_refuses "mmstat: --gate 'x': expected a percentage" --gate x base new
}

@test "compare: a gate metric no bench has" {
	runs
	compare_refuses "mmstat: --gate-metric nosuch: no compared bench has this metric" --gate 5 --gate-metric nosuch base new
}

@test "compare: a JUnit file that cannot be written" {
	runs
	compare_refuses "mmstat: --junit $IN/no/dir/j.xml: No such file or directory" --gate 5 --junit "$IN/no/dir/j.xml" base new
	[ ! -e "$IN/no" ]
}

@test "compare: metrics.tsv missing" {
	runs
	rm "$IN/runs/new/timedmunlock/metrics.tsv"
	compare_refuses "mmstat: $IN/runs/new/timedmunlock/metrics.tsv: No such file or directory" base new
}

@test "compare: metrics.tsv with a direction that is not lower, higher or none" {
	runs
	sed -i '2s/lower$/sideways/' "$IN/runs/new/timedmunlock/metrics.tsv"
	compare_refuses "mmstat: $IN/runs/new/timedmunlock/metrics.tsv:2: direction must be 'lower', 'higher' or 'none', not 'sideways'" base new
}

@test "compare: a NUL byte in samples.tsv" {
	runs
	printf 'elapsed\t-\t9\t1\0.5\n' >>"$IN/runs/new/timedmunlock/samples.tsv"
	n=$(wc -l <"$IN/runs/new/timedmunlock/samples.tsv")
	compare_refuses "mmstat: $IN/runs/new/timedmunlock/samples.tsv:$n: NUL byte in a text file" base new
}
