#!/bin/bash
# The harness's overhead on the timed region: bench/timedmunlock against
# tools/minimunlock at the same size, alternately (so drift hits both alike),
# N pairs.  Prints both medians and their ratio.
#   tools/overhead.sh [SIZE_BYTES] [PAIRS]
set -euo pipefail
MMDELTA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
size=${1:-$((1 << 30))}
pairs=${2:-20}
[[ $size =~ ^[0-9]+$ && $pairs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [SIZE_BYTES] [PAIRS]" >&2; exit 2; }
make -s -C "$MMDELTA_ROOT" build/bin/timedmunlock build/bin/minimunlock

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

suite=() mini=()
for ((i = 0; i < pairs; i++)); do
	suite+=("$("$MMDELTA_ROOT/build/bin/timedmunlock" --size "$size" | awk -F'\t' '$1 == "elapsed" { print $2 }')")
	mini+=("$("$MMDELTA_ROOT/build/bin/minimunlock" "$size")")
done
ms=$(printf '%s\n' "${suite[@]}" | median)
mm=$(printf '%s\n' "${mini[@]}" | median)
awk -v s="$ms" -v m="$mm" -v n="$pairs" -v b="$size" 'BEGIN {
	printf "size %d bytes, %d pairs: suite median %.6f s, minimal median %.6f s, ratio %.4f\n", b, n, s, m, s / m }'
