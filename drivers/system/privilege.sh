# What needs root.  A normal user may compare, report, --dry-run and run
# configs that leave the system's settings alone; a config that changes THP
# or drops caches is refused before anything is written, in one line that
# names the key (docs/install.md).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_SYSTEM_PRIVILEGE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_SYSTEM_PRIVILEGE=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"  # CFG, THP_SYS
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die

# The file that KEY's value in CFG writes, if it writes one.
privilege_path() {
	case $1 in
	THP) [ "${CFG[THP]}" = default ] || echo "$THP_SYS/enabled" ;;
	THP_DEFRAG) [ "${CFG[THP_DEFRAG]}" = default ] || echo "$THP_SYS/defrag" ;;
	DROP_CACHES) [ "${CFG[DROP_CACHES]}" = no ] || echo /proc/sys/vm/drop_caches ;;
	COMPACT) [ "${CFG[COMPACT]}" = no ] || echo /proc/sys/vm/compact_memory ;;
	esac
}

# privilege_check FILE, with FILE loaded into CFG.
privilege_check() {
	local file=$1 key path off
	for key in THP THP_DEFRAG DROP_CACHES COMPACT; do
		path=$(privilege_path "$key")
		if [ -z "$path" ] || [ ! -e "$path" ] || [ -w "$path" ]; then continue; fi
		off=default
		[[ $key == THP* ]] || off=no
		[ "$EUID" -ne 0 ] ||
			die "${file##*/}: $key=${CFG[$key]}: $path is read-only here; --set $key=$off leaves it alone"
		die "${file##*/}: $key=${CFG[$key]} needs root (it writes $path); run as root, or with --set $key=$off"
	done
}
