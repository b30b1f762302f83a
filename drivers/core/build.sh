# The binaries a command needs, under MMDELTA_BUILD (globals.sh): bin/NAME
# for this machine, static/NAME for a --kernel guest.  In a source tree make
# builds them on first use and keeps them up to date; an installed tree and
# a guest's carry them built, have no Makefile, and never run make.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_CORE_BUILD:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_CORE_BUILD=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"  # MMDELTA_ROOT, MMDELTA_BUILD
source "${BASH_SOURCE[0]%/*}/log.sh"  # die

# need_built bin/NAME|static/NAME...: each built or present.  In a tree the
# make targets are the Makefile's build/ paths.
need_built() {
	local t
	if [ -f "$MMDELTA_ROOT/Makefile" ]; then
		make -s --no-print-directory -C "$MMDELTA_ROOT" "${@/#/build/}" >&2 || die "build failed: $*"
		return 0
	fi
	for t in "$@"; do
		[ -x "$MMDELTA_BUILD/$t" ] || die "$MMDELTA_BUILD/$t is missing from this installation (reinstall with make install)"
	done
}

# The path of the tool bin/NAME, built first where need be: for the
# commands that run one tool (compare.sh's mmstat, history.sh's mmhistory).
tool_path() {
	need_built "bin/$1"
	printf '%s\n' "$MMDELTA_BUILD/bin/$1"
}
