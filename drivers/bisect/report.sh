# The bisection's report, written from WORK/steps.tsv: bisect.json for
# programs, bisect.txt for a person to paste into a mail.  Both are written
# whole or not at all (a temporary file renamed).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_REPORT:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_REPORT=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/measure.sh"  # bisect_display
source "${BASH_SOURCE[0]%/*}/profile.sh"  # bisect_profile_json, bisect_profile_text
source "${BASH_SOURCE[0]%/*}/tree.sh"  # tree_git

# The steps as a JSON array, one object per attempt, in order: by round,
# and within a round (points measured at once log as they end) by run.
bisect_steps_json() {
	jq -R -n --arg names "$BISECT_STEP_FIELDS" '
		($names | split(" ")) as $k
		| [inputs | split("\t") | [$k, .] | transpose
		   | map({key: .[0], value: (if .[1] == "-" then null
			elif (.[0] | IN("mean", "half", "n", "iterations", "booted", "seconds", "build_seconds", "round"))
			then (.[1] | if . == "inf" then null else tonumber end) else .[1] end)})
		   | from_entries | .booted = (.booted == 1)]
		| if any(.[]; .round != null) then sort_by([.round, .run]) else . end' <"$WORK/steps.tsv"
}

# The last attempt at run LABEL, as a JSON object (null for no label).
bisect_point_json() {
	jq --arg run "$2" 'if $run == "" then null
		else [.[] | select(.run == $run)] | last | {run, image, release, commit} end' <<<"$1"
}

# The steps found (CHANGES), as bisect.json's changes: each step's ends as
# first_bad and last_good are, its size in percent of its last good mean,
# and its share of the change between the ends (under icount the shares add
# up to all of it, less the drift within the levels).
bisect_changes_json() {
	printf '%s\n' "${CHANGES[@]}" | jq -R -n --argjson steps "$1" --argjson g "$GOOD_MEAN" --argjson b "$BAD_MEAN" '
		def point($r): if $r == "-" then null else [$steps[] | select(.run == $r)] | last | {run, image, release, commit} end;
		def mean($r): [$steps[] | select(.run == $r and .mean != null)] | last | .mean;
		[inputs | select(. != "") | split(" ") | map(select(. != "")) as $w
		 | (mean($w[1])) as $lo | (if $w[2] == "-" then null else mean($w[2]) end) as $hi
		 | {result: $w[0], last_good: point($w[1]), first_bad: point($w[2]), candidates: $w[3:],
		    pct: (if $hi == null or $lo == 0 then null else ($hi - $lo) / $lo * 100 | . * 1000 | round / 1000 end),
		    share: (if $hi == null or $b == $g then null else ($hi - $lo) / ($b - $g) * 10000 | round / 10000 end)}]'
}

# bisect_report RESULT LAST_GOOD FIRST_BAD: RESULT is culprit, ambiguous
# (CANDIDATES lists the points it could be) or "no difference".
bisect_report() {
	local result=$1 good=$2 bad=$3 steps changes tmp
	steps=$(bisect_steps_json)
	changes=$(bisect_changes_json "$steps")
	tmp=$(mktemp "$OUT/.bisect.json.XXXXXX")
	jq -n --arg result "$result" --arg bench "$BENCH" --arg config "$CONFIG" --arg metric "$METRIC" \
		--arg unit "$METRIC_UNIT" --arg better "$METRIC_BETTER" --arg threshold "$THRESHOLD" \
		--argjson good_mean "$GOOD_MEAN" --argjson bad_mean "$BAD_MEAN" --arg boundary "${BOUNDARY:-}" \
		--argjson iterations "$ITERATIONS" --arg tree "${TREE:-}" --arg candidates "${CANDIDATES:-}" \
		--argjson jobs "${JOBS:-1}" --argjson slurm "$([ "$SLURM" = 1 ] && echo true || echo false)" \
		--argjson last_good "$(bisect_point_json "$steps" "$good")" \
		--argjson first_bad "$(bisect_point_json "$steps" "$bad")" --argjson steps "$steps" \
		--argjson changes "$changes" --argjson every "$([ "$BISECT_FIRST" = 0 ] && echo true || echo false)" \
		--argjson noisy "$([ "$BISECT_NOISY" = 1 ] && echo true || echo false)" \
		--argjson profile "$(bisect_profile_json)" --argjson profile_boots "$BISECT_PROFILE_BOOTS" '{
		schema: "mmdelta-bisect/1", result: $result,
		first_bad: $first_bad, last_good: $last_good,
		candidates: ($candidates | split(" ") | map(select(. != ""))),
		bench: $bench, config: $config, metric: $metric, unit: $unit, better: $better,
		good_mean: $good_mean, bad_mean: $bad_mean,
		boundary: (if $boundary == "" then null else ($boundary | tonumber) end),
		threshold_pct: (if $threshold == "" then null else ($threshold | tonumber) end),
		iterations: $iterations, tree: (if $tree == "" then null else $tree end),
		slurm: $slurm, jobs: $jobs, every_step: $every, gate_test: $noisy, changes: $changes,
		unexplained: (if ($changes | length) == 0 or any($changes[]; .share == null) then null
			else 1 - ([$changes[].share] | add) | . * 10000 | round / 10000 end),
		steps: $steps, boots: ([$steps[] | select(.booted)] | length),
		rounds: (if any($steps[]; .round != null) then [$steps[].round] | max else null end),
		profile: $profile, profile_boots: $profile_boots}' >"$tmp"
	mv "$tmp" "$OUT/bisect.json"
	tmp=$(mktemp "$OUT/.bisect.txt.XXXXXX")
	bisect_text "$good" "$bad" >"$tmp"
	mv "$tmp" "$OUT/bisect.txt"
}

# The report for a person, from bisect.json: the verdict, the ends, the
# step table; then in tree mode the culprit's commit, and the compare.sh
# table between last good and first bad.
bisect_text() {
	local good=$1 bad=$2 j=$OUT/bisect.json kind a b n=0 div unit
	IFS=$'\t' read -r div unit < <(bisect_display "$GOOD_RUN" "$BAD_RUN")
	jq -r --argjson g "$GOOD_MEAN" --argjson div "$div" --arg u "$unit" -f "$MMDELTA_ROOT/drivers/bisect/report.jq" "$j"
	[ -n "$bad" ] || return 0
	for kind in "${CHANGES[@]}"; do
		read -r kind a b _ <<<"$kind"
		[ "$kind" = culprit ] || continue
		n=$((n + 1))
		[ ${#CHANGES[@]} = 1 ] || printf '\nstep %d: %s -> %s\n' "$n" "$a" "$b"
		bisect_text_step "$a" "$b"
	done
}

# One step: in tree mode the first bad commit (git log -1, its whole
# message), and the compare.sh table between its ends.
bisect_text_step() {
	local good=$1 bad=$2
	if [ -n "${TREE:-}" ]; then
		printf '\n'
		tree_git log -1 --format='commit %H%nAuthor: %an <%ae>%nDate:   %ad%n%n%w(0,4,4)%B' \
			"$(jq -r --arg r "$bad" '[.steps[] | select(.run == $r)] | last | .commit' "$OUT/bisect.json")"
	fi
	printf '\n'
	"$MMDELTA_ROOT/compare.sh" -o "$OUT" "$good" "$bad" 2>/dev/null || echo "(compare.sh $good $bad failed)"
	bisect_profile_text
}
