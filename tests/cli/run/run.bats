#!/usr/bin/env bats
# run.sh end to end: real timedmunlock runs at small sizes, and bad input.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

@test "a 64M timedmunlock run writes 3 counted iterations of real samples" {
	run --separate-stderr "$ROOT/run.sh" -n small -o "$RES" --set SIZE=64M -i 3 timedmunlock
	[ "$status" -eq 0 ]
	d=$RES/small/timedmunlock
	[ "$(head -n 1 "$d/samples.tsv")" = "$(printf 'metric\tparam\titeration\tvalue')" ]
	# 3 iterations, each with elapsed > 0 and pages = 64M / 4096
	[ "$(awk -F'\t' '$1 == "elapsed" && $4 > 0' "$d/samples.tsv" | wc -l)" -eq 3 ]
	[ "$(awk -F'\t' '$1 == "elapsed" { print $3 }' "$d/samples.tsv" | tr '\n' ' ')" = "1 2 3 " ]
	[ "$(awk -F'\t' '$1 == "pages" && $4 == 16384' "$d/samples.tsv" | wc -l)" -eq 3 ]
	# ns_per_page is elapsed spread over the pages
	awk -F'\t' '$1 == "elapsed" { e[$3] = $4 } $1 == "ns_per_page" { n[$3] = $4 }
		END { for (i in e) if (n[i] < e[i] * 1e9 / 16384 * 0.999 || n[i] > e[i] * 1e9 / 16384 * 1.001) exit 1 }' "$d/samples.tsv"
	# the warm-up is kept apart and not counted
	[ "$(awk -F'\t' '$1 == "elapsed"' "$d/warmup.tsv" | wc -l)" -eq 1 ]
	[ "$(cut -f1 "$d/metrics.tsv" | head -n 1)" = elapsed ]
	grep -q '^status: complete$' "$RES/small/meta"
	grep -q "^kernel_release: $(uname -r)\$" "$RES/small/meta"
	grep -q '^memtotal: [0-9]*$' "$RES/small/meta"
	grep -q '^clock: realtime$' "$RES/small/meta"
	grep -q '^SIZE=64M$' "$d/config"
	grep -qx 'sweep: -' "$d/config"
	# options are resolved once, to bytes, and every iteration runs with them
	grep -q -- '^command: .*bench/timedmunlock --size 67108864 --lock map_locked' "$d/config"
	[ "$(grep -c -- '--size 67108864 --lock map_locked' "$d/log")" -eq 4 ]
	[ -s "$RES/small/topology.txt" ]
	[ ! -e "$RES/.small.partial" ]
	# one progress line per iteration with the figure just measured
	[ "$(grep -c 'timedmunlock \[[0-9]/3\] elapsed [0-9.e-]* s' <<<"$stderr")" -eq 3 ]
}

@test "the run name defaults to the kernel release" {
	run "$ROOT/run.sh" -o "$RES" --set SIZE=8M -i 1 timedmunlock
	[ "$status" -eq 0 ]
	[ -d "$RES/$(uname -r)/timedmunlock" ]
}

@test "THP=always for a run is put back to the previous setting afterwards" {
	thp=/sys/kernel/mm/transparent_hugepage
	[ -w "$thp/enabled" ] || skip "THP is not switchable here"
	before=$(cat "$thp/enabled" "$thp/defrag")
	run "$ROOT/run.sh" -n thp -o "$RES" --set SIZE=16M -i 1 timedmunlock-thp
	[ "$status" -eq 0 ]
	[ "$(cat "$thp/enabled" "$thp/defrag")" = "$before" ]
	grep -q '^THP=always$' "$RES/thp/timedmunlock/config"
	[ ! -s "${MMDELTA_STATE:-/run/mmdelta}/saved-settings" ]
}

@test "a sweep gives one sample set per value" {
	printf 'BENCH=timedmunlock\nSIZE=4M 8M\nITERATIONS=2\nWARMUP=0\n' >"$RES/sweep"
	run "$ROOT/run.sh" -n sw -o "$RES" "$RES/sweep"
	[ "$status" -eq 0 ]
	s=$RES/sw/timedmunlock/samples.tsv
	[ "$(awk -F'\t' '$1 == "pages" && $2 == "4M" && $4 == 1024' "$s" | wc -l)" -eq 2 ]
	[ "$(awk -F'\t' '$1 == "pages" && $2 == "8M" && $4 == 2048' "$s" | wc -l)" -eq 2 ]
	# the swept key is a field of its own in BENCH/config
	grep -qx 'sweep: SIZE' "$RES/sw/timedmunlock/config"
}

@test "--dry-run prints the command and writes nothing" {
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/none" timedmunlock
	[ "$status" -eq 0 ]
	[[ $output =~ $'\n'"command: numactl --membind=0 --cpunodebind=0 bench/timedmunlock --size "[0-9]+" --lock map_locked --madvise none --cap-size"$'\n' ]]
	[ ! -e "$RES/none" ]
}

