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

# Does THP=$1 with THP_DEFRAG=$2 need a kernel with THP?  never (and
# default) is what a kernel built without it does: such a kernel runs it,
# and meta says thp_enabled: not built.  A defrag setting matters only
# where THP may be on.
thp_needs_kernel() {
	case $1 in
	always | madvise) return 0 ;;
	default) [ "$2" != default ] ;;
	*) return 1 ;;
	esac
}

thp_apply() {
	local thp=$1 defrag=$2 why
	why=$(thp_check THP "$thp") || die "THP=$thp: $why"
	why=$(thp_check THP_DEFRAG "$defrag") || die "THP_DEFRAG=$defrag: $why"
	if [ ! -d "$THP_SYS" ]; then
		# run.sh refuses this before any bench (drivers/vm/caps.sh)
		! thp_needs_kernel "$thp" "$defrag" ||
			die "THP=$thp THP_DEFRAG=$defrag asked for, but $THP_SYS does not exist (kernel without THP): build it with CONFIG_TRANSPARENT_HUGEPAGE=y, or run with --set THP=never"
		return 0
	fi
	[ "$thp" = default ] || setting_set "$THP_SYS/enabled" "$thp"
	[ "$defrag" = default ] || setting_set "$THP_SYS/defrag" "$defrag"
}
