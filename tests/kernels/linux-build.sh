#!/bin/bash
# bisect.sh --build for the trees of linux-source.sh: run in the tree,
#   tests/kernels/linux-build.sh CACHE
# builds the checked-out commit, or takes its kernel from CACHE when the
# same files and config were built before (linux_build_cached).
set -euo pipefail
LINUX_SOURCE_WHO=linux-build
# shellcheck source=tests/kernels/linux-source.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/linux-source.sh"  # linux_build_cached
[ $# -eq 1 ] || die "usage: linux-build.sh CACHE (run in the kernel tree)"
linux_build_cached "$PWD" "$(realpath -m "$1")"
