#!/bin/bash
# make selfcheck: the suite measured as a measuring instrument.  Writes a
# markdown report (default docs/selfcheck.md) of
#   1. the harness's overhead on the timed region,
#   2. each bench's noise (CoeffVar) without and with each noise-control step,
#   3. A/A: how often the gate fails two runs of one configuration,
#   4. power: how often it catches a real 10% change, and in how many
#      iterations under ITERATIONS=auto.
# Not part of make test: it takes about twenty minutes on a quiet machine.
# Sizes are scaled down from the threads' so that it does (populating 4G
# takes seconds on this VM, 1G a fraction); each figure says its size.
# SELFCHECK_SIZE (default 1G) is the size of the memory benches,
# SELFCHECK_REPEATS (default 10) the number of A/A and power pairs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/selfcheck.md}
repeats=${SELFCHECK_REPEATS:-10}
size=${SELFCHECK_SIZE:-1G}
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "selfcheck: SELFCHECK_REPEATS=$repeats: not a count" >&2; exit 2; }
res=$(mktemp -d "${TMPDIR:-/tmp}/mmdelta-selfcheck.XXXXXX")
trap 'rm -rf "$res"' EXIT
log=$res/log

say() { printf 'selfcheck: %s\n' "$*" >&2; }
run() { "$root/run.sh" -o "$res" "$@" >>"$log" 2>&1 || { tail -n 5 "$log" >&2; exit 1; }; }

# CoeffVar of the primary metric of RUN: "cv", or "param=cv/param=cv" for a sweep.
cv_of() {
	"$root/compare.sh" -o "$res" --format json "$1" "$1" 2>/dev/null |
		jq -r '.benches[0].metrics[0].params[] | "\(.param)=\((.runs[0].cv // 0) * 100 | round / 100)"' |
		sed 's/^-=//' | paste -sd/
}

overhead() {
	local bytes pairs=30 line
	bytes=$("$root/bench/timedmunlock" --check --size "$size" | sed -n '2p')
	say "overhead: suite against tools/minimunlock, $pairs alternating pairs at $size"
	line=$("$root/tools/overhead.sh" "$bytes" "$pairs")
	printf '| %s |\n' "$line"
}

# One run per variant: all steps off, each step alone, then the bench's
# own defaults (its config).  Prints one CoeffVar field per variant.
noise() {
	local bench=$1 size=$2 sizeset=() v cv
	[ -z "$size" ] || sizeset=(--set "SIZE=$size")
	declare -A variants=(
		[off]="WARMUP=0 CPU=none DROP_CACHES=no COMPACT=no"
		[warmup]="WARMUP=1 CPU=none DROP_CACHES=no COMPACT=no"
		[cpu]="WARMUP=0 CPU=last DROP_CACHES=no COMPACT=no"
		[drop_caches]="WARMUP=0 CPU=none DROP_CACHES=yes COMPACT=no"
		[compact]="WARMUP=0 CPU=none DROP_CACHES=no COMPACT=yes"
		[default]=""
	)
	for v in off warmup cpu drop_caches compact default; do
		local sets=()
		for kv in ${variants[$v]}; do sets+=(--set "$kv"); done
		say "noise: $bench, $v"
		run -n "noise-$bench-$v" -i 10 "${sizeset[@]}" "${sets[@]}" "$bench"
		cv=$(cv_of "noise-$bench-$v")
		printf '%s ' "$cv"
	done
}

# The smallest change in the mean that 10 against 10 iterations detect with
# 80% power at alpha 0.05 (two-sided), from a CoeffVar:
# (t(0.975, 18) + t(0.80, 18)) * sqrt(2 / 10) * cv = 1.325 * cv.
detectable() {
	tr '/' '\n' <<<"$1" | awk -F= '{ v = $NF; p = NF > 1 ? $1 "=" : "" }
		{ printf "%s%s%.1f%%", sep, p, 1.325 * v; sep = "/" }'
}

# N pairs of one config: fail count of the gate at 5% on A against A'.
gate_verdicts() {
	local base=$1 cand=$2
	"$root/compare.sh" -o "$res" --gate 5 "$base" "$cand" >/dev/null 2>&1 && echo pass || echo fail
}

