#!/usr/bin/env bats
# run.sh -i auto --baseline BASE --gate PCT: the candidate iterates until the
# sequential gate decides, says why it stopped, and compare.sh afterwards
# gives the very verdict the iterations stopped at.  The baselines are real
# runs whose elapsed samples are replaced, so that each verdict is certain:
# a constant baseline at the candidate's own level (pass at a 1000% gate),
# at a hundredth of it (REGRESSION), or one too noisy for any percentage
# (inconclusive until MAX_ITERATIONS).

bats_require_minimum_version 1.5.0
load ../helpers

setup_file() {
	export SEQ_RES
	SEQ_RES=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-seq.XXXXXX")
	"$ROOT/run.sh" -n real -o "$SEQ_RES" -i 4 --set SIZE=8M --set WARMUP=0 timedmunlock >/dev/null 2>&1
}

teardown_file() { rm -rf "$SEQ_RES"; }

setup() {
	common_setup
	cp -r "$SEQ_RES/real" "$RES/real"
}
teardown() { common_teardown; }

# baseline NAME V1 V2...: run "real" with its elapsed samples replaced
baseline() {
	local name=$1 i=0 v; shift
	cp -r "$RES/real" "$RES/$name"
	awk -F'\t' '$1 != "elapsed"' "$RES/real/timedmunlock/samples.tsv" >"$RES/$name/timedmunlock/samples.tsv"
	for v in "$@"; do printf 'elapsed\t-\t%d\t%s\n' $((++i)) "$v" >>"$RES/$name/timedmunlock/samples.tsv"; done
}

mean_elapsed() { awk -F'\t' '$1 == "elapsed" { s += $4; n++ } END { printf "%.9g", s / n }' "$RES/real/timedmunlock/samples.tsv"; }

cand() { run --separate-stderr "$ROOT/run.sh" -n cand -o "$RES" -i auto --set SIZE=8M --set WARMUP=0 "$@" timedmunlock; }
stopped() { sed -n 's/^stopped: //p' "$RES/cand/timedmunlock/config"; }
counted() { awk -F'\t' '$1 == "elapsed"' "$RES/cand/timedmunlock/samples.tsv" | wc -l; }

# The pass of LINE is marked ", improvement" exactly when the lower end of
# its interval ("CI [LO%, HI%]", positive = better) is above 0; within the
# two decimals shown of 0, either is right.
improvement_agrees() {
	local lo
	lo=$(sed -n 's/.*CI \[\(-\{0,1\}[0-9.]*\)%, .*/\1/p' <<<"$1")
	[ -n "$lo" ] || { echo "no interval in: $1"; return 1; }
	case $(awk -v lo="$lo" 'BEGIN { print (lo > 0.005 ? "better" : lo < -0.005 ? "not" : "either") }') in
	better) [[ $1 == *": pass, improvement ("* ]] ;;
	not) [[ $1 == *": pass ("* ]] ;;
	either) [[ $1 == *": pass"?(", improvement")" ("* ]] ;;
	esac || { echo "mark and interval disagree: $1"; return 1; }
}

@test "a candidate within the gate passes at the first look that proves it, and says so" {
	m=$(mean_elapsed)
	baseline base "$m" "$m" "$m" "$m"
	cand --baseline base --gate 1000 --set MAX_ITERATIONS=5
	[ "$status" -eq 0 ]
	grep -qx 'sequential: max=5 alpha=0.05 baseline=base gate=1000%' "$RES/cand/timedmunlock/config"
	# Usually look 3 proves it; a stalled iteration (seen: a cold first one
	# at 5.5 times the rest) can leave look 3 inconclusive even at 1000%.
	# Whichever look n it is, the run stops there, every look before it
	# was inconclusive, and n samples are kept.
	n=$(stopped | sed -n 's/^the gate against base after \([3-5]\) iterations: .*/\1/p')
	[ -n "$n" ]
	[[ $(stopped) == "the gate against base after $n iterations: timedmunlock elapsed cand: pass"*" ("*"repeated CI ["*"] at look $n of 5, gate 1000%"* ]]
	# the candidate is measured: when it happens to be faster than the
	# baseline's level the pass is also a proven improvement, and says so
	improvement_agrees "$(stopped)"
	[ "$(counted)" -eq "$n" ]
	[[ $stderr == *"[$n/auto, gate pass"?(", improvement")" ["* ]]
	for ((look = 3; look < n; look++)); do
		[[ $stderr == *"[$look/auto, gate inconclusive ["* ]]
	done
	# compare.sh judges the run at its last look: the same verdict
	run --separate-stderr "$ROOT/compare.sh" -o "$RES" --gate 1000 base cand
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "gate: $(stopped | sed "s/^the gate against base after $n iterations: //")" ]
}

