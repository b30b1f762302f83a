#!/bin/bash
# make test-history-stats: the change-point detection measured as an
# instrument.  Seeded synthetic series (tests/stats/synth.h) over the grid
# steps 3-20% x CoeffVar 1-5% x 5-500 runs, plus A/A, single spikes and a
# variance change, for three amounts of run-to-run noise, without and with
# outlier nights, by the plain method and with outliers set aside; then the time of
# `changes` over a generated history of 10,000 nightly runs of 4 benches.
# Run it under the CPU lock: flock /tmp/mmdelta-cpu.lock make test-history-stats
set -euo pipefail
cd "$(dirname "$0")/../.."
SEEDS=${SEEDS:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# recall: seeds whose planted step was found within one run; precision:
# such finds over all change points reported, steps, spikes, A/A and
# variance changes together.
summary() {
	awk -F'\t' 'NR > 1 {
		if ($1 == "step") {
			tp += $8; fp += $9 - $8; seeds += $6; if ($4 >= 4 * $3) { s4 += $6; h4 += $8; if ($8 < 0.95 * $6) short4 = short4 " n=" $2 "/cv=" $3 "/step=" $4 ":" $8 "/" $6 }
		} else {
			fp += $9; quiet[$1] += $6 - $7; all[$1] += $6; if ($7 > 0.05 * $6) noisy = noisy " " $1 " n=" $2 "/cv=" $3 "/step=" $4 ":" $7 "/" $6
		}
	} END {
		printf "  recall, all steps: %.3f (%d of %d seeds); steps >= 4x CoeffVar: %.3f\n", tp / seeds, tp, seeds, h4 / s4
		printf "  precision: %.3f (%d of %d change points reported)\n", tp / (tp + fp), tp, tp + fp
		printf "  seeds without an alert: A/A %.3f, spike %.3f, variance change %.3f\n", quiet["aa"] / all["aa"], quiet["spike"] / all["spike"], quiet["var"] / all["var"]
		printf "  cells below 95%% (steps >= 4x CoeffVar found):%s\n", short4 == "" ? " none" : short4
		printf "  cells above 5%% (alerts without a step):%s\n", noisy == "" ? " none" : noisy
	}' "$1"
}

# BAD: 1 adds 1-3 outlier nights (10-50% slow) to every series; KEEP: 1 is
# the plain method (no run set aside), 0 the default (outliers set aside).
for bad in 0 1; do
	for keep in 1 0; do
		for run_sd in 0 0.5 1; do
			echo "$([ "$bad" = 1 ] && echo "with 1-3 outlier nights" || echo "no outlier nights"), $([ "$keep" = 1 ] && echo "every run kept (the plain method)" || echo "outliers set aside"):"
			echo "run-to-run noise ${run_sd} x CoeffVar, $SEEDS seeds per cell, p <= 0.001, 3 runs a side:"
			f=$work/sweep.$bad.$keep.$run_sd.tsv
			build/cpsweep "$SEEDS" 3 "$run_sd" 0.001 "$bad" "$keep" >"$f"
			summary "$f"
			echo "  recall per step and CoeffVar (all lengths):"
			awk -F'\t' '$1 == "step" { k = $3 "\t" $4; s[k] += $6; h[k] += $8 } END { for (k in s) { split(k, a, "\t"); printf "    CoeffVar %g%%, step %g%%: %.3f\n", a[1] * 100, a[2] * 100, h[k] / s[k] } }' \
				"$f" | sort -k2,2n -k4,4n
		done
	done
done

mkdir "$work/root"
build/histgen "$work/root/history.sqlite" 10000 4
echo "changes over 10,000 runs x 4 benches x 2 metrics x 10 samples ($(du -h "$work/root/history.sqlite" | cut -f1)):"
# The baseline, in the same sitting: the sqlite3 program reading every
# sample once, the least any analysis of them must cost.
TIMEFORMAT=%R
for _ in 1 2 3; do
	{ time build/bin/mmhistory -o "$work/root" changes >"$work/changes.out"; } 2>>"$work/times"
	{ time sqlite3 "$work/root/history.sqlite" 'SELECT count(*), sum(value) FROM samples' >/dev/null; } 2>>"$work/base"
done
echo "  changes, seconds, 3 runs: $(tr '\n' ' ' <"$work/times")"
echo "  baseline (sqlite3 summing every sample): $(tr '\n' ' ' <"$work/base")"
echo "  loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
tail -n 1 "$work/changes.out"
