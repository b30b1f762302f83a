# Every step of a series (bisect.sh without --first): the measured points
# cut the list into intervals; each interval whose ends differ beyond the
# step threshold is searched (pick.sh: bisect_every_points) until its ends
# are adjacent images or commits, reusing every point measured.  A series
# with k steps takes at most k * ceil(log2 N) + 2 boots: every point
# measured after the ends lies on the halving path of at least one step.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_EVERY:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_EVERY=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/fleet.sh"  # bisect_fleet_round
source "${BASH_SOURCE[0]%/*}/measure.sh"  # bisect_last, bisect_point
source "${BASH_SOURCE[0]%/*}/pick.sh"  # bisect_every_changes, bisect_every_points, bisect_pairs
source "${BASH_SOURCE[0]%/*}/tree.sh"  # tree_checkout, tree_point
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say

# Whether two measured runs differ by a step: the gate's test (mmstat's
# Welch t-test, 95%) calls the difference significant, and it is at least
# --threshold percent of the first, or without it at least a tenth of the
# change between the ends: drift smaller than that stays within a level
# and shows in the report as unexplained.
bisect_runs_differ() {
	local a=$1 b=$2 json
	json=$("$MMDELTA_BUILD/bin/mmstat" --format json -- "$OUT/$a" "$OUT/$b" 2>"$WORK/mmstat.err") ||
		die "$(sed 's/^mmstat: //' "$WORK/mmstat.err" | tail -n 1)"
	jq -e --arg b "$BENCH" --arg m "$METRIC" --arg t "$THRESHOLD" \
		--argjson g "$GOOD_MEAN" --argjson e "$BAD_MEAN" '
		.benches[] | select(.name == $b) | .metrics[] | select(.metric == $m) | .params[0] as $p
		| $p.runs[1].test as $x
		| ($p.runs[1].mean - $p.runs[0].mean | fabs) as $d
		| $x.significant and (if $t == "" then $d >= (($e - $g) | fabs) / 10
			else ($x.diff_pct | fabs) >= ($t | tonumber) end)' <<<"$json" >/dev/null
}

# The FLAGS word list for pick.sh: one per pair of consecutive measured
# points.  Each pair's answer is kept (BISECT_DIFFER), so a pair is
# compared once however many rounds follow.
bisect_every_flags() {
	local a b key flags=""
	while read -r a b; do
		key="$a $b"
		if [ -z "${BISECT_DIFFER[$key]:-}" ]; then
			BISECT_DIFFER[$key]=0
			if bisect_runs_differ "${LABELS[a]}" "${LABELS[b]}"; then BISECT_DIFFER[$key]=1; fi
		fi
		flags+="${flags:+ }${BISECT_DIFFER[$key]}"
	done < <(bisect_pairs "${STATE[@]}")
	echo "$flags"
}

# Measure point I: an image, or a commit checked out and built.
bisect_every_measure() {
	local i=$1
	if [ -n "$TREE" ]; then
		tree_checkout "${COMMITS[i]}"
		tree_point step
	else
		bisect_point step "${LABELS[i]}" "${IMAGES[i]}"
	fi
}

# A round: the points one after another (each its own round), or with
# --slurm at once; then each is measured or skipped.
bisect_every_round() {
	local i
	if [ "$SLURM" = 1 ]; then
		bisect_fleet_round "${@/#/step:}"
	else
		for i in "$@"; do ROUND=$((ROUND + 1)); bisect_every_measure "$i"; done
	fi
	for i in "$@"; do
		if [ "$(bisect_last verdict "${LABELS[i]}")" = measured ]; then STATE[i]=m; else STATE[i]=skip; fi
	done
}

# The search, once the ends are measured and differ: sets CHANGES, one line
# per step in order, "culprit LAST_GOOD FIRST_BAD" or "ambiguous LAST_GOOD
# FIRST_BAD CANDIDATE..." (run names).
bisect_every() {
	local n=${#LABELS[@]} i flags kind a b
	local -a pts
	STATE=()
	for ((i = 0; i < n; i++)); do STATE+=(-); done
	STATE[0]=m STATE[n - 1]=m
	while :; do
		flags=$(bisect_every_flags)
		mapfile -t pts < <(bisect_every_points "${JOBS:-1}" "$flags" "${STATE[@]}")
		[ ${#pts[@]} -gt 0 ] || break
		bisect_every_round "${pts[@]}"
	done
	CHANGES=()
	while read -r kind a b; do
		if [ "$kind" = culprit ]; then
			CHANGES+=("culprit ${LABELS[a]} ${LABELS[b]}")
		else
			CHANGES+=("ambiguous ${LABELS[a]} ${LABELS[b]} ${LABELS[*]:a+1:b-a}")
		fi
	done < <(bisect_every_changes "$flags" "${STATE[@]}")
}

# The tree form's list of points: GOOD, then the commits to BAD along the
# first-parent line, oldest first (a merge counts as one point).
bisect_every_commits() {
	local i
	mapfile -t COMMITS < <(echo "$GOOD_SHA"; tree_git rev-list --reverse --first-parent --ancestry-path "$GOOD_SHA..$BAD_SHA")
	[ "$(tree_git rev-parse "${COMMITS[1]}^")" = "$GOOD_SHA" ] ||
		die "GOOD $GOOD is not on BAD's first-parent line; bisect across the merge with --first (git bisect)"
	LABELS=()
	for i in "${COMMITS[@]}"; do LABELS+=("${i:0:12}"); done
}
