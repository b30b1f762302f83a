# Messages.  Everything for the user goes to stderr; stdout stays free for
# machine-readable output (--dry-run).
# shellcheck shell=bash

# shellcheck source=drivers/lib/state.sh
source "${BASH_SOURCE[0]%/*}/state.sh"

# A message that cannot be written (stderr a closed pipe) must not end
# run.sh midway through its clean-up.
say() { printf 'mmdelta: %s\n' "$*" >&2 || true; }
die() { printf 'mmdelta: %s\n' "$*" >&2; exit "${DIE_STATUS:-1}"; }

# Where the run is: meta's phase when it is interrupted or fails.  For the
# tests, MMDELTA_STOP_AT=PATTERN makes run.sh SIGSTOP itself on entering a
# phase that matches, so that a signal can be delivered at exactly that point.
phase() {
	PHASE=$1
	# shellcheck disable=SC2053  # a glob pattern, on purpose
	if [ -n "${MMDELTA_STOP_AT:-}" ] && [[ $PHASE == $MMDELTA_STOP_AT ]]; then kill -STOP $$; fi
}
