#!/usr/bin/env bats
# What a guest kernel cannot do for a run, known before the run starts
# (drivers/vm/caps.sh): read from the image's config before the boot (a
# config beside it, the config embedded in it, its tree's .config, a
# System.map beside it), else checked by the guest before its first bench.
# Images here are Debian's vmlinuz with a config fixture beside it, or a
# stand-in with the bzImage header and a compressed payload that embeds a
# config as CONFIG_IKCONFIG does; nothing is refused by booting but the
# last test, which boots once.

bats_require_minimum_version 1.5.0
load ../helpers

setup_file() {
	debian_kernels
	local k
	k=$(grep '^6\.12\.' <<<"$KERNELS" | tail -n 1)
	REL=$(cut -f1 <<<"$k") IMG=$(cut -f2 <<<"$k")
	export REL IMG
	make -s -C "$ROOT" all
}

setup() { common_setup; }
teardown() { common_teardown; }

# IMG alone in a folder of its own, with Debian's config beside it less the
# options named (sed expressions on it).
image_with_config() {
	mkdir -p "$RES/img"
	cp "$IMG" "$RES/img/"
	sed "$@" "${IMG%/*}/config-$REL" >"$RES/img/config-$REL"
	echo "$RES/img/vmlinuz-$REL"
}
unset_opt() { echo "s/^$1=y\$/# $1 is not set/"; }

# stand_in OUT COMPRESSOR CONFIG: a file with the bzImage header (setup
# sectors, HdrS, the version string, payload_offset and payload_length, as
# Documentation/arch/x86/boot.rst places them) and as its payload a
# compressed "kernel" in which CONFIG sits gzipped between IKCFG_ST and
# IKCFG_ED, followed by the size word the kernel's build appends.
le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
put() {
	# shellcheck disable=SC2059  # the escapes le32 writes
	printf "$2" | dd of="$1" bs=1 seek="$3" conv=notrunc status=none
}
stand_in() {
	local out=$1 comp=$2 config=$3 d
	d=$(mktemp -d)
	{ head -c 5000 /dev/urandom; printf IKCFG_ST; gzip -n <"$config"; printf IKCFG_ED; head -c 3000 /dev/urandom; } >"$d/vmlinux"
	$comp <"$d/vmlinux" >"$d/payload"
	head -c 1024 /dev/zero >"$out"
	put "$out" '\x01' 497                       # setup_sects: the kernel starts at 1024
	put "$out" HdrS 514
	put "$out" '\x00\x01' 526                   # the version string at 0x100 + 512
	put "$out" '6.12.0-fixture (test) #1\x00' 768
	put "$out" "$(le32 0)" 584                  # payload_offset
	put "$out" "$(le32 "$(($(stat -c %s "$d/payload") + 4))")" 588
	cat "$d/payload" >>"$out"
	# shellcheck disable=SC2059  # the escapes le32 writes
	printf "$(le32 "$(stat -c %s "$d/vmlinux")")" >>"$out"
	rm -r "$d"
}

# run.sh --dry-run: what the run would refuse before anything is written.
dry() { run --separate-stderr "$ROOT/run.sh" -o "$RES/out" -i 1 --dry-run "$@"; }

@test "THP=always on an image whose config beside it has no THP: one line with the remedy, nothing written" {
	local img
	img=$(image_with_config "$(unset_opt CONFIG_TRANSPARENT_HUGEPAGE)")
	run --separate-stderr "$ROOT/run.sh" --kernel "$img" -n vbase -o "$RES/out" -i 1 --set SIZE=64M timedmunlock-thp
	assert_one_line_error
	[ "$stderr" = "mmdelta: timedmunlock-thp: THP=always needs transparent huge pages (CONFIG_TRANSPARENT_HUGEPAGE), which --kernel $img lacks (CONFIG_TRANSPARENT_HUGEPAGE is not set in config-$REL beside the image); build it with CONFIG_TRANSPARENT_HUGEPAGE=y, or run with --set THP=never" ]
	[ ! -e "$RES/out" ]
	# --dry-run refuses it the same way; THP=never is what such a kernel does
	dry --kernel "$img" timedmunlock-thp
	assert_one_line_error
	dry --kernel "$img" --set THP=never timedmunlock-thp
	[ "$status" -eq 0 ]
	dry --kernel "$img" --set THP=madvise timedmunlock
	[[ $stderr == *"timedmunlock: THP=madvise needs transparent huge pages"* ]]
	# Debian's own config has THP
	dry --kernel "$IMG" timedmunlock-thp
	[ "$status" -eq 0 ]
}

