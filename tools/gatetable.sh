#!/bin/bash
# tools/gatetable.sh [--compare PATH] [--repeats N] [--seed S]
# How often compare.sh --gate 5 fails a candidate, by its own exit code, on
# synthetic run directories: n samples a side from normal noise of the given
# CoeffVar, a true loss of 0, 2.5, 5, 6 and 10% (lower is better), N repeats
# a cell (default 60).  --compare points at another tree's compare.sh, to
# measure a gate before and after a change on the same samples.  Prints a
# markdown table: per cell the share of exit 1 (REGRESSION), and, where the
# gate has one, of exit 3 (inconclusive); the rest passed.
set -euo pipefail
MMDELTA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
compare=$MMDELTA_ROOT/compare.sh repeats=60 seed=1
while [ $# -gt 0 ]; do
	case $1 in
	--compare) compare=$2; shift ;;
	--repeats) repeats=$2; shift ;;
	--seed) seed=$2; shift ;;
	*) echo "gatetable: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
[[ $repeats =~ ^[1-9][0-9]*$ && $seed =~ ^[0-9]+$ ]] || { echo "gatetable: --repeats and --seed take whole numbers" >&2; exit 2; }
[ -x "$compare" ] || { echo "gatetable: $compare is not executable" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mmdelta-gatetable.XXXXXX")
trap 'rm -rf "$work"' EXIT

# run NAME N MEAN CV SEED: a run directory of bench t, metric elapsed (s, lower)
run_dir() {
	local d=$work/$1
	mkdir -p "$d/t"
	printf 'status: complete\nclock: realtime\n' >"$d/meta"
	printf 'elapsed\tElapsed\ts\tlower\n' >"$d/t/metrics.tsv"
	awk -v n="$2" -v m="$3" -v cv="$4" -v seed="$5" 'BEGIN {
		srand(seed); print "metric\tparam\titeration\tvalue"
		for (i = 1; i <= n; i++) {
			z = sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand())
			printf "elapsed\t-\t%d\t%.9g\n", i, m * (1 + cv * z) } }' >"$d/t/samples.tsv"
}

# One cell: "regression% inconclusive%" over the repeats.
cell() {
	local n=$1 cv=$2 loss=$3 k rc reg=0 inc=0 s
	for ((k = 1; k <= repeats; k++)); do
		s=$((seed * 1000003 + k * 7919 + n * 31))
		run_dir base "$n" 1 "$cv" "$s"
		run_dir cand "$n" "$(awk -v l="$loss" 'BEGIN { print 1 + l / 100 }')" "$cv" "$((s + 1))"
		rc=0
		"$compare" -o "$work" --gate 5 base cand >/dev/null 2>&1 || rc=$?
		case $rc in
		0) ;;
		1) reg=$((reg + 1)) ;;
		3) inc=$((inc + 1)) ;;
		*) echo "gatetable: compare.sh exited $rc" >&2; exit 2 ;;
		esac
		rm -rf "$work/base" "$work/cand"
	done
	awk -v r="$reg" -v i="$inc" -v n="$repeats" 'BEGIN { printf "%.0f%% / %.0f%%", 100 * r / n, 100 * i / n }'
}

echo "| n per side | CoeffVar | true loss 0% | 2.5% | 5% | 6% | 10% |"
echo "|---|---|---|---|---|---|---|"
for row in "5 0.05" "30 0.01"; do
	read -r n cv <<<"$row"
	printf '| %s | %s%% |' "$n" "$(awk -v c="$cv" 'BEGIN { print 100 * c }')"
	for loss in 0 2.5 5 6 10; do printf ' %s |' "$(cell "$n" "$cv" "$loss")"; done
	echo
done
echo
echo "Each cell: REGRESSION (exit 1) / inconclusive (exit 3) over $repeats repeats; the rest passed."
