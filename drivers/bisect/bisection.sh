# The bisection itself, for bisect.sh: the arguments as every point's
# run.sh gets them, the checks of the config, metric and images, the ends
# and whether they differ, the rounds of the images form and the tree form,
# and the report at the end.  Which points to measure is pick.sh's, how a
# point is measured and judged measure.sh's, the tree's steps tree.sh's.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_BISECTION:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_BISECTION=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/exit.sh"  # exit_verdict
source "${BASH_SOURCE[0]%/*}/every.sh"  # bisect_every, bisect_every_commits
source "${BASH_SOURCE[0]%/*}/fleet.sh"  # bisect_fleet_ends, bisect_fleet_round
source "${BASH_SOURCE[0]%/*}/measure.sh"  # bisect_boundary, bisect_display, bisect_last, bisect_point, bisect_show, bisect_verdict_of
source "${BASH_SOURCE[0]%/*}/pick.sh"  # bisect_outcome, bisect_points
source "${BASH_SOURCE[0]%/*}/profile.sh"  # bisect_profile_measure
source "${BASH_SOURCE[0]%/*}/report.sh"  # bisect_report
source "${BASH_SOURCE[0]%/*}/tree.sh"  # tree_bisect, tree_end, tree_git, tree_restore, tree_save
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say
source "${BASH_SOURCE[0]%/*}/../monitors/monitors.sh"  # monitor_ordered
source "${BASH_SOURCE[0]%/*}/../vm/image.sh"  # vm_image_problem, vm_image_release
source "${BASH_SOURCE[0]%/*}/../vm/resolution.sh"  # vm_resolution_cv, vm_resolution_exact

