# What a kernel cannot do for the configs of a run, known before the run
# starts.  For a --kernel image the host reads it from the image's own
# config before the boot: config-RELEASE beside the image (Debian's /boot
# layout, `make install`), the config embedded in the image
# (CONFIG_IKCONFIG), the .config of the tree the image was built in, or
# System.map-RELEASE beside it.  Where none is there, the guest's run.sh
# checks the booted kernel before its first bench (caps_live_check), as a
# host run.sh checks the one it runs on.  Either way a config the kernel
# cannot run is refused in one line that names the remedy, before a bench
# has run: THP=always without transparent huge pages, NUMA= without NUMA,
# a monitor without its tracepoints.  THP=never without them is what the
# kernel does anyway, so it runs (meta: thp_enabled: not built).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_CAPS:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_CAPS=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"  # THP_SYS, VM_KERNEL
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die
source "${BASH_SOURCE[0]%/*}/../config/config.sh"  # config_load
source "${BASH_SOURCE[0]%/*}/../monitors/monitors.sh"  # monitor_list
source "${BASH_SOURCE[0]%/*}/image.sh"  # vm_image_release

# Each feature a config may need: the config options that give it (any of
# them, "|"), the System.map symbol that only a kernel with it has, the
# first release that has it, what to build with, and what it is.  Only =y
# counts: the guest loads no modules.
CAPS_TABLE="\
thp	CONFIG_TRANSPARENT_HUGEPAGE	transparent_hugepage_flags	0	CONFIG_TRANSPARENT_HUGEPAGE=y	transparent huge pages
numa	CONFIG_NUMA	node_data	0	CONFIG_NUMA=y	NUMA
perf	CONFIG_PERF_EVENTS	perf_event_init	0	CONFIG_PERF_EVENTS=y	perf events
mmaplock	CONFIG_TRACING	__tracepoint_mmap_lock_start_locking	5.11	CONFIG_FTRACE=y and CONFIG_ENABLE_DEFAULT_TRACERS=y (for CONFIG_TRACING)	the mmap_lock tracepoints
lockevents	CONFIG_TRACING	__tracepoint_contention_begin	5.19	CONFIG_FTRACE=y and CONFIG_ENABLE_DEFAULT_TRACERS=y (for CONFIG_TRACING)	the lock:contention_begin tracepoint
kallsyms	CONFIG_KALLSYMS	kallsyms_names	0	CONFIG_KALLSYMS=y	kernel symbols
slabinfo	CONFIG_SLUB_DEBUG|CONFIG_SLAB	get_slabinfo	0	CONFIG_SLUB_DEBUG=y	/proc/slabinfo
memfd	CONFIG_MEMFD_CREATE	memfd_fcntl	0	CONFIG_MEMFD_CREATE=y	memfd_create"

# caps_field FEATURE N: field N of FEATURE's row.
caps_field() { awk -F'\t' -v f="$1" -v n="$2" '$1 == f { print $n }' <<<"$CAPS_TABLE"; }

# The needs of the config loaded in CFG, "FEATURE<TAB>WHAT<TAB>OR" a line:
# what in the config needs it, and how to run without it.  Monitors only
# with "monitors": a host run skips a monitor it cannot run, saying why; a
# guest's are refused, since the kernel was chosen for the run.
caps_needs() {
	local monitors=${1:-} m rest
	case ${CFG[THP]} in
	always | madvise) printf 'thp\tTHP=%s\t--set THP=never\n' "${CFG[THP]}" ;;
	default) [ "${CFG[THP_DEFRAG]}" = default ] ||
		printf 'thp\tTHP_DEFRAG=%s\t--set THP_DEFRAG=default\n' "${CFG[THP_DEFRAG]}" ;;
	esac
	case ${CFG[NUMA]} in
	local | interleave) printf 'numa\tNUMA=%s\t--set NUMA=none\n' "${CFG[NUMA]}" ;;
	esac
	# sparsemunmap's memfd backing (the pmd, pud and pgd configs)
	[ "${CFG[BACKING]:-}" != memfd ] || printf 'memfd\tBACKING=memfd\t--set BACKING=file\n'
	[ "$monitors" = monitors ] || return 0
	for m in $(monitor_list "${CFG[MONITORS]}"); do
		rest=$(monitor_list "${CFG[MONITORS]}" | grep -vx -- "$m" | paste -sd ,) || true
		rest="--monitors ${rest:-none}"
		case $m in
		mmaplock) printf '%s\tthe mmaplock monitor\t%s\n' perf "$rest" mmaplock "$rest" ;;
		contention) printf '%s\tthe contention monitor\t%s\n' perf "$rest" mmaplock "$rest" \
			lockevents "$rest" kallsyms "$rest" slabinfo "$rest" ;;
		perfstat | profile) printf 'perf\tthe %s monitor\t%s\n' "$m" "$rest" ;;
		insns) printf 'kallsyms\tthe insns monitor\t%s\n' "$rest" ;;
		esac
	done
}