@test "NUMA=local without CONFIG_NUMA, a monitor without tracepoints or perf: each refused with its remedy" {
	local img
	img=$(image_with_config "$(unset_opt CONFIG_NUMA)")
	dry --kernel "$img" timedmunlock
	assert_one_line_error
	[[ $stderr == *"timedmunlock: NUMA=local needs NUMA (CONFIG_NUMA), which --kernel $img lacks"*"; build it with CONFIG_NUMA=y, or run with --set NUMA=none" ]]
	img=$(image_with_config "$(unset_opt CONFIG_TRACING)")
	dry --kernel "$img" --monitors vmstat,mmaplock timedmunlock
	assert_one_line_error
	[[ $stderr == *"timedmunlock: the mmaplock monitor needs the mmap_lock tracepoints (CONFIG_TRACING), which --kernel $img lacks (CONFIG_TRACING is not set in config-$REL beside the image); build it with CONFIG_FTRACE=y and CONFIG_ENABLE_DEFAULT_TRACERS=y (for CONFIG_TRACING), or run with --monitors vmstat" ]]
	# heaprelease-lock names its monitors itself
	dry --kernel "$img" heaprelease-lock
	[[ $stderr == *"heaprelease-lock: the mmaplock monitor needs the mmap_lock tracepoints"*"or run with --monitors perfstat" ]]
	img=$(image_with_config "$(unset_opt CONFIG_PERF_EVENTS)")
	dry --kernel "$img" --monitors perfstat timedmunlock
	[[ $stderr == *"the perfstat monitor needs perf events (CONFIG_PERF_EVENTS)"*"or run with --monitors none" ]]
	img=$(image_with_config "$(unset_opt CONFIG_KALLSYMS)")
	dry --kernel "$img" --monitors vmstat,insns timedmunlock
	[[ $stderr == *"the insns monitor needs kernel symbols (CONFIG_KALLSYMS)"*"or run with --monitors vmstat" ]]
	img=$(image_with_config "$(unset_opt CONFIG_MEMFD_CREATE)")
	dry --kernel "$img" sparsemunmap-pmd
	[[ $stderr == *"sparsemunmap-pmd: BACKING=memfd needs memfd_create (CONFIG_MEMFD_CREATE)"*"or run with --set BACKING=file" ]]
	# the monitor a config does not ask for is not needed
	dry --kernel "$img" timedmunlock
	[ "$status" -eq 0 ]
}

@test "a tracepoint newer than the kernel: refused for its release, even with CONFIG_TRACING" {
	local d=$RES/old
	mkdir -p "$d"
	grep '^CONFIG_' "${IMG%/*}/config-$REL" >"$d/config"
	stand_in "$d/bzImage" "gzip -n" "$d/config"
	# the stand-in's release is 6.12.0-fixture; the table's release bound
	# is checked against a 5.10 one by rewriting the header's string
	put "$d/bzImage" '5.10.0-fixture (test) #1\x00' 768
	dry --kernel "$d/bzImage" -n old --monitors mmaplock timedmunlock
	assert_one_line_error
	[[ $stderr == *"the mmaplock monitor needs the mmap_lock tracepoints (CONFIG_TRACING), which --kernel $d/bzImage lacks (it is 5.10.0-fixture, and they came in 5.11)"* ]]
}

@test "the config embedded in the image (CONFIG_IKCONFIG) is read, gzip, xz, zstd or lz4" {
	local comp d=$RES/ik
	mkdir -p "$d"
	grep '^CONFIG_' "${IMG%/*}/config-$REL" | sed "$(unset_opt CONFIG_TRANSPARENT_HUGEPAGE)" >"$d/nothp"
	for comp in "gzip -n" "xz --check=crc32" "zstd -q" "lz4 -l -q"; do
		stand_in "$d/bzImage" "$comp" "$d/nothp"
		dry --kernel "$d/bzImage" -n ik timedmunlock-thp
		assert_one_line_error
		[[ $stderr == *"(CONFIG_TRANSPARENT_HUGEPAGE is not set in the config embedded in the image)"* ]]
		dry --kernel "$d/bzImage" -n ik timedmunlock
		[ "$status" -eq 0 ]
	done
	# with THP in the embedded config, THP=always goes ahead
	grep '^CONFIG_' "${IMG%/*}/config-$REL" >"$d/thp"
	stand_in "$d/bzImage" "gzip -n" "$d/thp"
	dry --kernel "$d/bzImage" -n ik timedmunlock-thp
	[ "$status" -eq 0 ]
}

@test "a tree's .config is read for its arch/x86/boot/bzImage, unless changed since the build" {
	local t=$RES/linux
	mkdir -p "$t/arch/x86/boot"
	cp "$IMG" "$t/arch/x86/boot/bzImage"
	touch -d '-1 hour' "$t/arch/x86/boot/bzImage"
	grep '^CONFIG_' "${IMG%/*}/config-$REL" | sed "$(unset_opt CONFIG_TRANSPARENT_HUGEPAGE)" >"$t/.config"
	touch -d '-2 hours' "$t/.config"
	dry --kernel "$t/arch/x86/boot/bzImage" timedmunlock-thp
	assert_one_line_error
	[[ $stderr == *"(CONFIG_TRANSPARENT_HUGEPAGE is not set in $t/.config, the tree the image was built in)"* ]]
	# a .config newer than the image may not be the image's: the guest checks
	touch "$t/.config"
	dry --kernel "$t/arch/x86/boot/bzImage" timedmunlock-thp
	[ "$status" -eq 0 ]
}

