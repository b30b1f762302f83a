# The stopping rules of ITERATIONS=auto, decided by the C tools: the mean's
# confidence interval within CI_TARGET (reports/mmci), or, with run.sh
# --baseline BASE --gate PCT, the gate's verdict against run BASE at every
# counted iteration from the third (reports/mmseq: repeated confidence
# intervals, so that looking after every iteration does not inflate the
# errors; docs/gate.md).  Each sets AUTO_PROGRESS for the progress line and
# AUTO_STATE for a stop at MAX_ITERATIONS or MAX_TIME, and returns 0 with
# STOP_REASON set when the iterations may stop.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_RUN_AUTOSTOP:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_RUN_AUTOSTOP=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../config/config.sh"  # config_key_die
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die
source "${BASH_SOURCE[0]%/*}/../core/optvalue.sh"  # opt_number
source "${BASH_SOURCE[0]%/*}/rundir.sh"  # meta_get, rundir_check_name

SEQ_ALPHA=0.05	# two-sided: the intervals cover the change with 95% over all looks

seqgate_option() {
	case $1 in
	--baseline) GATE_BASELINE=$2 ;;
	--gate) opt_number --gate "a percentage, such as 5" '^[0-9]+(\.[0-9]+)?$' "$2"; GATE_PCT=$2 ;;
	esac
}

# After parse_args: both options or neither, a percentage, -i auto, and a
# complete baseline run under the results root RESULTS.
seqgate_check_args() {
	local results=$1 status
	[ -n "$GATE_BASELINE$GATE_PCT" ] || return 0
	[ -n "$GATE_BASELINE" ] || die "--gate needs --baseline BASE: the run to judge the candidate against"
	[ -n "$GATE_PCT" ] || die "--baseline needs --gate PCT: the loss the gate tolerates"
	[ "${ITERATIONS_OVERRIDE:-}" = auto ] || die "--baseline needs -i auto: the candidate iterates until the gate decides"
	[ -z "$VM_KERNEL" ] || die "--baseline: not with --kernel (an icount run repeats exactly: gate it with compare.sh --gate)"
	rundir_check_name "$GATE_BASELINE"
	[ "$GATE_BASELINE" != "$NAME" ] || die "--baseline $GATE_BASELINE: a run cannot be its own baseline"
	BASE_DIR=$results/$GATE_BASELINE
	[ -d "$BASE_DIR" ] || die "--baseline $GATE_BASELINE: no run $BASE_DIR"
	status=$(meta_get "$BASE_DIR" status)
	[ "$status" = complete ] || die "--baseline $GATE_BASELINE: not a complete run (status: ${status:-none})"
}

# Per sweep point, before anything is written: the baseline has this
# bench at this value with 2 or more samples, and MAX_ITERATIONS is a
# design the boundaries can be computed for.
seqgate_point_check() {
	local param=$1 out
	[ -n "$GATE_BASELINE" ] || return 0
	((CFG[MAX_ITERATIONS] <= 200)) ||
		config_key_die MAX_ITERATIONS "at most 200 with --baseline (the gate's boundaries are computed for every look)"
	out=$("$MMDELTA_BUILD/bin/mmseqgate" --check "$BASE_DIR" "${CFG[BENCH]}" "$param" 2>&1) ||
		die "--baseline $GATE_BASELINE: ${out#mmseq: }"
}

# The design line compare.sh reads back (reports/gate/seqdesign.h).
seqgate_design() {
	[ -z "$GATE_BASELINE" ] ||
		printf 'sequential: max=%s alpha=%s baseline=%s gate=%s%%\n' \
			"${CFG[MAX_ITERATIONS]}" "$SEQ_ALPHA" "$GATE_BASELINE" "$GATE_PCT"
}

# CI_TARGET: the mean's 95% interval narrow enough, from the third iteration.
# shellcheck disable=SC2034  # AUTO_*, STOP_REASON: read by iteration_last
ci_decided() {
	local dir=$1 param=$2 i=$3 primary=$4 out rc=0 ci
	out=$("$MMDELTA_BUILD/bin/mmci" --target "${CFG[CI_TARGET]%\%}" "${dir%/*}" \
		"${CFG[BENCH]}" "$primary" "$param" 2>&1) || rc=$?
	((rc <= 1)) || die "${CFG[BENCH]}: ${out#mmci: }"
	ci=$(printf '%.2f' "$(cut -f4 <<<"$out")")
	AUTO_STATE="with the 95% CI at ±$ci%"
	[ "$ci" = inf ] || AUTO_PROGRESS="CI ±$(printf '%.1f' "$ci")%"
	((rc == 0 && i >= 3)) || return 1
	STOP_REASON="CI_TARGET: 95% CI of the mean within ±${CFG[CI_TARGET]} after $i iterations"
}

# The gate: pass or REGRESSION stops; inconclusive goes on.  A look the
# gate cannot make (constant times under a real clock) goes on too, and the
# reason is what a stop at MAX_ITERATIONS or MAX_TIME reports.
# shellcheck disable=SC2034  # AUTO_*, STOP_REASON: read by iteration_last
gate_decided() {
	local dir=$1 param=$2 i=$3 line rc=0
	AUTO_PROGRESS="gate from iteration 3" AUTO_STATE="before the gate's first look"
	((i >= 3)) || return 1
	line=$("$MMDELTA_BUILD/bin/mmseqgate" --gate "$GATE_PCT" --max "${CFG[MAX_ITERATIONS]}" \
		--alpha "$SEQ_ALPHA" "$BASE_DIR" "${dir%/*}" "${CFG[BENCH]}" "$param" 2>&1) || rc=$?
	case $rc in
	0 | 1 | 3)
		AUTO_PROGRESS="gate ${line#*: }" AUTO_PROGRESS=${AUTO_PROGRESS%% (*}
		[[ $line =~ (\[[^]]*\]) ]] && AUTO_PROGRESS+=" ${BASH_REMATCH[1]}"
		AUTO_STATE="with the gate inconclusive against $GATE_BASELINE: $line"
		;;
	*) AUTO_PROGRESS="gate cannot judge" AUTO_STATE="with the gate unable to judge: ${line#mmseq: }" ;;
	esac
	((rc <= 1)) || return 1
	seqgate_verdict "$rc"
	STOP_REASON="the gate against $GATE_BASELINE after $i iterations: $line"
}

# A point's verdict into GATE_EXIT: REGRESSION outweighs inconclusive,
# which outweighs pass.
seqgate_verdict() {
	case $1 in
	1) GATE_EXIT=1 ;;
	3) ((GATE_EXIT == 1)) || GATE_EXIT=3 ;;
	esac
}