# CONFIG (a path made absolute: tree steps run in the tree) and the
# arguments every run.sh of the bisection gets.
bisect_run_args() {
	local s
	CONFIG=${POS[0]}
	[[ $CONFIG != */* ]] || CONFIG=$(realpath -m "$CONFIG")
	SET_ARGS=()
	for s in "${SETS[@]}"; do SET_ARGS+=(--set "$s"); done
	RUN_ARGS=("${SET_ARGS[@]}" "${VM_ARGS[@]}")
}

# What a tree step needs: the arguments as resolved (absolute paths, the
# commits as hashes, the metric named), for parse_args, and the bench;
# series.sh keeps them too (a dry run finds the builds of a tree by them).
bisect_save_state() {
	local -a argv=(-o "$RESULTS" -n "$NAME" -i "$ITERATIONS" --metric "$METRIC" "${RUN_ARGS[@]}")
	[ -z "$THRESHOLD" ] || argv+=(--threshold "$THRESHOLD")
	if [ -n "$TREE" ]; then
		argv+=(--tree "$TREE" --build "$BUILD" --image "$IMAGE_PATH" "$CONFIG" "$GOOD_SHA" "$BAD_SHA")
	else
		argv+=("$CONFIG" "${IMAGES[@]}")
	fi
	mkdir -p "$WORK"
	printf '%s\0' "${argv[@]}" >"$WORK/argv"
	printf '%s\n' "$BENCH" >"$WORK/bench"
	printf '%s\n' "$BISECT_MONITORS" >"$WORK/monitors"
	: >"$WORK/steps.tsv"
}

# What a point will run, checked once up front: the config and --set as
# run.sh resolves them (its dry run; the guests run the bench, not this
# host, so the host's load is no refusal), the metric, the iterations.
bisect_check_bench() {
	local dump
	dump=$(MMDELTA_DRY_FOR_GUEST=1 "$MMDELTA_ROOT/run.sh" --dry-run -i "${ITERATIONS:-2}" "${SET_ARGS[@]}" "$CONFIG") || exit 2
	bisect_check_config "$dump"
	bisect_check_metric
	bisect_check_iterations
}

# BENCH from the resolved config; one value per key, since a point's
# figure must be one number.
bisect_check_config() {
	local sweep
	BENCH=$(sed -n 's/^BENCH=//p' <<<"$1")
	BISECT_MONITORS=$(sed -n 's/^MONITORS=//p' <<<"$1")
	sweep=$(awk -F= '/^[A-Z_]+=/ && $1 != "DESCRIPTION" && index($0, " ") { print $1; exit }' <<<"$1")
	[ -z "$sweep" ] || die "${CONFIG##*/}: $sweep is a sweep; bisect one value (--set $sweep=VALUE)"
}

# The metric: the bench's (its --describe), or else one that a monitor the
# config runs records (a context switch count, mmap_lock's write hold), as
# the monitor describes it in metrics.tsv.
# shellcheck disable=SC2034  # METRIC_BETTER: read by measure.sh
bisect_check_metric() {
	local described mons
	described=$("$MMDELTA_BUILD/bin/$BENCH" --describe) || die "bench/$BENCH --describe failed"
	[ -n "$METRIC" ] || METRIC=$(awk -F'\t' 'NR == 1 { print $1 }' <<<"$described")
	METRIC_UNIT="" METRIC_BETTER=""
	read -r METRIC_UNIT METRIC_BETTER < <(awk -F'\t' -v m="$METRIC" '$1 == m { print $3, $4 }' <<<"$described") || true
	[ -n "$METRIC_UNIT" ] || read -r METRIC_UNIT METRIC_BETTER < <(bisect_monitor_metric | cut -f3,4 | tr '\t' ' ') || true
	[ -n "$METRIC_UNIT" ] && return 0
	mons=$(monitor_ordered "$BISECT_MONITORS" | paste -sd ,)
	if [ -n "$mons" ]; then mons="none of its monitors ($mons) records it"; else mons="no monitor runs (--set MONITORS=...)"; fi
	die "--metric $METRIC: $BENCH has no such metric ($(cut -f1 <<<"$described" | tr '\n' ' ' | sed 's/ $//')) and $mons"
}

# METRIC's metrics.tsv fields, when a monitor of BISECT_MONITORS records it
# (the guest runs it; the host's answer to NAME_available matters only for
# perfstat, whose events are those this machine's perf counts).
bisect_monitor_metric() {
	local m
	for m in $(monitor_ordered "$BISECT_MONITORS"); do
		"${m}_available" >/dev/null 2>&1 || true
		"${m}_metrics" | grep -qx -- "$METRIC" || continue
		"${m}_describe" "$METRIC"
		return 0
	done
	return 1
}

# Without -i: two iterations where the bench's icount figures are exact,
# more where they spread (drivers/vm/resolution.tsv).
bisect_check_iterations() {
	local file=$CONFIG
	[ -z "$ITERATIONS" ] || return 0
	[[ $file == */* ]] || file=$MMDELTA_ROOT/configs/$file
	ITERATIONS=$BISECT_EXACT_ITERATIONS
	# shellcheck disable=SC2046  # one word a pair
	vm_resolution_exact "$(vm_resolution_cv "$BENCH" "$METRIC" $(vm_resolution_file_pairs "$file"))" ||
		ITERATIONS=$BISECT_NOISY_ITERATIONS
}

bisect_check_images() {
	local image problem i=0 release
	IMAGES=("${POS[@]:1}") LABELS=()
	for image in "${IMAGES[@]}"; do
		problem=$(vm_image_problem "$image")
		[ -z "$problem" ] || die "$image: $problem"
		release=$(vm_image_release "$image")
		LABELS+=("$(printf '%02d-%s' "$i" "${release:-$(basename "$image")}" | tr -c 'A-Za-z0-9._+\n-' _)")
		i=$((i + 1))
	done
	for i in "${!IMAGES[@]}"; do IMAGES[i]=$(realpath "${IMAGES[i]}"); done
}

# GOOD_RUN, GOOD_MEAN, BAD_RUN, BAD_MEAN and BOUNDARY from the ends' lines
# of steps.tsv (the step script of tree mode reads them there too); the
# columns are BISECT_STEP_FIELDS: 1 role, 2 run, 6 verdict, 7 mean.
bisect_load_ends() {
	read -r GOOD_RUN GOOD_MEAN < <(awk -F'\t' '$1 == "good end" && $6 == "measured" { r = $2; m = $7 } END { print r, m }' "$WORK/steps.tsv")
	read -r BAD_RUN BAD_MEAN < <(awk -F'\t' '$1 == "bad end" && $6 == "measured" { r = $2; m = $7 } END { print r, m }' "$WORK/steps.tsv")
	# shellcheck disable=SC2034  # read by measure.sh
	BOUNDARY=$(bisect_boundary)
	[ ! -f "$WORK/noisy" ] || BISECT_NOISY=$(<"$WORK/noisy")
}

# Do the measured ends differ: significantly (the gate's t-test, mmstat),
# and by at least --threshold?  Says why not and returns 1.
bisect_ends_differ() {
	local json test sig pct div unit
	bisect_load_ends
	bisect_noise_check
	echo "$BISECT_NOISY" >"$WORK/noisy"
	json=$("$MMDELTA_BUILD/bin/mmstat" --format json -- "$OUT/$GOOD_RUN" "$OUT/$BAD_RUN" 2>"$WORK/mmstat.err") ||
		die "$(sed 's/^mmstat: //' "$WORK/mmstat.err" | tail -n 1)"
	test=$(jq -c --arg b "$BENCH" --arg m "$METRIC" \
		'.benches[] | select(.name == $b) | .metrics[] | select(.metric == $m) | .params[0].runs[1].test' <<<"$json")
	read -r sig pct < <(jq -r '"\(.significant) \(.diff_pct)"' <<<"$test")
	if [ "$sig" != true ]; then
		IFS=$'\t' read -r div unit < <(bisect_display "$GOOD_RUN" "$BAD_RUN")
		# shellcheck disable=SC2016  # a jq filter
		say "bisect: the ends do not differ: $METRIC $(bisect_show '"good \($g | show($div; $u; $gh)), bad \($b | show($div; $u; $bh))"' \
			"$div" "$unit" g "$GOOD_MEAN" gh "$(bisect_last half "$GOOD_RUN")" b "$BAD_MEAN" bh "$(bisect_last half "$BAD_RUN")") ($(jq -r .text <<<"$test"))"
		return 1
	fi
	pct=$(awk -v p="$pct" 'BEGIN { printf "%.2f", p < 0 ? -p : p }')
	if [ -n "$THRESHOLD" ] && awk -v p="$pct" -v t="$THRESHOLD" 'BEGIN { exit !(p < t) }'; then
		say "bisect: the ends differ by only $pct%, less than --threshold $THRESHOLD%"
		return 1
	fi
}

# A round: the chosen points measured one after another (each its own
# round), or with --slurm at once as Slurm jobs; then their verdicts into V.
bisect_round() {
	local i
	if [ "$SLURM" = 1 ]; then
		bisect_fleet_round "${@/#/step:}"
	else
		for i in "$@"; do ROUND=$((ROUND + 1)); bisect_point step "${LABELS[i]}" "${IMAGES[i]}"; done
	fi
	for i in "$@"; do V[i]=$(bisect_verdict_of "${LABELS[i]}"); done
}

bisect_images() {
	local n=${#IMAGES[@]} lo hi outcome pts
	V=()
	for ((i = 0; i < n; i++)); do V+=(-); done
	if [ "$SLURM" = 1 ]; then
		bisect_fleet_ends
	else
		bisect_end "good end" 0
		bisect_end "bad end" $((n - 1))
	fi
	V[0]=good V[n - 1]=bad
	if ! bisect_ends_differ; then bisect_report "no difference" "" ""; exit_verdict 3; fi
	if [ "$BISECT_FIRST" = 0 ]; then bisect_every; bisect_finish_every; fi
	while :; do
		mapfile -t pts < <(bisect_points "${JOBS:-1}" "${V[@]}")
		[ ${#pts[@]} -gt 0 ] || break
		bisect_round "${pts[@]}"
	done
	read -r outcome lo hi < <(bisect_outcome "${V[@]}")
	if [ "$outcome" = culprit ]; then
		bisect_finish culprit "${LABELS[lo]}" "${LABELS[hi]}"
	fi
	CANDIDATES="${LABELS[*]:lo+1:hi-lo}"
	bisect_finish ambiguous "${LABELS[lo]}" ""
}

bisect_end() {
	ROUND=$((ROUND + 1))
	bisect_point "$1" "${LABELS[$2]}" "${IMAGES[$2]}"
	[ "$VERDICT" != skip ] || die "the $1 ${IMAGES[$2]} cannot be measured: $(bisect_last note)"
}

bisect_tree_main() {
	local parent
	tree_save
	tree_end "good end" "$GOOD_SHA"
	tree_end "bad end" "$BAD_SHA"
	tree_restore
	if ! bisect_ends_differ; then bisect_report "no difference" "" ""; exit_verdict 3; fi
	tree_save
	if [ "$BISECT_FIRST" = 0 ]; then
		bisect_every_commits
		bisect_every
		tree_restore
		bisect_finish_every
	fi
	tree_bisect
	tree_restore
	if [ -n "$CULPRIT_SHA" ]; then
		parent=$(tree_git rev-parse "$CULPRIT_SHA^")
		bisect_finish culprit "${parent:0:12}" "${CULPRIT_SHA:0:12}"
	fi
	bisect_finish ambiguous "" ""
}

# The steps found: one named step ends as the first-step search does; with
# more, the report and one line naming each.  Exit 0 when each is named, 3
# when one is hidden by skipped points (inconclusive).
bisect_finish_every() {
	local kind good bad
	read -r kind good bad _ <<<"${CHANGES[0]}"
	if [ ${#CHANGES[@]} = 1 ]; then
		[ "$kind" = culprit ] || { CANDIDATES=$(cut -d' ' -f4- <<<"${CHANGES[0]}"); bad=""; }
		bisect_finish "$kind" "$good" "$bad"
	fi
	# the profile difference, as bisect.json's first-step keys, is the first step's
	[ "$kind" != culprit ] || bisect_profile_measure "$good" "$bad"
	if [ "$kind" = culprit ]; then bisect_report culprit "$good" "$bad"; else bisect_report ambiguous "$good" ""; fi
	say "bisect: ${#CHANGES[@]} steps: $(jq -r '(if .better == "lower" then -1 else 1 end) as $sg | [.changes[] | if .result == "culprit" then "first bad \(.first_bad.run) (last good \(.last_good.run), \(.pct * $sg + 0 | if . >= 0 then "+\(.)" else "\(.)" end)%)"
		else "after \(.last_good.run // "?"), one of \(.candidates | join(" "))" end] | join("; ")' "$OUT/bisect.json"); $(jq -r '"\(.boots) boots"' "$OUT/bisect.json"); report in $OUT/bisect.txt"
	! grep -q '^ambiguous' < <(printf '%s\n' "${CHANGES[@]}") || exit_verdict 3
	exit 0
}

# Write the report and exit: 0 when a culprit is named, else 3 (inconclusive).
bisect_finish() {
	[ ${#CHANGES[@]} -gt 0 ] || CHANGES=("$1 ${2:--} ${3:--} ${CANDIDATES:-}")
	[ "$1" != culprit ] || bisect_profile_measure "$2" "$3"
	bisect_report "$@"
	if [ "$1" = culprit ]; then
		say "bisect: first bad $3 (last good $2), $(jq -r '"\(.boots) boots" + if .rounds then " in \(.rounds) rounds" else "" end' "$OUT/bisect.json"); report in $OUT/bisect.txt"
		exit 0
	fi
	say "bisect: no single culprit: skipped points leave ${CANDIDATES}; report in $OUT/bisect.txt"
	exit_verdict 3
}
