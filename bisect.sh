#!/bin/bash
# bisect.sh: find the kernel that changed a figure, from a list of images or
# a kernel git tree.  Every point is one `run.sh --kernel` run, kept; under
# the icount clock a run repeats bit for bit, so two iterations decide a
# point.  docs/bisect.md says how a point is decided and what the report holds.
#   ./bisect.sh [options] BENCH|CONFIG IMAGE IMAGE...
#   ./bisect.sh [options] --tree DIR --build CMD --image PATH BENCH|CONFIG GOOD BAD
set -euo pipefail

# The script's own directory, symlinks followed (a link on PATH, an
# installed tree).
MMDELTA_ROOT=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
# shellcheck source=drivers/lib/bisect/state.sh
source "$MMDELTA_ROOT/drivers/lib/bisect/state.sh"  # the globals bisect's files share
# shellcheck source=drivers/lib/log.sh
source "$MMDELTA_ROOT/drivers/lib/log.sh"  # say, die
# shellcheck source=drivers/lib/build.sh
source "$MMDELTA_ROOT/drivers/lib/build.sh"  # need_built
# shellcheck source=drivers/lib/rundir.sh
source "$MMDELTA_ROOT/drivers/lib/rundir.sh"  # run names, meta_get
# shellcheck source=drivers/lib/vm.sh
source "$MMDELTA_ROOT/drivers/lib/vm.sh"  # the --vm-* options, the image checks
# shellcheck source=drivers/lib/bisect/pick.sh
source "$MMDELTA_ROOT/drivers/lib/bisect/pick.sh"  # which points next
# shellcheck source=drivers/lib/bisect/measure.sh
source "$MMDELTA_ROOT/drivers/lib/bisect/measure.sh"  # a point's run and verdict
# shellcheck source=drivers/lib/bisect/fleet.sh
source "$MMDELTA_ROOT/drivers/lib/bisect/fleet.sh"  # --slurm: K points a round, at once
# shellcheck source=drivers/lib/bisect/tree.sh
source "$MMDELTA_ROOT/drivers/lib/bisect/tree.sh"  # the tree form, git bisect
# shellcheck source=drivers/lib/bisect/report.sh
source "$MMDELTA_ROOT/drivers/lib/bisect/report.sh"  # bisect.json, bisect.txt

usage() {
	cat <<'EOF'
usage: ./bisect.sh [options] BENCH|CONFIG IMAGE IMAGE...
       ./bisect.sh [options] --tree DIR --build CMD --image PATH BENCH|CONFIG GOOD BAD

Images are given oldest first: the first is good, the last bad.  In a tree,
GOOD and BAD are commits, BAD a descendant of GOOD; CMD is run in DIR to
build the kernel, which it leaves at PATH (relative to DIR).

  -o DIR             results root (default: $MMDELTA_RESULTS or ./results)
  -n NAME            the bisection's directory under it (default: bisect-BENCH)
  -i N               iterations per point (default 2: icount is exact)
  --set KEY=VALUE    override a config key at every point; repeatable
  --metric M         the metric to bisect (default: the bench's primary one)
  --threshold PCT    a point is bad when it lies more than PCT% from the good
                     end toward the bad one (default: beyond the midpoint of
                     the two ends); the ends must differ by at least PCT%
  --vm-mem, --vm-cpus, --vm-clock, --vm-append, --vm-timeout
                     passed to every run.sh --kernel (see run.sh --help)
  --slurm            images form: every point is a Slurm job (run.sh --slurm)
  --jobs K           with --slurm: K points a round, measured at once
                     (about log_(K+1) N rounds instead of log2 N; default 1)
  --slurm-opt ARG    with --slurm: passed to sbatch; repeatable

Writes DIR/NAME/: the run of every point, bisect.json and bisect.txt.
Exit 0 when a culprit is named; 1 when the ends do not differ, when skipped
points hide the culprit, or on an error; 2 on bad input.
EOF
}

# The results root, the --vm-* options as typed (for every run.sh), and the
# positional arguments: the config, then the images or GOOD BAD.
RESULTS=${MMDELTA_RESULTS:-results} VM_ARGS=() POS=()
parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		-o | -n | -i | --set | --metric | --threshold | --tree | --build | --image | --vm-* | --jobs | --slurm-opt)
			[ $# -ge 2 ] || die "$1 needs a value" ;;&
		-o) RESULTS=$2 ;;
		-n) rundir_check_name "$2"; NAME=$2 ;;
		-i) [[ $2 =~ ^[1-9][0-9]*$ ]] || die "-i $2: must be a whole number > 0"; ITERATIONS=$2 ;;
		--set) SETS+=("$2") ;;
		--metric) METRIC=$2 ;;
		--threshold) [[ $2 =~ ^(0?\.[0-9]*[1-9][0-9]*|[1-9][0-9]*(\.[0-9]+)?)$ ]] ||
			die "--threshold $2: must be a percentage > 0, like 2 or 0.5"; THRESHOLD=$2 ;;
		--tree) TREE=$2 ;;
		--build) BUILD=$2 ;;
		--image) IMAGE_PATH=$2 ;;
		--slurm) SLURM=1; shift; continue ;;
		--jobs) [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--jobs $2: must be a whole number > 0 (the points measured at once)"; JOBS=$2 ;;
		--slurm-opt) SLURM_OPTS+=("$2") ;;
		--vm-*) vm_option "$1" "$2"; VM_ARGS+=("$1" "$2") ;;
		-h | --help) usage; exit 0 ;;
		-*) die "unknown option $1 (see --help)" ;;
		*) POS+=("$1"); shift; continue ;;
		esac
		shift 2
	done
}

