# run.sh --slurm --wait and --slurm-wait: follow a submission's jobs with
# Slurm's own view of them (squeue), then say where the runs are and which
# jobs failed, from the result file each job leaves in RESULTS/.fleet.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_FLEET_WAIT:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_FLEET_WAIT=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say

# Final job states; a job requeued after its node died is PENDING again.
FLEET_FINAL=" COMPLETED FAILED CANCELLED TIMEOUT OUT_OF_MEMORY BOOT_FAIL DEADLINE NODE_FAIL PREEMPTED "

# JOB|STATE|NODE for the jobs Slurm still knows; a job it has forgotten
# (MinJobAge) is not listed.
fleet_squeue() {
	local ids
	ids=$(IFS=,; echo "$*")
	timeout 20 squeue -h -t all -j "$ids" -o '%i|%T|%N' 2>/dev/null
}

fleet_wait_submission() {
	local root=$1 first=$2 manifest=$1/.fleet/$2.jobs poll=${MMDELTA_FLEET_POLL:-5}
	local id n log out s nd pending running ended last="" miss=0
	[ -f "$manifest" ] || die "no submission $first in $root/.fleet (its first job id, as run.sh --slurm printed it)"
	FLEET_IDS=() FLEET_NAMES=() FLEET_LOGS=()
	declare -gA FLEET_STATE=() FLEET_NODE=()
	while IFS=$'\t' read -r id n _ log; do
		FLEET_IDS+=("$id") FLEET_NAMES+=("$n") FLEET_LOGS+=("$log")
		FLEET_STATE[$id]=SUBMITTED
	done <"$manifest"
	while :; do
		if ! out=$(fleet_squeue "${FLEET_IDS[@]}"); then
			miss=$((miss + 1))
			[ "$miss" -lt 12 ] || die "squeue has not answered for $((miss * poll)) s; follow again with --slurm-wait $first"
			sleep "$poll"
			continue
		fi
		miss=0
		local -A seen=()
		while IFS='|' read -r id s nd; do
			[ -n "$id" ] || continue
			[ -n "${FLEET_STATE[$id]:-}" ] || continue
			seen[$id]=1
			fleet_transition "$id" "${FLEET_STATE[$id]}" "$s" "$nd"
			FLEET_STATE[$id]=$s FLEET_NODE[$id]=$nd
		done <<<"$out"
		pending=0 running=0 ended=0
		for id in "${FLEET_IDS[@]}"; do
			[ -n "${seen[$id]:-}" ] || FLEET_STATE[$id]=GONE
			s=${FLEET_STATE[$id]}
			if [ "$s" = GONE ] || [[ $FLEET_FINAL == *" $s "* ]]; then
				ended=$((ended + 1))
			elif [[ " PENDING SUBMITTED REQUEUED CONFIGURING " == *" $s "* ]]; then
				pending=$((pending + 1))
			else
				running=$((running + 1))
			fi
		done
		s="$pending pending, $running running, $ended done of ${#FLEET_IDS[@]}"
		[ "$s" = "$last" ] || say "jobs: $s"
		last=$s
		[ "$ended" -lt "${#FLEET_IDS[@]}" ] || break
		sleep "$poll"
	done
	fleet_report "$root"
}

# One line when a job starts, is requeued or ends.
fleet_transition() {
	local id=$1 old=$2 new=$3 nd=$4
	[ "$old" != "$new" ] || return 0
	case $new in
	RUNNING) say "job $id running on $nd" ;;
	PENDING) [ "$old" != RUNNING ] || say "job $id requeued (its node stopped answering); it will run again" ;;
	*) [[ $FLEET_FINAL != *" $new "* ]] || say "job $id ended: $new${nd:+ on $nd}" ;;
	esac
}

# The result file of a job; it may take a moment to be seen on a network
# filesystem after the job ended.
fleet_result() {
	local f=$1/.fleet/$2.result
	for _ in 1 2 3 4 5; do
		[ ! -f "$f" ] || { cat "$f"; return 0; }
		sleep 1
	done
	return 1
}

fleet_report() {
	local root=$1 i id res status nd name attempt reason failed=0 complete=()
	for i in "${!FLEET_IDS[@]}"; do
		id=${FLEET_IDS[i]}
		if res=$(fleet_result "$root" "$id"); then
			IFS=$'\t' read -r status nd name attempt reason <<<"$res"
		else
			status=failed nd=${FLEET_NODE[$id]:-?} name=${FLEET_NAMES[i]} attempt="?"
			reason="the job ended ${FLEET_STATE[$id]} without a result"
		fi
		if [ "$status" = complete ] && [ -d "$root/$name" ]; then
			echo "$root/$name"
			complete+=("$name")
			[ "$attempt" = 0 ] || say "job $id: run $name completed on attempt $((attempt + 1)), on node $nd"
		else
			say "job $id ($name) failed on node ${nd:-?}: $reason; log: ${FLEET_LOGS[i]}"
			failed=1
		fi
	done
	if [ -s "$root/.fleet/${FLEET_IDS[0]}.history" ]; then
		say "job $(cat "$root/.fleet/${FLEET_IDS[0]}.history") records the runs in $root/history.sqlite"
	else
		fleet_history_ingest "$root" "${complete[@]}"
	fi
	[ ${#complete[@]} -lt 2 ] || say "compare them: $MMDELTA_ROOT/compare.sh -o $root ${complete[*]}"
	return "$failed"
}

# With --wait the submitting host records the runs in the history database
# itself, once, after every job ended.
fleet_history_ingest() {
	local root=$1; shift
	[ $# -gt 0 ] && [ -x "$MMDELTA_ROOT/history.sh" ] || return 0
	"$MMDELTA_ROOT/history.sh" -o "$root" ingest "$@" >&2 ||
		say "recording the runs in $root/history.sqlite failed; history.sh ingest can do it later"
}