# The needs of every config of the run, each with its config's name first.
caps_run_needs() {
	local c
	for c in "${CONFIGS[@]}"; do
		(config_load "$c" && caps_needs "$1" | sed "s|^|${c##*/}\t|") || exit 2
	done
}

# One refusal: caps_refuse CONFIG FEATURE WHAT OR KERNEL WHY.
caps_refuse() {
	local config=$1 f=$2 what=$3 or=$4 kernel=$5 why=$6
	die "$config: $what needs $(caps_field "$f" 6) ($(caps_field "$f" 2 | sed 's/|/ or /')), which $kernel lacks ($why); build it with $(caps_field "$f" 5), or run with $or"
}

# --- the booted kernel: a host's, or the guest's before its first bench ---

# Does the running kernel have FEATURE?  Unsure counts as yes: the bench or
# monitor then says what is wrong itself.
caps_live_has() {
	local t
	case $1 in
	thp) [ -d "$THP_SYS" ] ;;
	numa) [ -d /sys/devices/system/node ] ;;
	perf) [ -e /proc/sys/kernel/perf_event_paranoid ] ;;
	mmaplock | lockevents)
		for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
			[ -d "$t/events" ] || continue
			[ "$1" = mmaplock ] && { [ -d "$t/events/mmap_lock" ]; return; }
			[ -d "$t/events/lock/contention_begin" ]; return
		done
		# tracefs not mounted: the monitor mounts it, or says why not
		[ -d /sys/kernel/tracing ] ;;
	kallsyms) [ -e /proc/kallsyms ] ;;
	slabinfo) [ -e /proc/slabinfo ] ;;
	*) return 0 ;;
	esac
}

caps_live_evidence() {
	case $1 in
	thp) echo "no $THP_SYS" ;;
	numa) echo "no /sys/devices/system/node" ;;
	perf) echo "no /proc/sys/kernel/perf_event_paranoid" ;;
	mmaplock) echo "no mmap_lock events in tracefs" ;;
	lockevents) echo "no lock/contention_begin event in tracefs" ;;
	kallsyms) echo "no /proc/kallsyms" ;;
	slabinfo) echo "no /proc/slabinfo" ;;
	esac
}

# What the kernel run.sh runs on lacks, refused before anything is written.
# On a host its monitors are left to skip; in a --kernel guest they count.
caps_live_check() {
	local config f what or scope=""
	[ "${MMDELTA_GUEST:-0}" = 0 ] || scope=monitors
	while IFS=$'\t' read -r config f what or; do
		caps_live_has "$f" && continue
		caps_refuse "$config" "$f" "$what" "$or" "this kernel ($(uname -r))" "$(caps_live_evidence "$f")"
	done < <(caps_run_needs "$scope")
}

# --- a kernel image, before it boots ---

# The image's compressed payload (x86 boot protocol 2.08+: payload_offset
# at 0x248 from the protected-mode code, which starts after the setup
# sectors, payload_length at 0x24c), decompressed to stdout.
caps_image_payload() {
	local image=$1 sects off len start magic dec
	sects=$(od -An -tu1 -j497 -N1 "$image" | tr -d ' ')
	[ "$sects" != 0 ] || sects=4
	off=$(od -An -tu4 -j584 -N4 "$image" | tr -d ' ')
	len=$(od -An -tu4 -j588 -N4 "$image" | tr -d ' ')
	[[ $off =~ ^[0-9]+$ && $len =~ ^[1-9][0-9]*$ ]] || return 1
	start=$(((sects + 1) * 512 + off))
	magic=$(tail -c +$((start + 1)) "$image" | head -c 6 | od -An -tx1 | tr -d ' \n')
	case $magic in
	1f8b*) dec="gzip -dc" ;;
	fd377a585a00) dec="xz -dc" ;;
	5d0000*) dec="xz --format=lzma -dc" ;;
	425a68*) dec="bzip2 -dc" ;;
	02214c18*) dec="lz4 -dc" ;;
	28b52ffd*) dec="zstd -dc" ;;
	*) return 1 ;;
	esac
	command -v "${dec%% *}" >/dev/null || return 1
	# the payload ends in its decompressed size, which the tools call
	# trailing garbage: their status says nothing, the output does
	tail -c +$((start + 1)) "$image" | head -c "$len" | $dec 2>/dev/null || true
}

