#!/usr/bin/env bats
# --set across the configs of a run: KEY=VALUE goes to every config that has
# KEY, BENCH.KEY=VALUE to one bench's, and only a key no config has is refused.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
}

teardown() {
	common_teardown
}

# The value of KEY in RUN's BENCH/config.
config_value() { awk -F= -v k="$3" '$1 == k { print substr($0, length(k) + 2) }' "$RES/$1/$2/config"; }

@test "--set SIZE shrinks a run of several benches: it goes to the configs that have SIZE" {
	run --separate-stderr "$ROOT/run.sh" -n two -o "$RES" -i 1 --set WARMUP=0 \
		--set SIZE=8M --set OPS=1000 timedmunlock heaprelease
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(config_value two timedmunlock SIZE)" = 8M ]
	[ "$(config_value two heaprelease OPS)" = 1000 ]
	# heaprelease has no SIZE and timedmunlock no OPS: neither got the other's.
	[ -z "$(config_value two heaprelease SIZE)" ]
	[ -z "$(config_value two timedmunlock OPS)" ]
	grep -q '^command: .*bench/timedmunlock --size 8388608 ' "$RES/two/timedmunlock/config"
	# heaprelease's config sweeps PATTERN: one command line per pattern
	[ "$(grep -c '^command PATTERN=[a-z]*: .*bench/heaprelease .*--ops 1000 ' "$RES/two/heaprelease/config")" -eq 2 ]
	[ "$(awk -F'\t' '$1 == "elapsed"' "$RES/two/heaprelease/samples.tsv" | wc -l)" -eq 2 ]
}

@test "--set BENCH.KEY=VALUE changes that bench's config only" {
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES" \
		--set timedmunlock.SIZE=8M timedmunlock sparsemunmap
	[ "$status" -eq 0 ]
	[[ $output == *$'\nSIZE=8M\n'* ]]
	# sparsemunmap keeps its config's 16 TiB
	[[ $output == *$'\nSIZE=17592182882304\n'* ]]
}

@test "a --set key no config has is refused in one line naming the configs' keys" {
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES" --set THREADS=4 timedmunlock sparsemunmap
	assert_one_line_error
	[[ $stderr == "mmdelta: --set THREADS=4: no config of this run has THREADS ("* ]]
	# each config's keys, as its bench's option table names them
	local b keys
	for b in timedmunlock sparsemunmap; do
		keys=$("$ROOT/build/bin/$b" --describe-options | cut -f1 | tr 'a-z-' 'A-Z_' | paste -sd ' ')
		[[ $stderr == *"$b: $keys;"* ]] || { echo "no '$b: $keys;' in: $stderr"; return 1; }
	done
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES" --set heaprelease.THREADS=4 timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --set heaprelease.THREADS=4: no config of this run is for heaprelease (benches: timedmunlock)" ]
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES" --set timedmunlock.THREADS=4 timedmunlock
	assert_one_line_error
	[[ $stderr == "mmdelta: --set timedmunlock.THREADS=4: timedmunlock has no key THREADS (its keys: SIZE LOCK MADVISE; "* ]]
	[ -z "$(ls -A "$RES")" ]
}

@test "a bad --set value is refused naming the config it was for" {
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES" --set LOCK=sometimes timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: configs/timedmunlock: --lock sometimes: must be one of map_locked|mlock" ]
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES" --set PIN=maybe heaprelease
	assert_one_line_error
	[ "$stderr" = "mmdelta: configs/heaprelease: --set PIN=maybe: must be yes or no" ]
}
