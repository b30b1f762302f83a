# bisect.sh --slurm --jobs K: the points of a round are measured at once,
# each one Slurm job.  A point is still bisect_point (measure.sh), run in a
# subshell of its own; its run.sh gets --slurm --wait, so the submission,
# the job's placement, requeue after a dead node, and the report of a
# failed job are run.sh's (drivers/fleet/fleet.sh), not a second copy here.
# K points a round cut the undecided range into K+1 parts, so N images take
# about log_(K+1) N rounds after the ends (pick.sh chooses them).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_FLEET:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_FLEET=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/measure.sh"  # bisect_last, bisect_point
source "${BASH_SOURCE[0]%/*}/../fleet/fleet.sh"  # fleet_partition, fleet_sinfo

# The Slurm options must make sense together, and the cluster must answer,
# before anything is written or queued.
bisect_fleet_check() {
	local parts part o
	if [ "$SLURM" = 0 ]; then
		[ -z "$JOBS" ] || die "--jobs needs --slurm: the points of a round are measured at once as Slurm jobs"
		[ ${#SLURM_OPTS[@]} -eq 0 ] || die "--slurm-opt needs --slurm"
		return 0
	fi
	[ -z "$TREE" ] || die "--slurm goes with the images form: in a tree, git bisect chooses one commit at a time"
	parts=$(fleet_sinfo -h -o '%P')
	# shellcheck disable=SC2034  # read by fleet_partition
	FLEET_OPTS=("${SLURM_OPTS[@]}")
	part=$(fleet_partition)
	[ -n "$part" ] || die "the cluster has no default partition; name one with --slurm-opt --partition=NAME"
	grep -qx -- "$part\\*\\?" <<<"$parts" ||
		die "partition '$part' is not in the cluster (it has: $(tr -d '*' <<<"$parts" | sort -u | tr '\n' ' ' | sed 's/ $//'))"
	JOBS=${JOBS:-1}
	SLURM_ARGS=(--slurm --wait)
	for o in "${SLURM_OPTS[@]}"; do SLURM_ARGS+=(--slurm-opt "$o"); done
}

# bisect_fleet_round ROLE:INDEX...: measure those images at once, each
# bisect_point in a subshell, and return when all have ended.  A point that
# failed on the host said why in its own line; the others are let bisect_finish
# (their runs are kept), then the bisection ends.
bisect_fleet_round() {
	local spec i pid rc=0
	ROUND=$((ROUND + 1))
	say "bisect: round $ROUND: $(for spec in "$@"; do printf '%s ' "${LABELS[${spec#*:}]}"; done)at once"
	BISECT_ROUND_PIDS=()
	for spec in "$@"; do
		i=${spec#*:}
		(
			trap 'bisect_stop_child; exit 130' TERM
			bisect_point "${spec%%:*}" "${LABELS[i]}" "${IMAGES[i]}"
		) &
		BISECT_ROUND_PIDS+=($!)
	done
	for pid in "${BISECT_ROUND_PIDS[@]}"; do wait "$pid" || rc=1; done
	BISECT_ROUND_PIDS=()
	[ "$rc" = 0 ] || exit 2
}

# The ends, measured together as the first round.
bisect_fleet_ends() {
	local n=${#IMAGES[@]} role i
	bisect_fleet_round "good end:0" "bad end:$((n - 1))"
	for role in "good end:0" "bad end:$((n - 1))"; do
		i=${role#*:}
		[ "$(bisect_last verdict "${LABELS[i]}")" = measured ] ||
			die "the ${role%%:*} ${IMAGES[i]} cannot be measured: $(bisect_last note "${LABELS[i]}")"
	done
}

# On Ctrl-C or SIGTERM: stop the points being measured (each stops its
# run.sh --wait), then cancel the bisection's jobs still queued or running
# (scancel says nothing of those that ended).  The job ids are in the
# manifests run.sh --slurm keeps in the bisection's own results root.
bisect_fleet_stop() {
	local pid ids
	[ "$SLURM" = 1 ] || return 0
	for pid in "${BISECT_ROUND_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
	for pid in "${BISECT_ROUND_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
	mapfile -t ids < <(cat "$OUT"/.fleet/*.jobs "$OUT"/.fleet/.jobs.* 2>/dev/null | cut -f1 | sort -u)
	[ ${#ids[@]} -eq 0 ] || scancel "${ids[@]}" 2>/dev/null || true
}
