#!/bin/bash
# Fetch Debian's cloud kernels for the --kernel and bisect.sh tests: every
# 6.1 build the archive serves (a series of point releases to bisect) and
# the two newest 6.12 builds (the current LTS).  Only boot/vmlinuz-ABI and
# boot/config-ABI are taken from each package (no modules, no System.map,
# no install hooks, /boot untouched), so the cache stays near 10 MB a kernel.
# Prints "RELEASE<TAB>VMLINUZ" per kernel, the 6.1 series in ABI order
# first, then 6.12; exit 2 when the packages cannot be had at all, so tests
# can skip instead of fail.
#   fetch-debian-kernels.sh [CACHE_DIR]
# MMDELTA_TEST_KERNELS names the ABIs instead (space-separated).
set -euo pipefail

MMDELTA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${1:-${MMDELTA_KERNEL_CACHE:-$MMDELTA_ROOT/tests/cache/kernels}}
APT_OPTS=(-q -o APT::Sandbox::User=root)

say() { printf 'fetch-debian-kernels: %s\n' "$*" >&2; }

pkg_of() { echo "linux-image-$1-unsigned"; }

# The cloud ABIs apt knows for a prefix, oldest first.
served() {
	apt-cache pkgnames "linux-image-$1" |
		sed -n 's/^linux-image-\(.*-cloud-amd64\)-unsigned$/\1/p' | sort -V
}

pick() {
	local abis
	if [ -n "${MMDELTA_TEST_KERNELS:-}" ]; then
		# shellcheck disable=SC2086  # one ABI a word
		printf '%s\n' $MMDELTA_TEST_KERNELS
		return
	fi
	abis=$(served 6.1.0-)
	[ -n "$abis" ] || return 1
	printf '%s\n' "$abis"
	served 6.12. | grep '+deb12-' | tail -n 2
}

# Unpack the two files of each downloaded package into CACHE/ABI/boot.  A
# session fetching the same kernel at the same time loses the rename race
# harmlessly: mv -T never moves into an existing directory.
unpack() {
	local abi=$1 deb=$2 stage
	stage=$(mktemp -d "$CACHE/.$abi.XXXXXX")
	if ! dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$stage" "./boot/vmlinuz-$abi" "./boot/config-$abi"; then
		rm -rf "$stage"
		return 1
	fi
	mv -T "$stage" "$CACHE/$abi" 2>/dev/null || rm -rf "$stage"
}

# Download, in one apt-get call, the packages of the ABIs not cached yet.
fetch() {
	local abi tmp pkgs=()
	for abi in "$@"; do
		[ -f "$CACHE/$abi/boot/vmlinuz-$abi" ] || pkgs+=("$(pkg_of "$abi")")
	done
	[ ${#pkgs[@]} -gt 0 ] || return 0
	tmp=$(mktemp -d)
	if ! (cd "$tmp" && apt-get download "${APT_OPTS[@]}" "${pkgs[@]}" >/dev/null 2>&1); then
		rm -rf "$tmp"
		say "apt-get download ${pkgs[*]} failed"
		return 1
	fi
	for abi in "$@"; do
		[ -f "$CACHE/$abi/boot/vmlinuz-$abi" ] && continue
		unpack "$abi" "$(echo "$tmp/$(pkg_of "$abi")"_*.deb)" || { rm -rf "$tmp"; say "unpacking $(pkg_of "$abi") failed"; return 1; }
	done
	rm -rf "$tmp"
}

main() {
	local abis abi
	mkdir -p "$CACHE"
	if ! abis=$(pick); then
		apt-get update "${APT_OPTS[@]}" >/dev/null 2>&1 || true
		abis=$(pick) || { say "apt knows no linux-image-6.1.0-*-cloud-amd64-unsigned package"; exit 2; }
	fi
	# shellcheck disable=SC2086  # one ABI a word
	fetch $abis || exit 2
	for abi in $abis; do
		printf '%s\t%s\n' "$abi" "$CACHE/$abi/boot/vmlinuz-$abi"
	done
}

main