# Everything that can be refused is refused here, in one line, before
# anything is written: the config and --set (run.sh --dry-run), the VM
# options, the metric, the images or the tree, the results directory.
check_args() {
	local dump
	[ ${#POS[@]} -ge 1 ] || die "nothing to bisect: give a bench or config and the kernels (see --help)"
	if [ -n "$TREE" ]; then
		[ ${#POS[@]} -eq 3 ] || die "--tree needs exactly two commits after the config: GOOD BAD"
		GOOD=${POS[1]} BAD=${POS[2]}
	else
		[ ${#POS[@]} -ge 3 ] || die "give at least two kernel images, oldest first (got $((${#POS[@]} - 1)) after the config)"
		[ -z "$BUILD$IMAGE_PATH" ] || die "--build and --image go with --tree"
	fi
	bisect_fleet_check
	vm_check_options
	run_args
	if [ -n "$TREE" ]; then TREE=$(realpath -m "$TREE"); tree_check; else check_images; fi
	rundir_check_root "$RESULTS"
	dump=$("$MMDELTA_ROOT/run.sh" --dry-run -i "$ITERATIONS" "${SET_ARGS[@]}" "$CONFIG") || exit 2
	check_config "$dump"
	check_metric
	[ -n "$NAME" ] || NAME=bisect-$BENCH
	RESULTS=$(realpath -m "$RESULTS")
	OUT=$RESULTS/$NAME STATE=$RESULTS/$NAME/.bisect
	[ ! -e "$OUT" ] || die "$OUT exists: name this bisection with -n, or remove it"
	need_built reports/mmstat reports/mmci
}

# CONFIG (a path made absolute: tree steps run in the tree) and the
# arguments every run.sh of the bisection gets.
run_args() {
	local s
	CONFIG=${POS[0]}
	[[ $CONFIG != */* ]] || CONFIG=$(realpath -m "$CONFIG")
	SET_ARGS=()
	for s in "${SETS[@]}"; do SET_ARGS+=(--set "$s"); done
	RUN_ARGS=("${SET_ARGS[@]}" "${VM_ARGS[@]}")
}

# What a tree step needs: the arguments as resolved (absolute paths, the
# commits as hashes, the metric named), for parse_args, and the bench.
save_state() {
	local -a argv=(-o "$RESULTS" -n "$NAME" -i "$ITERATIONS" --metric "$METRIC" "${RUN_ARGS[@]}")
	[ -z "$THRESHOLD" ] || argv+=(--threshold "$THRESHOLD")
	if [ -n "$TREE" ]; then
		argv+=(--tree "$TREE" --build "$BUILD" --image "$IMAGE_PATH" "$CONFIG" "$GOOD_SHA" "$BAD_SHA")
	else
		argv+=("$CONFIG" "${IMAGES[@]}")
	fi
	mkdir -p "$STATE"
	printf '%s\0' "${argv[@]}" >"$STATE/argv"
	printf '%s\n' "$BENCH" >"$STATE/bench"
	: >"$STATE/steps.tsv"
}

# BENCH from the resolved config; one value per key, since a point's
# figure must be one number.
check_config() {
	local sweep
	BENCH=$(sed -n 's/^BENCH=//p' <<<"$1")
	sweep=$(awk -F= '/^[A-Z_]+=/ && $1 != "DESCRIPTION" && index($0, " ") { print $1; exit }' <<<"$1")
	[ -z "$sweep" ] || die "${CONFIG##*/}: $sweep is a sweep; bisect one value (--set $sweep=VALUE)"
}

check_metric() {
	local described
	described=$("$MMDELTA_ROOT/bench/$BENCH" --describe) || die "bench/$BENCH --describe failed"
	[ -n "$METRIC" ] || METRIC=$(awk -F'\t' 'NR == 1 { print $1 }' <<<"$described")
	METRIC_UNIT="" METRIC_BETTER=""
	read -r METRIC_UNIT METRIC_BETTER < <(awk -F'\t' -v m="$METRIC" '$1 == m { print $3, $4 }' <<<"$described") || true
	[ -n "$METRIC_UNIT" ] ||
		die "--metric $METRIC: $BENCH has no such metric ($(cut -f1 <<<"$described" | tr '\n' ' ' | sed 's/ $//'))"
}

check_images() {
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
	read -r GOOD_RUN GOOD_MEAN < <(awk -F'\t' '$1 == "good end" && $6 == "measured" { r = $2; m = $7 } END { print r, m }' "$STATE/steps.tsv")
	read -r BAD_RUN BAD_MEAN < <(awk -F'\t' '$1 == "bad end" && $6 == "measured" { r = $2; m = $7 } END { print r, m }' "$STATE/steps.tsv")
	BOUNDARY=$(bisect_boundary)
}

# Do the measured ends differ: significantly (the gate's t-test, mmstat),
# and by at least --threshold?  Says why not and returns 1.
ends_differ() {
	local json test sig pct
	bisect_load_ends
	json=$("$MMDELTA_ROOT/reports/mmstat" --format json -- "$OUT/$GOOD_RUN" "$OUT/$BAD_RUN" 2>"$STATE/mmstat.err") ||
		die "$(sed 's/^mmstat: //' "$STATE/mmstat.err" | tail -n 1)"
	test=$(jq -c --arg b "$BENCH" --arg m "$METRIC" \
		'.benches[] | select(.name == $b) | .metrics[] | select(.metric == $m) | .params[0].runs[1].test' <<<"$json")
	read -r sig pct < <(jq -r '"\(.significant) \(.diff_pct)"' <<<"$test")
	if [ "$sig" != true ]; then
		say "bisect: the ends do not differ: $METRIC good $GOOD_MEAN, bad $BAD_MEAN $METRIC_UNIT ($(jq -r .text <<<"$test"))"
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

images_bisect() {
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
	if ! ends_differ; then bisect_report "no difference" "" ""; exit 1; fi
	while :; do
		mapfile -t pts < <(bisect_points "${JOBS:-1}" "${V[@]}")
		[ ${#pts[@]} -gt 0 ] || break
		bisect_round "${pts[@]}"
	done
	read -r outcome lo hi < <(bisect_outcome "${V[@]}")
	if [ "$outcome" = culprit ]; then
		finish culprit "${LABELS[lo]}" "${LABELS[hi]}"
	fi
	CANDIDATES="${LABELS[*]:lo+1:hi-lo}"
	finish ambiguous "${LABELS[lo]}" ""
}

bisect_end() {
	ROUND=$((ROUND + 1))
	bisect_point "$1" "${LABELS[$2]}" "${IMAGES[$2]}"
	[ "$VERDICT" != skip ] || die "the $1 ${IMAGES[$2]} cannot be measured: $(bisect_last note)"
}

tree_bisect_main() {
	local parent
	tree_save
	tree_end "good end" "$GOOD_SHA"
	tree_end "bad end" "$BAD_SHA"
	tree_restore
	if ! ends_differ; then bisect_report "no difference" "" ""; exit 1; fi
	tree_save
	tree_bisect
	tree_restore
	if [ -n "$CULPRIT_SHA" ]; then
		parent=$(tree_git rev-parse "$CULPRIT_SHA^")
		finish culprit "${parent:0:12}" "${CULPRIT_SHA:0:12}"
	fi
	finish ambiguous "" ""
}

# Write the report and exit: 0 only when a culprit is named.
finish() {
	bisect_report "$@"
	if [ "$1" = culprit ]; then
		say "bisect: first bad $3 (last good $2), $(jq -r '"\(.boots) boots" + if .rounds then " in \(.rounds) rounds" else "" end' "$OUT/bisect.json"); report in $OUT/bisect.txt"
		exit 0
	fi
	say "bisect: no single culprit: skipped points leave ${CANDIDATES}; report in $OUT/bisect.txt"
	exit 1
}

# shellcheck disable=SC2317  # called from the traps
on_signal() {
	trap - INT TERM
	bisect_stop_child
	bisect_fleet_stop
	say "bisect: interrupted by SIG$1"
	exit 130
}

# git bisect's step script: bisect.sh --step STATE.
step_main() {
	local -a argv
	STATE=$1 OUT=$(dirname "$1")
	mapfile -d '' -t argv <"$STATE/argv"
	parse_args "${argv[@]}"
	run_args
	BENCH=$(<"$STATE/bench")
	check_metric
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	tree_step
}

main() {
	[ "${1:-}" != --step ] || step_main "$2"
	# Bad input exits 2, as compare.sh's does: 1 is "no culprit named".
	DIE_STATUS=2
	parse_args "$@"
	check_args
	DIE_STATUS=1
	save_state
	trap 'tree_restore' EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	say "bisect: $BENCH, metric $METRIC, $ITERATIONS iterations a point, into $OUT"
	if [ -n "$TREE" ]; then tree_bisect_main; else images_bisect; fi
}

main "$@"
