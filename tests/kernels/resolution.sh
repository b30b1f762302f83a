#!/bin/bash
# make test-resolution: each bench's resolution under icount.  Boots one
# Debian kernel twice with the same arguments (every bench, 5 iterations,
# no monitors) and prints tools/resolution.sh's table of the two: the
# lines of drivers/vm/resolution.tsv.  About 20 minutes of boots on 2 CPUs.
#   tests/kernels/resolution.sh [RESULTS_DIR]   (default: a temporary one)
set -euo pipefail
MMDELTA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$(mktemp -d)}
kernels=$("$MMDELTA_ROOT/tests/kernels/fetch-debian-kernels.sh")
image=$(grep -v '^6\.1\.0-' <<<"$kernels" | tail -n 1 | cut -f2)
[ -n "$image" ] || { echo "resolution: no 6.12 kernel fetched" >&2; exit 1; }
args=(--kernel "$image" -o "$out" -i 5 --monitors none --set timedmunlock.SIZE=64M
	--set procmunmap.SIZE=256M --set sparsemunmap.CYCLES=100 timedmunlock heaprelease procmunmap sparsemunmap)
# Side by side: icount figures do not depend on the host's load.
"$MMDELTA_ROOT/run.sh" -n res-a "${args[@]}" >&2 &
"$MMDELTA_ROOT/run.sh" -n res-b "${args[@]}" >&2
wait $!
catalogs=(--kernel "$image" -o "$out" -i 3 --monitors none stressng willitscale)
"$MMDELTA_ROOT/run.sh" -n res-c "${catalogs[@]}" >&2 &
"$MMDELTA_ROOT/run.sh" -n res-d "${catalogs[@]}" >&2
wait $!
printf '# The icount resolution of each bench (drivers/vm/resolution.sh reads it; docs/vm.md shows it).\n'
printf '# Made by tools/resolution.sh from two boots of one kernel (make test-resolution):\n'
"$MMDELTA_ROOT/tools/resolution.sh" "$out/res-a" "$out/res-b"
"$MMDELTA_ROOT/tools/resolution.sh" "$out/res-c" "$out/res-d" | grep -v '^#' 