# The config CONFIG_IKCONFIG embeds, gzipped between IKCFG_ST and IKCFG_ED
# (the kernel's scripts/extract-ikconfig reads it the same way).
caps_image_ikconfig() {
	local tmp at
	tmp=$(mktemp)
	caps_image_payload "$1" >"$tmp" || { rm -f "$tmp"; return 1; }
	at=$(LC_ALL=C grep -abo -m1 IKCFG_ST "$tmp" | head -n 1 | cut -d: -f1)
	if [ -n "$at" ]; then tail -c +$((at + 9)) "$tmp" | gzip -dc 2>/dev/null | grep '^CONFIG_' || true; fi
	rm -f "$tmp"
}

# Where IMAGE's config or symbols are, tried in order; prints "KIND<TAB>
# WHERE", then the lines (KIND config: CONFIG_X=y lines; map: symbol names).
caps_image_source() {
	local image=$1 release=$2 dir real tree lines
	dir=$(dirname "$image")
	if [ -n "$release" ] && [ -r "$dir/config-$release" ]; then
		printf 'config\tconfig-%s beside the image\n' "$release"
		grep '^CONFIG_' "$dir/config-$release"
		return
	fi
	lines=$(caps_image_ikconfig "$image")
	if [ -n "$lines" ]; then
		printf 'config\tthe config embedded in the image\n'
		printf '%s\n' "$lines"
		return
	fi
	# TREE/arch/x86/boot/bzImage: the tree's .config, unless changed since
	real=$(realpath "$image")
	tree=${real%/arch/*/boot/*}
	if [ "$tree" != "$real" ] && [ -r "$tree/.config" ] && [ ! "$tree/.config" -nt "$real" ]; then
		printf 'config\t%s/.config, the tree the image was built in\n' "$tree"
		grep '^CONFIG_' "$tree/.config"
		return
	fi
	# Debian ships a one-line stand-in ("The real System.map is in the
	# linux-image-<version>-dbg package"): a map without _stext says nothing.
	# Weak symbols are the stubs of what is not built (sys_ni_syscall).
	if [ -n "$release" ] && [ -r "$dir/System.map-$release" ] &&
		grep -q ' _stext$' "$dir/System.map-$release"; then
		printf 'map\tSystem.map-%s beside the image\n' "$release"
		awk '$2 !~ /^[wWvV]$/ { print $3 }' "$dir/System.map-$release"
		return
	fi
	return 1
}

# caps_image_has KIND LINES FEATURE RELEASE: does the image have FEATURE?
caps_image_has() {
	local kind=$1 lines=$2 f=$3 release=$4 since opt
	since=$(caps_field "$f" 4)
	if [ "$since" != 0 ] && [ -n "$release" ] &&
		[ "$(printf '%s\n' "$since" "${release%%-*}" | sort -V | head -n 1)" != "$since" ]; then
		return 1
	fi
	if [ "$kind" = map ]; then
		grep -qx -- "$(caps_field "$f" 3)" <<<"$lines"
		return
	fi
	for opt in $(caps_field "$f" 2 | tr '|' ' '); do
		grep -qx -- "$opt=y" <<<"$lines" && return 0
	done
	return 1
}

caps_image_evidence() {
	local kind=$1 where=$2 f=$3 release=$4 since
	since=$(caps_field "$f" 4)
	if [ "$since" != 0 ] && [ -n "$release" ] &&
		[ "$(printf '%s\n' "$since" "${release%%-*}" | sort -V | head -n 1)" != "$since" ]; then
		echo "it is $release, and they came in $since"
	elif [ "$kind" = map ]; then
		echo "no $(caps_field "$f" 3) in $where"
	else
		echo "$(caps_field "$f" 2 | sed 's/|.*//') is not set in $where"
	fi
}

# What the image cannot do for the configs, refused before anything is
# written; VM_CAPS_FROM says where that was read, or that the guest checks
# it at boot.
# shellcheck disable=SC2034  # VM_CAPS_FROM: read by meta.sh
caps_image_check() {
	local image=$1 release src kind where lines config f what or
	release=$(vm_image_release "$image")
	if ! src=$(caps_image_source "$image" "$release"); then
		VM_CAPS_FROM="the guest, before its first bench (the image carries no config, none is beside it)"
		return 0
	fi
	IFS=$'\t' read -r kind where <<<"${src%%$'\n'*}"
	lines=${src#*$'\n'}
	VM_CAPS_FROM=$where
	while IFS=$'\t' read -r config f what or; do
		caps_image_has "$kind" "$lines" "$f" "$release" && continue
		caps_refuse "$config" "$f" "$what" "$or" "--kernel $image" "$(caps_image_evidence "$kind" "$where" "$f" "$release")"
	done < <(caps_run_needs monitors)
}

# Before anything is written: the image's, or the running kernel's.
caps_check() {
	if [ -n "$VM_KERNEL" ]; then caps_image_check "$VM_KERNEL"; else caps_live_check; fi
}
