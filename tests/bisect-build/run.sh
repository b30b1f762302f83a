#!/bin/bash
# make test-bisect-build: bisect.sh in tree mode with real kernel builds.
# Debian's linux-source-6.1 becomes a git tree; the patches beside this
# script are a series of 7 commits on it, of which one (0004) adds work to
# every munlocked page.  The kernel is built with the minimal guest config
# (guest.config) from a clean tree, then bisect.sh measures timedmunlock at
# 64M under icount at each end and at the points git bisect chooses, and
# must name that commit.  Prints the first and the incremental build times
# and the whole bisection's wall time.  About half an hour on 2 CPUs.
#   tests/bisect-build/run.sh [WORK_DIR]   (default tests/cache/bisect-build;
#   the unpacked tree, 1.5 GB and its build, is kept there between runs)
set -euo pipefail

HERE=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
MMDELTA_ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(realpath -m "${1:-$MMDELTA_ROOT/tests/cache/bisect-build}")
TREE=$WORK/linux
LINUX_SOURCE_WHO=test-bisect-build
# shellcheck source=tests/kernels/linux-source.sh
source "$MMDELTA_ROOT/tests/kernels/linux-source.sh"  # LINUX_BUILD, linux_source_*, say, die

# The source as one commit, tagged base, and the series on top (branch
# bisect-build, tagged series); made once, checked on later runs.
make_tree() {
	linux_source_tree "$TREE"
	linux_source_branch "$TREE" bisect-build "$HERE"/0*.patch
	git -C "$TREE" tag -f series refs/heads/bisect-build >/dev/null
	git -C "$TREE" checkout -q -f bisect-build
}

main() {
	local res=$WORK/results t0 wall culprit
	linux_source_install
	make_tree
	# from a clean tree: the first build is a full one, and its time is reported
	linux_source_configure "$TREE" clean
	rm -rf "$res"
	t0=$SECONDS
	"$MMDELTA_ROOT/bisect.sh" -o "$res" -n build -i 2 --set SIZE=64M --tree "$TREE" --build "$LINUX_BUILD" \
		--image arch/x86/boot/bzImage timedmunlock base series
	wall=$((SECONDS - t0))
	culprit=$(git -C "$TREE" log --format=%H --grep='re-read the page flags' base..series)
	[ "$(jq -r .first_bad.commit "$res/build/bisect.json")" = "$culprit" ] ||
		die "named $(jq -r .first_bad.commit "$res/build/bisect.json"), not the regression $culprit"
	jq -r --arg wall "$wall" '
		"first build: \(.steps[0].build_seconds) s (the good end, from a clean tree)",
		"incremental builds: \([.steps[1:][] | .build_seconds | select(. != null)] | map(tostring + " s") | join(", "))",
		"boots: \(.boots); the whole bisection: \($wall) s",
		(.last_good.run as $g | .first_bad.run as $b |
		 ([.steps[] | select(.run == $g and .mean != null)] | last | .mean) as $mg |
		 ([.steps[] | select(.run == $b and .mean != null)] | last | .mean) as $mb |
		 "the step: \($g) -> \($b): \($mg) -> \($mb) \(.unit) (\(($mb - $mg) / $mg * 10000 | round / 100)%)")' \
		"$res/build/bisect.json"
	say "named the regression $culprit; report in $res/build/bisect.txt"
}

main
