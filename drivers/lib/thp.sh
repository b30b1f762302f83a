# Transparent huge pages, as the config asks: THP=never|always|madvise|default
# and THP_DEFRAG=always|defer|defer+madvise|madvise|never|default ("default"
# leaves the system's setting alone).  The munlock thread's 0.01 s figure is
# with THP; its 3.39 s figure without.
# shellcheck shell=bash

THP_SYS=${MMDELTA_THP_SYS:-/sys/kernel/mm/transparent_hugepage}

thp_check() {
	local key=$1 value=$2 allowed=$3
	[[ " $allowed default " == *" $value "* ]] || die "$key=$value: must be one of $allowed default"
}

thp_apply() {
	local thp=$1 defrag=$2
	thp_check THP "$thp" "never always madvise"
	thp_check THP_DEFRAG "$defrag" "always defer defer+madvise madvise never"
	if [ "$thp$defrag" != defaultdefault ] && [ ! -d "$THP_SYS" ]; then
		die "THP=$thp THP_DEFRAG=$defrag asked for, but $THP_SYS does not exist (kernel without THP)"
	fi
	[ "$thp" = default ] || setting_set "$THP_SYS/enabled" "$thp"
	[ "$defrag" = default ] || setting_set "$THP_SYS/defrag" "$defrag"
}
