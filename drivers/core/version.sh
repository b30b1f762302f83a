# The suite's version: meta's suite_version, and every front door's
# --version (which help2man reads for the man pages, docs/install.md).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_CORE_VERSION:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_CORE_VERSION=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"  # MMDELTA_ROOT

# A source tree knows its commit; an installed tree has the one make
# install recorded (asking git there could describe whatever repository
# the prefix happens to lie in).
suite_version() {
	if [ -e "$MMDELTA_ROOT/.git" ]; then
		git -C "$MMDELTA_ROOT" describe --always --dirty 2>/dev/null && return 0
	fi
	cat "$MMDELTA_ROOT/VERSION" 2>/dev/null || echo unknown
}

# version_print NAME: --version's line, GNU's form: "NAME (mmdelta) VERSION".
version_print() {
	printf '%s (mmdelta) %s\n' "$1" "$(suite_version)"
}
