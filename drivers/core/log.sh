# Messages.  Everything for the user goes to stderr, each line starting
# with LOG_PREFIX (globals.sh: "mmdelta", or the front door's own name);
# stdout stays free for machine-readable output (--dry-run, JSON).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_CORE_LOG:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_CORE_LOG=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"  # LOG_PREFIX, DIE_STATUS, PHASE

# A message that cannot be written (stderr a closed pipe) must not end
# run.sh midway through its clean-up.
say() { printf '%s: %s\n' "$LOG_PREFIX" "$*" >&2 || true; }
die() { printf '%s: %s\n' "$LOG_PREFIX" "$*" >&2; exit "$DIE_STATUS"; }

# Where the run is: meta's phase when it is interrupted or fails.  For the
# tests, MMDELTA_STOP_AT=PATTERN makes run.sh SIGSTOP itself on entering a
# phase that matches, so that a signal can be delivered at exactly that point.
phase() {
	PHASE=$1
	# shellcheck disable=SC2053  # a glob pattern, on purpose
	if [ -n "${MMDELTA_STOP_AT:-}" ] && [[ $PHASE == $MMDELTA_STOP_AT ]]; then kill -STOP $$; fi
}
