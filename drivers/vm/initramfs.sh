# The guest's whole userland as cpio (newc) archives one after another:
# a gzipped one with busybox-static for the tools, bash-static for run.sh,
# the static bench binaries and run.sh with drivers and configs; a plain one
# with the run's configs and arguments; and the insns flag.  Nothing comes
# from the kernel image but the kernel.  The gzipped archive is the same for
# every run of one suite and host, so it is built once and kept, by its
# contents' hash, in VM_INITRAMFS_CACHE.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_VM_INITRAMFS:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_VM_INITRAMFS=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die
source "${BASH_SOURCE[0]%/*}/../config/config.sh"  # config_load
source "${BASH_SOURCE[0]%/*}/../core/version.sh"  # suite_version
source "${BASH_SOURCE[0]%/*}/../monitors/insns.sh"  # insns_strip
source "${BASH_SOURCE[0]%/*}/../monitors/monitors.sh"  # MONITORS_PERF, monitor_list

VM_BUSYBOX=${MMDELTA_BUSYBOX:-/bin/busybox}
VM_BASH=${MMDELTA_BASH_STATIC:-/bin/bash-static}
# Host tools run.sh calls that busybox lacks or gets wrong, copied with their
# shared libraries when the host has them: awk (busybox-static's is built
# without math, and the summaries need sqrt), tail (--pid, for the mmaplock
# monitor), perf for the monitors, numactl for NUMA=, flock for the machine
# lock, getconf for the page size, lstopo for topology.txt.  They go to
# their host paths under /usr, ahead of busybox in the guest PATH.  perf and
# its libraries are half the gzipped initramfs (9 MB of 19) and add 0.5 s
# to an icount boot, so perf goes in only when a monitor of the run needs
# it (MONITORS_PERF).
VM_HOST_TOOLS=(awk tail numactl getconf lstopo-no-graphics flock)
# Where the gzipped archives are kept, one per staged tree, named by the
# suite version and their contents' sha256; an archive unused for 30 days
# is removed when another is stored.
VM_INITRAMFS_CACHE=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/mmdelta/initramfs

vm_initramfs_check() {
	local f
	for f in "$VM_BUSYBOX" "$VM_BASH"; do
		[ -x "$f" ] || die "$f not found: --kernel runs need busybox-static and bash-static (apt-get install busybox-static bash-static)"
		# A dynamic binary would find no libc in the guest.
		if ldd "$f" >/dev/null 2>&1; then die "$f is dynamically linked: the guest needs the static build"; fi
	done
	command -v cpio >/dev/null || die "cpio not found: --kernel runs need it to build the initramfs"
}

# busybox and every applet as a symlink, bash as /bin/bash.
vm_stage_userland() {
	local root=$1 applet
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,root,mmdelta}
	cp "$VM_BUSYBOX" "$root/bin/busybox"
	cp "$VM_BASH" "$root/bin/bash"
	for applet in $("$VM_BUSYBOX" --list); do
		[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
	done
}

