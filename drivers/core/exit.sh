# The exit status of every front door, one scheme (docs/errors.md, "Exit
# codes"), so that a CI job can tell a verdict from a failure:
#   0    complete, or the gate passed
#   1    REGRESSION                       (a gate's verdict)
#   3    inconclusive                     (a gate's verdict; bisect.sh: no single step)
#   2    bad input, or a run that could not complete
#   128+N  interrupted by signal N        (130 for Ctrl-C, 143 for SIGTERM)
# A front door exits 1 or 3 only through exit_verdict.  Every other status
# leaves through exit_trap, its EXIT trap, as die's (DIE_STATUS: 2), whatever
# set it: die, a `|| exit 1`, a subshell's status, a helper's set -e death,
# a program that crashed (SIGSEGV, SIGABRT) or was killed (SIGKILL, the OOM
# killer).  Only the signals that end a shell on request (END_SIGNALS) keep
# 128+N.  bisect.sh's step script has git bisect's scheme instead: its
# verdicts 0, 1 (bad) and 125 (skip), and 128, which aborts git bisect, for
# any failure.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_CORE_EXIT:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_CORE_EXIT=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"  # DIE_STATUS

# Every signal that ends a shell by default and is sent to stop a job
# (Ctrl-C, kill, a closed pipe, a timeout, a CPU or file limit).  SIGKILL
# cannot be caught, and a run it ends is one that could not complete.
END_SIGNALS="HUP INT QUIT PIPE TERM ALRM USR1 USR2 XCPU XFSZ VTALRM PROF"

# The verdict this process exits with (1 or 3; 1 or 125 in git bisect's
# step script), once exit_verdict says so.
EXIT_VERDICT=""

exit_verdict() {
	EXIT_VERDICT=$1
	exit "$1"
}

# exit_status RC: the status to leave with when RC is what ended the script.
exit_status() {
	local rc=$1 sig
	if [ "$rc" = 0 ] || [ "$rc" = "$EXIT_VERDICT" ]; then
		echo "$rc"
		return
	fi
	if ((rc > 128 && rc < 160)); then
		sig=$(kill -l "$rc" 2>/dev/null) || sig=""
		[[ " $END_SIGNALS " != *" $sig "* ]] || { echo "$rc"; return; }
	fi
	echo "$DIE_STATUS"
}

# exit_trap [CMD...]: the EXIT trap (`trap exit_trap EXIT`, or
# `trap 'exit_trap tree_restore' EXIT`): run CMD, the front door's own
# clean-up, then leave with exit_status of the status that ended it.
exit_trap() {
	local rc=$?
	if (($#)); then "$@" || true; fi
	exit "$(exit_status "$rc")"
}

# exit_as_verdict RC: leave with the status of a program whose status is
# this scheme's (mmstat, mmhistory): its 1 and 3 are verdicts.
exit_as_verdict() {
	case $1 in 1 | 3) exit_verdict "$1" ;; esac
	exit "$1"
}