@test "the thread's 56G is capped to the machine with a logged line" {
	run "$ROOT/run.sh" --dry-run -o "$RES" timedmunlock
	[ "$status" -eq 0 ]
	run "$ROOT/build/bin/timedmunlock" --size 56G --cap-size --check
	[ "$status" -eq 0 ]
	[[ $output == *"--size capped from 56.0G to"*"MemAvailable"* ]]
}

# --- bad input: one line on stderr, non-zero exit, nothing on disk changed ---

bad_input() {
	mkdir -p "$RES/keep/timedmunlock"
	echo "status: complete" >"$RES/keep/meta"
	echo precious >"$RES/keep/timedmunlock/samples.tsv"
	local before
	before=$(results_digest)
	run --separate-stderr "$ROOT/run.sh" -o "$RES" "$@"
	assert_one_line_error
	[ "$(results_digest)" = "$before" ]
	[ -z "$(find "$RES" -maxdepth 1 -name '.*partial')" ]
}

@test "an unknown bench is refused" {
	bad_input nosuchbench
	[[ $stderr == *"unknown bench or config 'nosuchbench' (configs: "* ]]
}

@test "a mistyped bench or config: the nearest names first, by edit distance" {
	bad_input timedmunlok
	[[ $stderr == "mmdelta: unknown bench or config 'timedmunlok' (did you mean timedmunlock? configs: heaprelease "* ]]
	bad_input heaprelease-lok
	[[ $stderr == *"(did you mean heaprelease-lock? configs: "* ]]
	# a part of several names: up to three of them
	bad_input munlock
	[[ $stderr == *"(did you mean timedmunlock or timedmunlock-interleave or timedmunlock-thp? configs: "* ]]
	bad_input sparsemunmap-sweeep
	[[ $stderr == *"(did you mean sparsemunmap-sweep? configs: "* ]]
}

@test "an unknown config key is refused with file and line" {
	printf 'BENCH=timedmunlock\n# comment\nSIZ=1G\n' >"$RES/cfg"
	bad_input "$RES/cfg"
	[[ $stderr == *"$RES/cfg:3: unknown key SIZ"* ]]
}

@test "a malformed config line is refused with file and line" {
	printf 'BENCH=timedmunlock\nSIZE 1G\n' >"$RES/cfg"
	bad_input "$RES/cfg"
	[[ $stderr == *"$RES/cfg:2: expected KEY=VALUE"* ]]
}

@test "a config value is never run as shell code" {
	rm -f /tmp/mmdelta-pwned
	printf 'BENCH=timedmunlock\nSIZE=$(touch /tmp/mmdelta-pwned)\nLOCK=`touch /tmp/mmdelta-pwned`\n' >"$RES/cfg"
	bad_input "$RES/cfg"
	[ ! -e /tmp/mmdelta-pwned ]
}

@test "a size with a bad suffix is refused" {
	bad_input --set SIZE=64Q timedmunlock
	[[ $stderr == *"--size 64Q: unknown suffix"* ]]
}

@test "a size larger than memory is refused, naming the limit" {
	bad_input --set SIZE=100T timedmunlock
	[[ $stderr == *"is more than this machine can hold: MemAvailable"* ]]
}

@test "an existing run name is refused without --force" {
	bad_input -n keep --set SIZE=4M timedmunlock
	[[ $stderr == *"run 'keep' already exists"* ]]
	[ "$(cat "$RES/keep/timedmunlock/samples.tsv")" = precious ]
}

@test "--force replaces an existing run only with a complete one" {
	mkdir -p "$RES/keep"
	echo old >"$RES/keep/marker"
	run "$ROOT/run.sh" -o "$RES" -n keep --force --set SIZE=4M -i 1 timedmunlock
	[ "$status" -eq 0 ]
	[ ! -e "$RES/keep/marker" ]
	[ -s "$RES/keep/timedmunlock/samples.tsv" ]
}

@test "an unwritable results directory is refused" {
	touch "$RES/file"
	bad_input -o "$RES/file/sub" --set SIZE=4M timedmunlock
	[[ $stderr == *"results directory $RES/file/sub cannot be created"* ]]
}

@test "a bad run name is refused" {
	for name in ../x / 'a b' .hidden; do
		bad_input -n "$name" --set SIZE=4M timedmunlock
		[[ $stderr == *"is not usable"* ]]
	done
}

@test "an unknown option and a bad iteration count are refused" {
	bad_input --bogus timedmunlock
	[[ $stderr == *"unknown option --bogus"* ]]
	bad_input -i 0 timedmunlock
	[[ $stderr == *"-i 0: must be a whole number > 0"* ]]
}

@test "a bad THP or NUMA value is refused" {
	bad_input --set THP=sometimes timedmunlock
	[[ $stderr == *"THP=sometimes: must be one of"* ]]
	bad_input --set NUMA=far timedmunlock
	[[ $stderr == *"NUMA=far: must be one of"* ]]
}