@test "System.map beside the image, where no config is: its symbols tell" {
	local d=$RES/map
	mkdir -p "$d"
	cp "$IMG" "$d/"
	printf 'ffffffff81000000 T _stext\nffffffff82000000 D node_data\n' >"$d/System.map-$REL"
	dry --kernel "$d/vmlinuz-$REL" timedmunlock-thp
	assert_one_line_error
	[[ $stderr == *"(no transparent_hugepage_flags in System.map-$REL beside the image)"* ]]
	printf 'ffffffff82000010 D transparent_hugepage_flags\n' >>"$d/System.map-$REL"
	dry --kernel "$d/vmlinuz-$REL" timedmunlock-thp
	[ "$status" -eq 0 ]
	# a weak symbol is a stub of what is not built
	dry --kernel "$d/vmlinuz-$REL" sparsemunmap-pmd
	[[ $stderr == *"(no memfd_fcntl in System.map-$REL beside the image)"* ]]
	printf 'ffffffff81200000 W memfd_fcntl\n' >>"$d/System.map-$REL"
	dry --kernel "$d/vmlinuz-$REL" sparsemunmap-pmd
	[ "$status" -eq 2 ]
	printf 'ffffffff81200000 T memfd_fcntl\n' >>"$d/System.map-$REL"
	dry --kernel "$d/vmlinuz-$REL" sparsemunmap-pmd
	[ "$status" -eq 0 ]
	# Debian's System.map is a one-line stand-in: it says nothing
	echo 'ffffffffffffffff B The real System.map is in the linux-image-<version>-dbg package' >"$d/System.map-$REL"
	dry --kernel "$d/vmlinuz-$REL" timedmunlock-thp
	[ "$status" -eq 0 ]
}

@test "on this kernel without THP: THP=never runs and meta says not built; THP=always is refused before anything is written" {
	run --separate-stderr env MMDELTA_THP_SYS=/nonexistent "$ROOT/run.sh" -o "$RES" -n nothp -i 1 \
		--set SIZE=64M --set NUMA=none --monitors none timedmunlock
	[ "$status" -eq 0 ]
	grep -qx 'thp_enabled: not built' "$RES/nothp/meta"
	grep -qx 'thp_defrag: not built' "$RES/nothp/meta"
	grep -qx 'THP=never' "$RES/nothp/timedmunlock/config"
	run --separate-stderr env MMDELTA_THP_SYS=/nonexistent "$ROOT/run.sh" -o "$RES/out" -i 1 --set SIZE=64M timedmunlock-thp
	assert_one_line_error
	[ "$stderr" = "mmdelta: timedmunlock-thp: THP=always needs transparent huge pages (CONFIG_TRANSPARENT_HUGEPAGE), which this kernel ($(uname -r)) lacks (no /nonexistent); build it with CONFIG_TRANSPARENT_HUGEPAGE=y, or run with --set THP=never" ]
	[ ! -e "$RES/out" ]
}

@test "an image that says nothing: the guest refuses at boot, before any bench, and nothing is left to need --force" {
	local d=$RES/bare
	mkdir -p "$d"
	cp "$IMG" "$d/"
	# The kernel hands a command-line word it does not know to /init's
	# environment: the guest's run.sh then sees a kernel without THP.
	run --separate-stderr "$ROOT/run.sh" --kernel "$d/vmlinuz-$REL" -n bare -o "$RES/out" -i 1 --set SIZE=64M \
		--vm-append MMDELTA_THP_SYS=/nonexistent timedmunlock-thp
	printf '%s\n' "$stderr"
	[ "$status" -eq 2 ]
	[[ ${stderr_lines[-1]} == "mmdelta: the guest refused the run before any bench ran (nothing kept): timedmunlock-thp: THP=always needs transparent huge pages (CONFIG_TRANSPARENT_HUGEPAGE), which this kernel ($REL) lacks (no /nonexistent); build it with CONFIG_TRANSPARENT_HUGEPAGE=y, or run with --set THP=never" ]]
	[[ $stderr != *"run left partial"* ]]
	[ -z "$(ls -A "$RES/out")" ]
	# the retry needs no --force: the name is free
	dry --kernel "$d/vmlinuz-$REL" -n bare --set THP=never timedmunlock-thp
	[ "$status" -eq 0 ]
	! pgrep -f "qemu-system.*$RES" >/dev/null
}
