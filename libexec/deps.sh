#!/bin/bash
# Install what mmdelta needs and is missing, by purpose.
#   deps.sh [SET]...     the sets of libexec/deps.list (all without SET)
# run.sh asks for "run" (and "vm" with --kernel), compare.sh --plot/--html
# for "report", make deps and make test for all, so a fresh Debian machine
# needs nothing else.  Only missing packages are installed: on a machine that
# has them all this costs one dpkg query.
set -euo pipefail

LIST=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/deps.list

# A --kernel guest has no package manager: its initramfs carries everything
# prebuilt (drivers/vm/initramfs.sh).
[ "${MMDELTA_GUEST:-0}" != 1 ] || exit 0

say() { printf 'mmdelta: %s\n' "$*" >&2; }

# The packages of the sets named (all sets without arguments), once each.
packages() {
	awk -v want=" $* " '
		{ sub(/#.*/, "") } NF < 2 { next }
		(want == "  " || index(want, " " $1 " ")) && !seen[$2]++ { print $2 }' "$LIST"
}

main() {
	local set
	local -a wanted missing=()
	for set in "$@"; do
		awk -v s="$set" '{ sub(/#.*/, "") } $1 == s { found = 1 } END { exit !found }' "$LIST" ||
			{ say "deps.sh: no package set '$set' in $LIST"; exit 2; }
	done
	mapfile -t wanted < <(packages "$@")
	if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
		say "not a Debian/Ubuntu system; install these packages (or your distribution's equivalents): ${wanted[*]}"
		exit 1
	fi
	# One query for all: run.sh asks on every start, and a fork is not free.
	mapfile -t missing < <(dpkg-query -W -f '${Package} ${Status}\n' "${wanted[@]}" 2>/dev/null |
		awk -v want="${wanted[*]}" '/ install ok installed$/ { ok[$1] = 1 }
			END { n = split(want, w, " "); for (i = 1; i <= n; i++) if (!ok[w[i]]) print w[i] }')
	[ ${#missing[@]} -gt 0 ] || exit 0
	# MMDELTA_DEPS=check (a Slurm job on a test node): say what is missing,
	# change nothing.
	if [ "${MMDELTA_DEPS:-}" = check ]; then
		say "missing packages: ${missing[*]} (make deps installs them)"
		exit 1
	fi
	if [ "$(id -u)" -ne 0 ]; then
		say "missing packages and not root: apt-get install ${missing[*]}"
		exit 1
	fi
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# Another apt (an unattended upgrade, a second run.sh installing the
	# same set) holds dpkg's lock for minutes at most: wait for it rather
	# than fail the run.
	local -a apt=(apt-get -o DPkg::Lock::Timeout=600)
	if ! "${apt[@]}" install -y -q --no-install-recommends "${missing[@]}" >&2; then
		"${apt[@]}" update -q >&2
		"${apt[@]}" install -y -q --no-install-recommends "${missing[@]}" >&2
	fi
}

main "$@"
