#!/bin/bash
# make selfcheck: the suite measured as a measuring instrument.  Writes a
# markdown report (default docs/selfcheck.md) of
#   1. the harness's overhead on the timed region,
#   2. each bench's noise (CoeffVar) without and with each noise-control step,
#   3. the sequential gate (tools/selfcheck-gate.sh): how often it calls a
#      run of the same config a REGRESSION, how often it catches 10% more
#      pages, and in how many iterations.
# Not part of make test: it takes about twenty minutes on a quiet machine.
# Sizes are scaled down from the threads' so that it does (populating 4G
# takes seconds on this VM, 1G a fraction); each figure says its size.
# SELFCHECK_SIZE (default 1G) is the size of the memory benches,
# SELFCHECK_SEQUENCES (default 20) the number of gate sequences; see
# tools/selfcheck-gate.sh for the rest.
set -euo pipefail
MMDELTA_ROOT=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$MMDELTA_ROOT/docs/selfcheck.md}
size=${SELFCHECK_SIZE:-1G}
res=$(mktemp -d "${TMPDIR:-/tmp}/mmdelta-selfcheck.XXXXXX")
trap 'rm -rf "$res"' EXIT
log=$res/log

say() { printf 'selfcheck: %s\n' "$*" >&2; }
run() { "$MMDELTA_ROOT/run.sh" -o "$res" "$@" >>"$log" 2>&1 || { tail -n 5 "$log" >&2; exit 1; }; }

# CoeffVar of the primary metric of RUN: "cv", or "param=cv/param=cv" for a sweep.
cv_of() {
	"$MMDELTA_ROOT/compare.sh" -o "$res" --format json "$1" "$1" 2>/dev/null |
		jq -r '.benches[0].metrics[0].params[] | "\(.param)=\((.runs[0].cv // 0) * 100 | round / 100)"' |
		sed 's/^-=//' | paste -sd/
}

overhead() {
	local bytes pairs=30 line
	bytes=$("$MMDELTA_ROOT/build/bin/timedmunlock" --check --size "$size" | sed -n '2p')
	say "overhead: suite against tools/minimunlock, $pairs alternating pairs at $size"
	line=$("$MMDELTA_ROOT/tools/overhead.sh" "$bytes" "$pairs")
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
	detectable "noise-$bench-default"
}

# The smallest change of the mean that RUN against a run like it finds
# with 80% power at alpha 0.05, as compare.sh says it (the detectable change
# of the test of RUN against itself: 10 + 10 iterations, the same spread).
detectable() {
	"$MMDELTA_ROOT/compare.sh" -o "$res" --format json "$1" "$1" 2>/dev/null |
		jq -r '.benches[0].metrics[0].params[] | "\(.param)=\((.runs[1].test.mde_pct // 0) * 10 | round / 10)%"' |
		sed 's/^-=//' | paste -sd/
}

# One markdown row: LABEL and the six CoeffVar fields of noise().
noise_row() {
	local f
	read -r -a f <<<"$2"
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "${f[@]}"
}

main() {
	local started=$SECONDS tm sm hr pm
	make -s -C "$MMDELTA_ROOT" all >&2
	"$MMDELTA_ROOT/libexec/deps.sh"
	local oh
	oh=$(overhead)
	tm=$(noise timedmunlock "$size")
	sm=$(noise sparsemunmap "")
	hr=$(noise heaprelease "")
	pm=$(noise procmunmap "$size")
	SELFCHECK_SEQUENCES=${SELFCHECK_SEQUENCES:-20} "$MMDELTA_ROOT/tools/selfcheck-gate.sh" "$res/gate.md"
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
		echo "The last column is compare.sh's detectable change (80% power, α = 0.05) of"
		echo "the defaults' run against a run like it: 10 + 10 iterations, the same spread."
		echo
		echo "## 3. The gate on real runs: A/A and power, sequential mode"
		echo
		echo "Each sequence: a baseline, then two candidates with \`-i auto --baseline\`;"
		echo "the verdict is \`compare.sh --gate 5\`'s exit status (docs/gate.md)."
		echo
		cat "$res/gate.md"
	} >"$out"
	say "wrote $out"
}

main