@test "a candidate a hundred times slower is a REGRESSION, exit 1, and compare.sh agrees" {
	m=$(mean_elapsed)
	s=$(awk -v m="$m" 'BEGIN { printf "%.9g", m / 100 }')
	baseline base "$s" "$s" "$s" "$s"
	cand --baseline base --gate 5 --set MAX_ITERATIONS=5
	[ "$status" -eq 1 ]  # the gate's exit, as compare.sh's
	[ "${stderr_lines[-2]}" = "mmdelta: the gate against base: REGRESSION (exit 1; see the stopped lines above)" ]
	[ "${stderr_lines[-1]}" = "mmdelta: compare: $ROOT/compare.sh -o $RES base cand" ]
	grep -qx 'status: complete' "$RES/cand/meta"
	[[ $(stopped) == "the gate against base after "[345]" iterations: timedmunlock elapsed cand: REGRESSION ("* ]]
	run --separate-stderr "$ROOT/compare.sh" -o "$RES" --gate 5 base cand
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == "gate: timedmunlock elapsed cand: REGRESSION ("*" at look "[345]" of 5, gate 5%"* ]]
}

@test "a baseline too noisy for any percentage: inconclusive up to MAX_ITERATIONS, exit 3 in run.sh and compare.sh" {
	baseline base 0.000001 1 0.000001 1
	cand --baseline base --gate 5 --set MAX_ITERATIONS=4
	[ "$status" -eq 3 ]  # complete, but undecided: a CI that runs only run.sh sees it
	grep -qx 'status: complete' "$RES/cand/meta"
	[ "$(counted)" -eq 4 ]
	[[ $(stopped) == "MAX_ITERATIONS=4 reached with the gate inconclusive against base: timedmunlock elapsed cand: inconclusive (no percentage: the baseline mean is not distinguishable from 0 at "* ]]
	run --separate-stderr "$ROOT/compare.sh" -o "$RES" --gate 5 base cand
	[ "$status" -eq 3 ]
	# the remedy works from here: the baseline takes --add, the candidate
	# cannot, and a new one is measured at the estimate's size
	remedy='; about ([0-9]+) more iterations? of each run would likely decide: run.sh --add ([0-9]+) -n base, then a new candidate, -i auto --baseline base again or -i ([0-9]+) \(cand was gated sequentially and cannot be extended\)\)$'
	[[ ${lines[-1]} =~ $remedy ]]
	more=${BASH_REMATCH[1]}
	[ "${BASH_REMATCH[2]}" = "$more" ] && [ "${BASH_REMATCH[3]}" = $((4 + more)) ]
	run --separate-stderr "$ROOT/run.sh" -o "$RES" --add "$more" -n cand
	assert_one_line_error
	[[ $stderr == *"gated sequentially"* ]]
	run --separate-stderr "$ROOT/run.sh" -o "$RES" --dry-run --add "$more" -n base
	[ "$status" -eq 0 ]
	run --separate-stderr "$ROOT/run.sh" -o "$RES" --dry-run -n cand2 -i $((4 + more)) --set SIZE=8M --set WARMUP=0 timedmunlock
	[ "$status" -eq 0 ]
}

@test "the gate's options are refused in one line, before anything is written" {
	baseline base 1 1 1 1
	BEFORE=$(results_digest)
	for args in "--baseline base" "--gate 5" "--baseline base --gate five" "--baseline base --gate 5 -i 3" \
		"--baseline nosuch --gate 5" "--baseline cand --gate 5" "--baseline base --gate 5 --set MAX_ITERATIONS=201"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$ROOT/run.sh" -n cand -o "$RES" -i auto $args timedmunlock
		assert_one_line_error
	done
	run --separate-stderr "$ROOT/run.sh" -n cand -o "$RES" --baseline base --gate 5 -i 3 timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --baseline needs -i auto: the candidate iterates until the gate decides" ]
	run --separate-stderr "$ROOT/run.sh" -n cand -o "$RES" -i auto --baseline base --gate 5 heaprelease
	assert_one_line_error
	[ "$stderr" = "mmdelta: --baseline base: baseline run 'base' has no bench heaprelease" ]
	[ "$(results_digest)" = "$BEFORE" ]
	baseline thin 1
	run --separate-stderr "$ROOT/run.sh" -n cand -o "$RES" -i auto --baseline thin --gate 5 timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --baseline thin: baseline run 'thin' has 1 sample of timedmunlock elapsed: the gate needs 2 or more" ]
	[ ! -e "$RES/cand" ] && [ ! -e "$RES/.cand.partial" ]
}
