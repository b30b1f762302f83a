# The step's profile difference at the end of a bisection under icount:
# where the first bad kernel's work differs from the last good one's, per
# kernel function, from the insns monitor (docs/bisect.md).  A point
# measured without the monitor gets one more boot with it, counted by the
# host alone (MMDELTA_INSNS=1, vm/insns.sh) so that the guest gets the very
# arguments of the bisection's run and its figures are the bisection's to
# the nanosecond.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_PROFILE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_PROFILE=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # say
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # meta_get
source "${BASH_SOURCE[0]%/*}/measure.sh"  # bisect_last, bisect_run

# Functions the report shows.
BISECT_PROFILE_TOP=10
# bisect_profile_run's answer.
PROFILED_RUN=""

# Does run LABEL have the bench's profile?
bisect_profiled() { compgen -G "$OUT/$1/$BENCH/monitors/insns.[0-9]*.tsv" >/dev/null; }

# PROFILED_RUN: the run of LABEL that has a profile: itself, or
# LABEL-insns, booted now from the image LABEL ran (an image of the list,
# or in tree form the build kept in images/); empty when none.  Sets
# BISECT_PROFILE_WHY when it cannot boot one.
bisect_profile_run() {
	local label=$1 image rc=0
	PROFILED_RUN=""
	if bisect_profiled "$label"; then PROFILED_RUN=$label; return 0; fi
	image=$(bisect_last image "$label")
	if [ "$image" = - ] || [ ! -f "$image" ]; then
		BISECT_PROFILE_WHY="no profile of the step: $label has no image to boot again"
		return 0
	fi
	say "$BISECT_SAY: one more boot of $label with the insns monitor, for the step's profile"
	BISECT_PROFILE_BOOTS=$((BISECT_PROFILE_BOOTS + 1))
	export MMDELTA_INSNS=1
	bisect_run "$label-insns" "$image" "$ITERATIONS" || rc=$?
	unset MMDELTA_INSNS
	if [ "$rc" = 0 ] && bisect_profiled "$label-insns"; then
		PROFILED_RUN=$label-insns
	else
		BISECT_PROFILE_WHY="no profile of the step: the boot of $label with the insns monitor gave none (${BISECT_REASON:-see $WORK/$label-insns.log})"
	fi
}

# bisect_profile_measure LAST_GOOD FIRST_BAD: sets BISECT_PROFILE to the
# pair of runs to compare, or leaves it empty saying why.
bisect_profile_measure() {
	local good bad
	BISECT_PROFILE=""
	if [ "$(meta_get "$OUT/$1" vm_clock 2>/dev/null)" != icount ]; then
		BISECT_PROFILE_WHY="the profile difference needs the icount clock"
		return 0
	fi
	bisect_profile_run "$1"
	good=$PROFILED_RUN
	[ -n "$good" ] || return 0
	bisect_profile_run "$2"
	bad=$PROFILED_RUN
	[ -z "$bad" ] || BISECT_PROFILE="$good $bad"
}

# The where block of the pair, for bisect.txt: compare.sh --profile's last
# block (the bisection has one bench, so its block ends the output).
bisect_profile_text() {
	if [ -z "$BISECT_PROFILE" ]; then
		[ -z "$BISECT_PROFILE_WHY" ] || printf '\n%s.\n' "$BISECT_PROFILE_WHY"
		return 0
	fi
	# shellcheck disable=SC2086  # two run names
	"$MMDELTA_ROOT/compare.sh" -o "$OUT" --profile --top "$BISECT_PROFILE_TOP" $BISECT_PROFILE 2>/dev/null |
		awk -v b="$BENCH" 'index($0, b ": where ") == 1 || index($0, b ": ") == 1 && / -> / { p = 1; print "" } p' ||
		echo "(compare.sh --profile $BISECT_PROFILE failed)"
}

# bisect.json's "profile": compare.sh's block as JSON, or null.
bisect_profile_json() {
	[ -n "$BISECT_PROFILE" ] || { echo null; return 0; }
	# shellcheck disable=SC2086  # two run names
	"$MMDELTA_ROOT/compare.sh" -o "$OUT" --format json --profile --top "$BISECT_PROFILE_TOP" $BISECT_PROFILE 2>/dev/null |
		jq '.profile[0] // null' 2>/dev/null || echo null
}
