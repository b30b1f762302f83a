#!/bin/bash
# Fetch two builds of Debian's 6.1 cloud kernel for the --kernel tests and
# the A/B example, unpacked with dpkg-deb -x into a cache (no install hooks,
# /boot untouched).  Prints "RELEASE<TAB>VMLINUZ" per kernel; exit 2 when
# the packages cannot be downloaded at all, so tests can skip instead of fail.
#   fetch-debian-kernels.sh [CACHE_DIR]
# MMDELTA_TEST_KERNELS names the ABIs (default: 6.1.0-47 and 6.1.0-57, two
# point releases apart); if the archive no longer has one, the oldest and
# newest 6.1 cloud builds it does have are used instead.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
CACHE=${1:-${MMDELTA_KERNEL_CACHE:-$ROOT/tests/cache/kernels}}
read -r -a WANT <<<"${MMDELTA_TEST_KERNELS:-6.1.0-47-cloud-amd64 6.1.0-57-cloud-amd64}"
APT_OPTS=(-q -o APT::Sandbox::User=root)

say() { printf 'fetch-debian-kernels: %s\n' "$*" >&2; }

pkg_of() { echo "linux-image-$1-unsigned"; }
known() { apt-cache show "$(pkg_of "$1")" >/dev/null 2>&1; }

# The ABIs to use: the wanted ones if apt knows them all, else the oldest
# and newest 6.1 cloud builds it knows.
pick() {
	local abi all ok=1
	for abi in "${WANT[@]}"; do known "$abi" || ok=0; done
	if [ "$ok" = 1 ]; then printf '%s\n' "${WANT[@]}"; return; fi
	all=$(apt-cache pkgnames linux-image-6.1.0- | sed -n 's/^linux-image-\(6\.1\.0-[0-9]*-cloud-amd64\)-unsigned$/\1/p' | sort -V)
	[ -n "$all" ] || return 1
	printf '%s\n' "$all" | sed -n '1p;$p'
}

# Download and unpack one ABI into CACHE/ABI, keeping only boot/.
fetch() {
	local abi=$1 tmp deb stage
	[ -f "$CACHE/$abi/boot/vmlinuz-$abi" ] && return 0
	tmp=$(mktemp -d)
	if ! (cd "$tmp" && apt-get download "${APT_OPTS[@]}" "$(pkg_of "$abi")" >/dev/null 2>&1); then
		rm -rf "$tmp"
		return 1
	fi
	deb=$(echo "$tmp"/*.deb)
	stage=$(mktemp -d "$CACHE/.$abi.XXXXXX")
	dpkg-deb -x "$deb" "$stage"
	rm -rf "$tmp" "${stage:?}/lib" "${stage:?}/usr"
	rm -rf "${CACHE:?}/$abi"
	mv "$stage" "$CACHE/$abi"
}

main() {
	local abis abi
	mkdir -p "$CACHE"
	if ! abis=$(pick); then
		apt-get update "${APT_OPTS[@]}" >/dev/null 2>&1 || true
		abis=$(pick) || { say "apt knows no linux-image-6.1.0-*-cloud-amd64-unsigned package"; exit 2; }
	fi
	for abi in $abis; do
		fetch "$abi" || { say "apt-get download $(pkg_of "$abi") failed"; exit 2; }
		printf '%s\t%s\n' "$abi" "$CACHE/$abi/boot/vmlinuz-$abi"
	done
}

main
