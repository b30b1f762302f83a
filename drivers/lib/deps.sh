#!/bin/bash
# Install what mmdelta needs and is missing.  Called by `make deps`, `make test`
# and run.sh, so a fresh Debian machine needs nothing else.  Only missing
# packages are installed: on a machine that has them all this costs one dpkg query.
set -euo pipefail

# Debian package -> why it is needed.  Later features add lines here.
PACKAGES=(
	gcc make              # build
	libgsl-dev            # t distribution for the significance test (reports/)
	libsqlite3-dev        # the history database (history.sh, reports/hist*.c)
	libcmocka-dev         # C unit tests
	bats shellcheck jq    # CLI tests, shell lint, JSON checks in tests
	sqlite3               # the history tests read the database with it
	clang                 # libFuzzer targets (make fuzz, make test)
	ministat              # independent oracle for the statistics tests
	gnuplot-nox           # plots
	fonts-dejavu-core     # the font the plots and the HTML report name
	chromium              # the HTML report tests open the page headless
	linux-perf            # perfstat, mmaplock and profile monitors
	numactl hwloc         # NUMA placement, topology.txt
	procps                # pkill of an interrupted bench, ps in the tests
	busybox-static bash-static cpio qemu-system-x86   # --kernel runs: guest userland, initramfs, VM
	slurm-wlm munge       # run.sh --slurm and its tests' Slurm cluster on this machine
)

# A --kernel guest has no package manager: its initramfs carries everything
# prebuilt (drivers/lib/vm/initramfs.sh).
[ "${MMDELTA_GUEST:-0}" != 1 ] || exit 0

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
	echo "mmdelta: not a Debian/Ubuntu system; install these packages (or your distribution's equivalents): ${PACKAGES[*]}" >&2
	exit 1
fi

missing=()
for p in "${PACKAGES[@]}"; do
	if ! dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

[ ${#missing[@]} -eq 0 ] && exit 0

# MMDELTA_DEPS=check (a Slurm job on a test node): say what is missing, change nothing.
if [ "${MMDELTA_DEPS:-}" = check ]; then
	echo "mmdelta: missing packages: ${missing[*]} (make deps installs them)" >&2
	exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "mmdelta: missing packages and not root: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "mmdelta: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; then
	apt-get update -q >&2
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi
