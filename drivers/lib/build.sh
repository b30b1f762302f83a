# The binaries a command needs.  In a source tree make brings them up to
# date; an installed tree (make install: no Makefile, no sources) carries
# them built and never runs make.
# shellcheck shell=bash

# shellcheck source=drivers/lib/state.sh
source "${BASH_SOURCE[0]%/*}/state.sh"

# need_built TARGET...: each TARGET (bench/X, tools/mmconfig, ...) relative
# to MMDELTA_ROOT, built or present.
need_built() {
	local t
	if [ -f "$MMDELTA_ROOT/Makefile" ]; then
		make -s -C "$MMDELTA_ROOT" "$@" >&2 || die "build failed: $*"
		return 0
	fi
	for t in "$@"; do
		[ -x "$MMDELTA_ROOT/$t" ] || die "$MMDELTA_ROOT/$t is missing from this installation (reinstall with make install)"
	done
}
