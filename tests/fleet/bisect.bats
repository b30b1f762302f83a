#!/usr/bin/env bats
# The K-ary bisection on Slurm: bisect.sh --slurm --jobs 3 over the Debian
# 6.1 series, each round's three points as three jobs at once, against the
# sequential bisection of the same series on this machine.  Both under the
# icount clock, so both must name the same pair, and every image both
# measured must have the same figures; the K-ary one needs fewer rounds.
# The two run one after the other, so their wall times compare (the
# cluster's four nodes share this machine's two CPUs: three guests at once
# take longer each than one alone).

bats_require_minimum_version 1.5.0
load fleet

ARGS=(-i 2 --set SIZE=64M --set WARMUP=0 --set MONITORS=none --vm-mem 1536M)

setup_file() {
	fleet_setup_file
	mapfile -t SERIES < <("$ROOT/tests/kernels/fetch-debian-kernels.sh" | grep '^6\.1\.0-' | cut -f2)
	[ ${#SERIES[@]} -ge 5 ] || skip "the archive serves ${#SERIES[@]} Debian 6.1 cloud kernels; K-ary needs 5"
	local t0=$SECONDS
	"$ROOT/bisect.sh" -o "$RES" -n seq "${ARGS[@]}" timedmunlock "${SERIES[@]}" \
		2>"$BATS_FILE_TMPDIR/seq.err" || echo $? >"$BATS_FILE_TMPDIR/seq.rc"
	SEQ_S=$((SECONDS - t0)) t0=$SECONDS
	"$ROOT/bisect.sh" -o "$RES" -n kary --slurm --jobs 3 "${ARGS[@]}" timedmunlock "${SERIES[@]}" \
		2>"$BATS_FILE_TMPDIR/kary.err" || echo $? >"$BATS_FILE_TMPDIR/kary.rc"
	KARY_S=$((SECONDS - t0))
	echo "# ${#SERIES[@]} kernels: sequential $(J seq .rounds) rounds, $(J seq .boots) boots, $SEQ_S s;" \
		"--slurm --jobs 3 $(J kary .rounds) rounds, $(J kary .boots) boots, $KARY_S s" \
		"(ratio $(awk -v a="$KARY_S" -v b="$SEQ_S" 'BEGIN { printf "%.2f", a / b }'));" \
		"named $(J kary .last_good.release) -> $(J kary .first_bad.release); loadavg $(cut -d' ' -f1-3 /proc/loadavg)" >&3
	export SERIES_N=${#SERIES[@]}
}

teardown_file() { fleet_teardown_file; }

J() { jq -r "$2" "$RES/$1/bisect.json"; }

@test "both name a culprit, the same pair" {
	[ ! -e "$BATS_FILE_TMPDIR/seq.rc" ] && [ ! -e "$BATS_FILE_TMPDIR/kary.rc" ]
	[ "$(J seq .result)" = culprit ] && [ "$(J kary .result)" = culprit ]
	[ "$(J kary .first_bad.release)" = "$(J seq .first_bad.release)" ]
	[ "$(J kary .last_good.release)" = "$(J seq .last_good.release)" ]
	[ "$(J kary .slurm)" = true ] && [ "$(J kary .jobs)" = 3 ]
}

@test "the K-ary one takes fewer rounds: the ends, then at most ceil(log4 N) rounds of 3 at once" {
	local bound
	bound=$(awk -v n="$SERIES_N" 'BEGIN { r = 0; while (4 ^ r < n - 1) r++; print r + 1 }')
	[ "$(J kary .rounds)" -lt "$(J seq .rounds)" ]
	[ "$(J kary .rounds)" -le "$bound" ]
	# Each round's points ran at once: all started before any ended.
	local r runs s e
	for r in $(J kary '[.steps[] | .round] | unique | .[]'); do
		runs=$(J kary "[.steps[] | select(.round == $r) | .run] | unique | .[]")
		[ "$(wc -l <<<"$runs")" -ge 2 ] || continue
		s=$(for x in $runs; do date -d "$(meta "$RES/kary/$x" start_time)" +%s; done | sort -n | tail -n 1)
		e=$(for x in $runs; do date -d "$(meta "$RES/kary/$x" end_time)" +%s; done | sort -n | head -n 1)
		[ "$s" -lt "$e" ] || { echo "round $r: last start $s, first end $e"; return 1; }
	done
}

@test "every point was a Slurm job, and its figures equal the sequential run of the same image" {
	local run img other n=0
	for run in $(J kary '[.steps[] | select(.verdict != "skip") | .run] | unique | .[]'); do
		[[ $(meta "$RES/kary/$run" slurm_job_id) =~ ^[0-9]+$ ]]
		[[ $(meta "$RES/kary/$run" slurm_node) == node[1-4] ]]
		img=$(J kary "[.steps[] | select(.run == \"$run\")] | last | .image")
		other=$(J seq "[.steps[] | select(.image == \"$img\")] | last | .run // empty")
		[ -n "$other" ] || continue
		cmp "$RES/kary/$run/timedmunlock/samples.tsv" "$RES/seq/$other/timedmunlock/samples.tsv"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ]
	grep -q '^  boots:     .*, in .* rounds of up to 3 points at once, as Slurm jobs$' "$RES/kary/bisect.txt"
}
