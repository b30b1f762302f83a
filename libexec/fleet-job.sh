#!/bin/bash
# The batch script of a run.sh --slurm job, on the node Slurm chose:
#   fleet-job.sh RESULTS NAME run|vm RUN.SH-ARGS...
# (run: the node needs the run set of libexec/deps.sh; vm: the vm set too)
# It checks the node has what the run needs, replaces what an earlier
# attempt of this same job left (a requeue after its node died), runs
# run.sh into the shared results root, and leaves RESULTS/.fleet/JOB.result
# for whoever follows the submission.  NAME may start with %r, the node's
# own kernel release (--each-node without -n).
set -euo pipefail

# Slurm runs a copy of this script from its spool: the tree comes from the
# submitting run.sh, through the job's environment.
MMDELTA_ROOT=${MMDELTA_ROOT:?MMDELTA_ROOT is set by run.sh --slurm}
source "$MMDELTA_ROOT/drivers/core/log.sh"  # die, say
source "$MMDELTA_ROOT/drivers/run/rundir.sh"  # meta_get

RESULTS=$1 NAME=$2 SET=$3
shift 3
JOB=${SLURM_JOB_ID:?not a Slurm job} NODE=${SLURMD_NODENAME:-$(uname -n)} ATTEMPT=${SLURM_RESTART_COUNT:-0}
NAME=${NAME//%r/$(uname -r)}

# RESULTS/.fleet/JOB.result: status, node, run name, attempt, reason.
# Written whole (rename), so a reader never sees half of it.
result() {
	local tmp
	tmp=$(mktemp "$RESULTS/.fleet/.$JOB.XXXXXX")
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$NODE" "$NAME" "$ATTEMPT" "${2:-}" >"$tmp"
	chmod 644 "$tmp"
	mv "$tmp" "$RESULTS/.fleet/$JOB.result"
}

# The job cannot run: its result says why, and so does its log.
job_failed() {
	result failed "$1"
	die "$1"
}

# This job's run, complete or partial, from an earlier attempt: recognised
# by the job id run.sh writes into meta.  A complete one is the answer (the
# node died after the run finished, before Slurm heard of it); a partial
# one is what a dead node left, and is replaced.
earlier_attempt() {
	local final=$RESULTS/$NAME partial=$RESULTS/.$NAME.partial
	if [ -d "$final" ] && [ "$(meta_get "$final" slurm_job_id)" = "$JOB" ] &&
		[ "$(meta_get "$final" status)" = complete ]; then
		say "run $NAME was completed by attempt $(meta_get "$final" slurm_attempt) of this job"
		result complete
		exit 0
	fi
	if [ -d "$partial" ] && [ "$(meta_get "$partial" slurm_job_id)" = "$JOB" ]; then
		say "replacing $partial, left by attempt $(meta_get "$partial" slurm_attempt) of this job on node $(meta_get "$partial" slurm_node)"
		rm -rf "$partial"
	fi
}

# run.sh's reason for failing: the partial run's reason, else its last
# message that is not the notice about the partial run.
run_reason() {
	local partial=$RESULTS/.$NAME.partial reason
	reason=$(meta_get "$partial" reason)
	[ -n "$reason" ] || reason=$(grep '^mmdelta: ' "$1" | grep -v '^mmdelta: run left partial' |
		tail -n 1 | sed 's/^mmdelta: //')
	echo "${reason:-run.sh failed}"
}

main() {
	local err rc=0 missing sets
	say "job $JOB attempt $ATTEMPT on node $NODE ($(uname -n)): run $NAME"
	mkdir -p "$RESULTS/.fleet"
	# A test node is not changed under a measurement: missing packages fail
	# the job, they are not installed here.
	sets=(run)
	[ "$SET" = run ] || sets+=("$SET")
	missing=$(MMDELTA_DEPS=check "$MMDELTA_ROOT/libexec/deps.sh" "${sets[@]}" 2>&1) ||
		job_failed "node $NODE cannot run it: $(grep -m1 . <<<"$missing" | sed 's/^mmdelta: //')"
	earlier_attempt
	err=$(mktemp)
	# SQLite must not be written by many hosts over a network filesystem:
	# the history database is the submitting host's (or one final job's).
	export MMDELTA_HISTORY=off
	# stderr goes to the job's log as it comes and is kept for the reason.
	{ MMDELTA_DEPS=check "$MMDELTA_ROOT/run.sh" -o "$RESULTS" -n "$NAME" "$@" 2>&1 1>&3 | tee "$err" >&2; } 3>&1 ||
		rc=${PIPESTATUS[0]}
	if [ "$rc" = 0 ]; then
		result complete
	else
		result failed "$(run_reason "$err")"
	fi
	rm -f "$err"
	exit "$rc"
}

main "$@"
