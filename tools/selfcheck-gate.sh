#!/bin/bash
# The sequential gate measured on real runs, for make selfcheck (or alone):
#   tools/selfcheck-gate.sh [OUT]
# SELFCHECK_SEQUENCES (default 20) independent sequences, each of
#   base$k  timedmunlock at SELFCHECK_SIZE, SELFCHECK_BASE_ITERATIONS counted iterations
#   aa$k    the same config:     -i auto --baseline base$k --gate 5
#   big$k   1.1 x the size (10% more pages): the same
# with MAX_ITERATIONS=SELFCHECK_MAX (both default 40: by the simulation of
# tests/unit/test_seqgate.c's kind, a 40-iteration baseline at CoeffVar 4.5%
# catches 10% in 99% of sequences, at 6% in 91%).  A candidate's verdict is compare.sh
# --gate 5's exit status afterwards, which must be the one its iterations
# stopped at.  Prints (or writes to OUT) a markdown section: the verdicts
# of each kind, the iterations used, the change 10% more pages makes.
# SELFCHECK_LOCK=FILE runs each run.sh under flock FILE, so that on a shared
# machine the lock is held per run rather than for the whole check.
set -euo pipefail
MMDELTA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/dev/stdout}
seqs=${SELFCHECK_SEQUENCES:-20} size=${SELFCHECK_SIZE:-1G}
base_iters=${SELFCHECK_BASE_ITERATIONS:-40} max=${SELFCHECK_MAX:-40}
for v in "$seqs" "$base_iters" "$max"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "selfcheck-gate: '$v' is not a count" >&2; exit 2; }
done
res=$(mktemp -d "${TMPDIR:-/tmp}/mmdelta-selfcheck-gate.XXXXXX")
trap 'rm -rf "$res"' EXIT
log=$res/log

say() { printf 'selfcheck-gate: %s\n' "$*" >&2; }

# run.sh, under the lock when asked; a machine busy with someone else's
# work is waited out (a minute at a time, ten times at most).  With
# --baseline run.sh exits with the gate's verdict, 1 (REGRESSION) or 3
# (inconclusive), for a run that completed; only 2 and up are failures.
run() {
	local try rc lock=()
	[ -z "${SELFCHECK_LOCK:-}" ] || lock=(flock "$SELFCHECK_LOCK")
	for ((try = 1; try <= 10; try++)); do
		rc=0
		"${lock[@]}" "$MMDELTA_ROOT/run.sh" -o "$res" "$@" >>"$log" 2>&1 || rc=$?
		case $rc in 0 | 1 | 3) return 0 ;; esac
		tail -n 1 "$log" | grep -q 'the machine is busy' || break
		say "the machine is busy; waiting a minute"
		sleep 60
	done
	tail -n 5 "$log" >&2
	exit 1
}

counted() { awk -F'\t' '$1 == "elapsed"' "$res/$1/timedmunlock/samples.tsv" | wc -l; }

# compare.sh's exit status on BASE CAND: 0 pass, 1 REGRESSION, 3 inconclusive.
verdict() {
	local rc=0
	"$MMDELTA_ROOT/compare.sh" -o "$res" --gate 5 "$1" "$2" >"$res/cmp" 2>&1 || rc=$?
	case $rc in
	0) echo pass ;;
	1) echo REGRESSION ;;
	3) echo inconclusive ;;
	*) cat "$res/cmp" >&2; exit 1 ;;
	esac
}

# The verdict must be the one the candidate's iterations stopped at.
agrees() {
	local v=$1 stopped
	stopped=$(sed -n 's/^stopped: //p' "$res/$2/timedmunlock/config")
	case $v in
	inconclusive) [[ $stopped == MAX_* ]] ;;
	*) [[ $stopped == "the gate against"*": $v ("* || $stopped == "the gate against"*": $v, improvement ("* ]] ;;
	esac || { say "$2: compare.sh says $v, the iterations stopped with: $stopped"; exit 1; }
}

main() {
	local bytes big k v n kind
	declare -A count=() iters=()
	bytes=$("$MMDELTA_ROOT/build/bin/timedmunlock" --check --size "$size" | sed -n '2p')
	big=$((bytes + bytes / 10))
	for ((k = 1; k <= seqs; k++)); do
		say "sequence $k of $seqs: baseline, A/A candidate, 1.1 x size candidate"
		run -n "base$k" -i "$base_iters" --set SIZE="$bytes" timedmunlock
		run -n "aa$k" -i auto --baseline "base$k" --gate 5 --set SIZE="$bytes" --set MAX_ITERATIONS="$max" timedmunlock
		run -n "big$k" -i auto --baseline "base$k" --gate 5 --set SIZE="$big" --set MAX_ITERATIONS="$max" timedmunlock
		for kind in aa big; do
			v=$(verdict "base$k" "$kind$k")
			agrees "$v" "$kind$k"
			n=$(counted "$kind$k")
			count[$kind $v]=$((${count[$kind $v]:-0} + 1))
			iters[$kind]=$((${iters[$kind]:-0} + n))
		done
		"$MMDELTA_ROOT/compare.sh" -o "$res" --format json "base$k" "big$k" |
			jq -r '.benches[0].metrics[0].params[0].runs | "\(.[0].cv) \(.[1].pct.mean)"' >>"$res/shift"
		rm -rf "${res:?}/base$k" "${res:?}/aa$k" "${res:?}/big$k"
	done
	{
		echo "| check (timedmunlock, $size; baseline $base_iters iterations; gate 5%, MAX_ITERATIONS=$max) | REGRESSION / pass / inconclusive |"
		echo "|---|---|"
		for kind in aa big; do
			printf '| %s | %s / %s / %s of %s |\n' \
				"$([ $kind = aa ] && echo "A/A: the same config, -i auto --baseline" || echo "power: 1.1 x SIZE (10% more pages), -i auto --baseline")" \
				"${count[$kind REGRESSION]:-0}" "${count[$kind pass]:-0}" "${count[$kind inconclusive]:-0}" "$seqs"
		done
		awk -v a="${iters[aa]}" -v b="${iters[big]}" -v n="$seqs" \
			'BEGIN { printf "| iterations used, mean: A/A / 1.1 x SIZE | %.1f / %.1f |\n", a / n, b / n }'
		awk '{ cv += $1; d += $2; n++ } END {
			printf "| baselines: CoeffVar, mean; change of the mean with 10%% more pages, mean | %.2f%%; %.2f%% |\n", cv / n, d / n }' "$res/shift"
	} >"$out"
}

main
