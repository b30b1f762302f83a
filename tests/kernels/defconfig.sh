#!/bin/bash
# make test-defconfig: the README's first --kernel run on what a user builds
# first, a `make defconfig` kernel of Debian's linux-source-6.12, which has
# no transparent huge pages (no CONFIG_TRANSPARENT_HUGEPAGE) and no
# embedded config.  Checks, printing each command's figures:
#   1. the tree's arch/x86/boot/bzImage with THP=always: refused before
#      the boot, from the tree's .config, nothing written;
#   2. the bzImage copied alone (base/bzImage) with timedmunlock, whose
#      config is THP=never: the run completes, meta says not built;
#   3. the copy with THP=always: the guest refuses before its first bench
#      and nothing is left, so the retry needs no --force.
# The tree and its build stay in tests/cache/defconfig-6.12 (71 min of
# build on two busy cores the first time; nothing the second).
#   tests/kernels/defconfig.sh [RESULTS_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TREE=$ROOT/tests/cache/defconfig-6.12
SOURCE=/usr/src/linux-source-6.12.tar.xz
RES=${1:-$(mktemp -d)}
BUILD=(make -s -j"$(nproc)" KBUILD_BUILD_VERSION=1 KBUILD_BUILD_TIMESTAMP=2024-01-01
	KBUILD_BUILD_USER=mmdelta KBUILD_BUILD_HOST=defconfig bzImage)
FAILED=0

say() { printf 'defconfig: %s\n' "$*" >&2; }
check() { if "$@"; then say "ok: $*"; else say "FAILED: $*"; FAILED=1; fi; }

install_source() {
	local p missing=()
	for p in linux-source-6.12 flex bison bc libelf-dev libssl-dev; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || { say "missing packages and not root: apt-get install ${missing[*]}"; exit 2; }
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

build() {
	local t0=$SECONDS
	if [ ! -f "$TREE/Makefile" ]; then
		mkdir -p "$TREE"
		tar -xJf "$SOURCE" -C "$TREE" --strip-components=1
	fi
	[ -f "$TREE/.config" ] || make -s -C "$TREE" defconfig
	(cd "$TREE" && "${BUILD[@]}")
	say "built $(cat "$TREE/include/config/kernel.release") in $((SECONDS - t0)) s (0: built before)"
	grep -qx '# CONFIG_TRANSPARENT_HUGEPAGE is not set' "$TREE/.config" || { say "the defconfig has THP: nothing to check"; exit 2; }
}

# timed CMD...: run it, say its status, wall time and last line.
timed() {
	local t0=$SECONDS rc=0
	"$@" 2>"$RES/last.err" || rc=$?
	say "exit $rc after $((SECONDS - t0)) s: $*"
	say "  last line: $(tail -n 1 "$RES/last.err")"
	return "$rc"
}

main() {
	local img=$TREE/arch/x86/boot/bzImage rc
	install_source
	build
	mkdir -p "$RES/base"
	# 1. refused before the boot, from the tree's .config
	rc=0; timed "$ROOT/run.sh" --kernel "$img" -n vthp -o "$RES/r1" timedmunlock-thp || rc=$?
	check [ "$rc" = 2 ]
	check grep -q 'is not set in .*/.config, the tree the image was built in' "$RES/last.err"
	check [ ! -e "$RES/r1" ]
	# 2. the README's command on the image alone: THP=never runs
	cp "$img" "$RES/base/bzImage"
	rc=0; timed "$ROOT/run.sh" --kernel "$RES/base/bzImage" -n vbase -o "$RES/r2" -i 2 --set SIZE=64M timedmunlock || rc=$?
	check [ "$rc" = 0 ]
	check grep -qx 'thp_enabled: not built' "$RES/r2/vbase/meta"
	check grep -q '^vm_kernel_caps: the guest, before its first bench' "$RES/r2/vbase/meta"
	say "vbase elapsed: $(awk -F'\t' '$1 == "elapsed" { printf "%s ", $4 }' "$RES/r2/vbase/timedmunlock/samples.tsv")"
	# 3. THP=always on it: the guest refuses, nothing is left
	rc=0; timed "$ROOT/run.sh" --kernel "$RES/base/bzImage" -n vthp -o "$RES/r3" -i 2 --set SIZE=64M timedmunlock-thp || rc=$?
	check [ "$rc" = 2 ]
	check grep -q 'the guest refused the run before any bench ran (nothing kept): timedmunlock-thp: THP=always needs' "$RES/last.err"
	check [ -z "$(ls -A "$RES/r3" 2>/dev/null)" ]
	[ "$FAILED" = 0 ] || { say "some checks failed; results in $RES"; exit 1; }
	say "all checks passed; results in $RES"
}

main
