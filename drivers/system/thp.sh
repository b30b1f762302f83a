# Transparent huge pages, as the config asks: THP=never|always|madvise|default
# and THP_DEFRAG=always|defer|defer+madvise|madvise|never|default ("default"
# leaves the system's setting alone).  The munlock thread's 0.01 s figure is
# with THP; its 3.39 s figure without.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_SYSTEM_THP:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_SYSTEM_THP=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"  # THP_SYS
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die
source "${BASH_SOURCE[0]%/*}/settings.sh"  # setting_set

# thp_check KEY VALUE: true when KEY (THP or THP_DEFRAG) may be VALUE; else
# print why not.
thp_check() {
	local allowed="never always madvise"
	[ "$1" = THP ] || allowed="always defer defer+madvise madvise never"
	[[ " $allowed default " == *" $2 "* ]] && return 0
	echo "must be one of $allowed default"
	return 1
}

thp_apply() {
	local thp=$1 defrag=$2 why
	why=$(thp_check THP "$thp") || die "THP=$thp: $why"
	why=$(thp_check THP_DEFRAG "$defrag") || die "THP_DEFRAG=$defrag: $why"
	if [ "$thp$defrag" != defaultdefault ] && [ ! -d "$THP_SYS" ]; then
		die "THP=$thp THP_DEFRAG=$defrag asked for, but $THP_SYS does not exist (kernel without THP)"
	fi
	[ "$thp" = default ] || setting_set "$THP_SYS/enabled" "$thp"
	[ "$defrag" = default ] || setting_set "$THP_SYS/defrag" "$defrag"
}