aa_and_power() {
	local bytes big k aa_fail=0 caught=0 iters_a=0 iters_b=0 auto_caught=0 n
	bytes=$("$root/bench/timedmunlock" --check --size "$size" | sed -n '2p')
	big=$((bytes + bytes / 10))
	for ((k = 1; k <= repeats; k++)); do
		say "A/A and power: pair $k of $repeats"
		run -n "a$k" -i 10 --set SIZE="$bytes" timedmunlock
		run -n "a$k-bis" -i 10 --set SIZE="$bytes" timedmunlock
		run -n "b$k" -i 10 --set SIZE=$big timedmunlock
		[ "$(gate_verdicts "a$k" "a$k-bis")" = pass ] || aa_fail=$((aa_fail + 1))
		[ "$(gate_verdicts "a$k" "b$k")" = pass ] || caught=$((caught + 1))
		run -n "auto-a$k" -i auto --set SIZE="$bytes" timedmunlock
		run -n "auto-b$k" -i auto --set SIZE=$big timedmunlock
		[ "$(gate_verdicts "auto-a$k" "auto-b$k")" = pass ] || auto_caught=$((auto_caught + 1))
		n=$(awk -F'\t' '$1 == "elapsed"' "$res/auto-a$k/timedmunlock/samples.tsv" | wc -l)
		iters_a=$((iters_a + n))
		n=$(awk -F'\t' '$1 == "elapsed"' "$res/auto-b$k/timedmunlock/samples.tsv" | wc -l)
		iters_b=$((iters_b + n))
		rm -rf "${res:?}/a$k" "${res:?}/a$k-bis" "${res:?}/b$k" "${res:?}/auto-a$k" "${res:?}/auto-b$k"
	done
	echo "$aa_fail $caught $auto_caught $iters_a $iters_b"
}

# One markdown row: LABEL and the six CoeffVar fields of noise().
noise_row() {
	local f
	read -r -a f <<<"$2"
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "${f[@]}" "$(detectable "${f[5]}")"
}

main() {
	local started=$SECONDS tm sm hr pm aa_fail caught auto_caught iters_a iters_b
	make -s -C "$root" all >&2
	"$root/drivers/lib/deps.sh"
	local oh
	oh=$(overhead)
	tm=$(noise timedmunlock "$size")
	sm=$(noise sparsemunmap "")
	hr=$(noise heaprelease "")
	pm=$(noise procmunmap "$size")
	read -r aa_fail caught auto_caught iters_a iters_b <<<"$(aa_and_power)"
	{
		echo "# The suite as a measuring instrument"
		echo
		echo "Written by \`make selfcheck\` (tools/selfcheck.sh) on $(date -u +%Y-%m-%d),"
		echo "kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo),"
		echo "$(systemd-detect-virt 2>/dev/null || echo unknown) virtualization; $(((SECONDS - started) / 60)) minutes."
		echo
		echo "## 1. Harness overhead"
		echo
		echo "bench/timedmunlock against tools/minimunlock (mmap, then munlock between"
		echo "two clock reads, nothing else), alternating, median munlock time of each:"
		echo
		echo "| measurement |"
		echo "|---|"
		echo "$oh"
		echo
		echo "## 2. Noise: CoeffVar (%) of the primary metric, 10 iterations"
		echo
		echo "Steps: off = none; then each step alone; defaults = the bench's config as shipped."
		echo "heaprelease sweeps PATTERN (mprotect, madvise): one figure each."
		echo
		echo "| bench (size) | off | warm-up | CPU=last | DROP_CACHES | COMPACT | defaults | smallest change detected, defaults, 10+10 iterations |"
		echo "|---|---|---|---|---|---|---|---|"
		noise_row "timedmunlock ($size)" "$tm"
		noise_row "sparsemunmap (16T)" "$sm"
		noise_row "heaprelease (2 threads)" "$hr"
		noise_row "procmunmap ($size)" "$pm"
		echo
		echo "The last column is 1.325 x CoeffVar: the difference of means that"
		echo "10 against 10 iterations find with 80% power at α = 0.05."
		echo
		echo "## 3. A/A and 4. power (timedmunlock, $size; gate: 5%, Welch, α = 0.05)"
		echo
		echo "| check | result |"
		echo "|---|---|"
		echo "| A/A: same config twice, 10 iterations each; the gate wrongly fails | $aa_fail of $repeats |"
		echo "| power: SIZE against 1.1 x SIZE (10% more pages), 10 iterations each; caught | $caught of $repeats |"
		echo "| power with ITERATIONS=auto (CI_TARGET 1%); caught | $auto_caught of $repeats |"
		echo "| iterations auto used per run, mean: SIZE / 1.1 x SIZE | $(awk -v a="$iters_a" -v b="$iters_b" -v n="$repeats" 'BEGIN { printf "%.1f / %.1f", a / n, b / n }') |"
	} >"$out"
	say "wrote $out"
}

main
