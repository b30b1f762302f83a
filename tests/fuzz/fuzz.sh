#!/bin/bash
# Run libFuzzer targets for a bounded time each and say how far each got.
#   tests/fuzz/fuzz.sh SECONDS build/fuzz/NAME...
# Seeds come from tests/fuzz/corpus/NAME (committed, never written to);
# inputs the fuzzer finds go to build/fuzz/work/NAME, crashes to
# build/fuzz/NAME-crash-*.  Exit 1 on the first target that crashes.
set -euo pipefail

secs=$1
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "$here/../.." && pwd)/build/fuzz
log=$(mktemp "${TMPDIR:-/tmp}/mmdelta-fuzz.XXXXXX")
trap 'rm -f "$log"' EXIT

for bin in "$@"; do
	name=${bin##*/}
	mkdir -p "$build/work/$name"
	if ! "$bin" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix="$build/$name-" \
		"$build/work/$name" "$here/corpus/$name" >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		echo "fuzz $name: FAILED (reproducer in $build/$name-*)" >&2
		exit 1
	fi
	awk -v n="$name" -v t="$secs" '
		/stat::number_of_executed_units/ { e = $NF + 0 }
		/stat::new_units_added/ { u = $NF + 0 }
		END { printf "fuzz %s: %d executions in %d s without a crash (%d new inputs)\n", n, e, t, u }' "$log"
done