# A host binary and the libraries ldd names, at the same paths.
vm_stage_host_binary() {
	local root=$1 bin lib
	bin=$(command -v "$2") || return 0
	for lib in "$bin" $(ldd "$bin" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$root$(dirname "$lib")"
		rm -f "$root$lib"  # never write through a busybox applet link
		cp -L "$lib" "$root$lib"
	done
}

# run.sh, its shell (drivers/, without the C sources there) and configs as
# in the tree, with libexec/deps.sh, which run.sh calls (and which does
# nothing in a guest), and any bench's own bench/NAME.sh; the benches,
# mmconfig, mmci and mmstat as the static builds, in bin/.  Like an
# installed tree, the guest's has no Makefile: run.sh's build step
# (need_built) then only checks that they are there.
vm_stage_suite() {
	local root=$1 tree=$1/mmdelta bench f; shift
	(cd "$MMDELTA_ROOT" && cp --parents -t "$tree" run.sh libexec/deps.sh configs/* drivers/*/*.sh drivers/*/*.awk) ||
		die "cannot copy the suite into the initramfs"
	mkdir -p "$tree/bin" "$tree/bench"
	for f in "$MMDELTA_ROOT"/bench/*.sh; do [ ! -e "$f" ] || cp "$f" "$tree/bench/"; done
	for bench in "$@" mmconfig mmci mmstat; do cp "$MMDELTA_BUILD/static/$bench" "$tree/bin/$bench"; done
	cp "$MMDELTA_ROOT/libexec/guest-init.sh" "$root/init"
	# read by /init: under icount every bench settles (bench/lib/settle.h)
	if [ "$VM_CLOCK" = icount ]; then echo 1 >"$tree/settle"; fi
	chmod +x "$root/init"
}

# The configs (copied, since they may be any path on the host) and run.sh's
# arguments, NUL-separated so no value is ever split or evaluated.  The guest
# run is always named VM_GUEST_NAME (globals.sh).
# The guest runs --ignore-load: it runs nothing but our work, yet under
# icount its /proc/stat can show the one CPU fully busy (6.12 kernels do),
# so its own check would refuse every run.  The host's check is the one that
# counts (vm_load_check).
vm_stage_args() {
	local root=$1 c i=0 s
	local -a args=(-n "$VM_GUEST_NAME" --ignore-load)
	[ -z "${ITERATIONS_OVERRIDE:-}" ] || args+=(-i "$ITERATIONS_OVERRIDE")
	for s in "${SETS[@]}"; do
		[[ $s != MONITORS=* ]] || s=MONITORS=$(insns_strip "${s#MONITORS=}")
		args+=(--set "$s")
	done
	for c in "${CONFIGS[@]}"; do
		i=$((i + 1))
		mkdir -p "$root/vm-configs/$i"
		vm_stage_config "$c" >"$root/vm-configs/$i/${c##*/}"
		args+=("/vm-configs/$i/${c##*/}")
	done
	printf '%s\0' "${args[@]}" >"$root/mmdelta/vm-args"
}

# A config as the guest gets it: without the insns monitor, which is the
# host's (drivers/monitors/insns.sh), so that the guest runs the same
# instructions whether the host counts them or not; and with the count the
# host resolved (under icount, drivers/vm/resolution.sh's rule) as its one
# ITERATIONS line.
vm_stage_config() {
	local line count
	count=$(config_load "$1" && echo "${CFG[ITERATIONS]}") || exit 2
	while IFS= read -r line || [ -n "$line" ]; do
		if [[ $line =~ ^[[:space:]]*MONITORS[[:space:]]*=[[:space:]]*(.*)$ ]]; then
			line="MONITORS=$(insns_strip "${BASH_REMATCH[1]}")"
		fi
		[[ $line =~ ^[[:space:]]*ITERATIONS[[:space:]]*= ]] || printf '%s\n' "$line"
	done <"$1"
	printf 'ITERATIONS=%s\n' "$count"
}

# Whether the host counts, for the guest's /init to read after the benches
# (it then sends /proc/kallsyms): one byte, 0 or 1, in a second, plain cpio
# archive after the gzipped one.  The kernel unpacks a plain archive with
# the same instructions whatever the byte, whereas inflating one changed
# byte of the gzipped archive would not be the same work.
vm_initramfs_flag() {
	local out=$1 dir
	dir=$(mktemp -d)
	mkdir "$dir/mmdelta"
	echo "$VM_INSNS" >"$dir/mmdelta/insns-counted"
	vm_initramfs_pad "$out"
	vm_cpio "$dir" >>"$out" || { rm -rf "$dir"; die "building the initramfs failed"; }
	rm -rf "$dir"
}

# A bench that wraps a program (bench/NAME.sh's guest_programs: stress-ng)
# gets it and its shared libraries staged as perf is, and the libraries
# the bench preloads into it (build/lib/NAME-*.so) beside its binary.
vm_stage_wrapped() {
	local root=$1 bench f prog; shift
	for bench in "$@"; do
		f=$MMDELTA_ROOT/bench/$bench.sh
		[ -f "$f" ] || continue
		while IFS= read -r prog; do vm_stage_host_binary "$root" "$prog"; done < <(
			unset -f guest_programs
			# shellcheck source=/dev/null  # the bench's own, named by the config
			source "$f"
			! declare -F guest_programs >/dev/null || guest_programs)
		for f in "$MMDELTA_BUILD/lib/$bench"-*.so; do
			[ ! -e "$f" ] || { mkdir -p "$root/mmdelta/lib" && cp "$f" "$root/mmdelta/lib/"; }
		done
	done
}

# Whether a config of the run (with its --set) asks for a monitor that runs
# perf.
vm_needs_perf() {
	local c
	for c in "${CONFIGS[@]}"; do
		(config_load "$c" && monitor_list "${CFG[MONITORS]}") || exit 2
	done | grep -qxF -f <(tr ' ' '\n' <<<"$MONITORS_PERF")
}

# The staged tree ROOT as a newc stream, byte-identical for identical inputs
# (order, owners, inode numbers, times): unpacking it is then the same work
# on every boot.
vm_cpio() {
	find "$1" -exec touch -h -d @0 {} +
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet)
}

# The gzipped archive of the userland, the suite and BENCH's binaries, from
# VM_INITRAMFS_CACHE or built into it: VM_INITRAMFS_BASE is its path.
# vm_initramfs_base BENCH...
vm_initramfs_base() {
	local root tool key kept tmp
	root=$(mktemp -d)
	vm_stage_userland "$root"
	for tool in "${VM_HOST_TOOLS[@]}"; do vm_stage_host_binary "$root" "$tool"; done
	if vm_needs_perf; then vm_stage_host_binary "$root" perf; fi
	vm_stage_suite "$root" "$@"
	vm_stage_wrapped "$root" "$@"
	key=$(vm_cpio "$root" | sha256sum) || { rm -rf "$root"; die "building the initramfs failed"; }
	kept=$VM_INITRAMFS_CACHE/$(suite_version | tr -c 'A-Za-z0-9._+\n-' _)-${key%% *}.cpio.gz
	if [ -f "$kept" ]; then
		touch "$kept"
		VM_INITRAMFS_HOW=kept
	else
		mkdir -p "$VM_INITRAMFS_CACHE" || { rm -rf "$root"; die "cannot create $VM_INITRAMFS_CACHE for the initramfs"; }
		tmp=$(mktemp "$VM_INITRAMFS_CACHE/.build.XXXXXX")
		if ! vm_cpio "$root" | gzip -1 -n >"$tmp"; then
			rm -rf "$root" "$tmp"
			die "building the initramfs failed"
		fi
		# two runs building the same archive at once: either rename wins
		mv -f "$tmp" "$kept"
		find "$VM_INITRAMFS_CACHE" -maxdepth 1 -name '*.cpio.gz' -mtime +30 -delete 2>/dev/null || true
		VM_INITRAMFS_HOW=built
	fi
	rm -rf "$root"
	VM_INITRAMFS_BASE=$kept
}

# vm_initramfs_build OUT BENCH...: the kept archive, then the run's configs
# and arguments, then the insns flag.
vm_initramfs_build() {
	local out=$1 root; shift
	vm_initramfs_base "$@"
	cp "$VM_INITRAMFS_BASE" "$out" || die "cannot copy $VM_INITRAMFS_BASE"
	root=$(mktemp -d)
	mkdir "$root/mmdelta"
	vm_stage_args "$root"
	vm_initramfs_pad "$out"
	if ! vm_cpio "$root" >>"$out"; then
		rm -rf "$root"
		die "building the initramfs failed"
	fi
	rm -rf "$root"
	vm_initramfs_flag "$out"
}

# What the run log says of the initramfs after vm_initramfs_build.
vm_initramfs_said() {
	local perf="perf left out: no monitor of the run needs it"
	if vm_needs_perf; then perf="with perf, for the monitors"; fi
	case $VM_INITRAMFS_HOW in
	kept) echo "kept from an earlier run, $VM_INITRAMFS_BASE; $perf" ;;
	*) echo "built and kept for the next run as $VM_INITRAMFS_BASE; $perf" ;;
	esac
}

# The kernel looks for a plain archive's magic at a 4-byte boundary.
vm_initramfs_pad() {
	local size
	size=$(stat -c %s "$1")
	head -c $(((4 - size % 4) % 4)) /dev/zero >>"$1"
}
