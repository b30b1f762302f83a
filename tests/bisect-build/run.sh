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
SOURCE=/usr/src/linux-source-6.1.tar.xz
PACKAGES=(linux-source-6.1 flex bison bc libelf-dev)   # the source and what building it needs
# A fixed build identity: the version string the guest prints is then the
# same for every commit, and so is the work of printing it.
BUILD="make -s -j$(nproc) KBUILD_BUILD_VERSION=1 KBUILD_BUILD_TIMESTAMP=2024-01-01 KBUILD_BUILD_USER=mmdelta KBUILD_BUILD_HOST=bisect bzImage"

say() { printf 'test-bisect-build: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

install_missing() {
	local p missing=()
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	[ "$(id -u)" = 0 ] || die "missing packages and not root: apt-get install ${missing[*]}"
	say "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

# The source as one commit, tagged base, and the series on top, tagged
# series; made once, checked and reset to that state on later runs.
make_tree() {
	local git=(git -C "$TREE" -c user.name=mmdelta -c user.email=mmdelta@example.org)
	if [ -d "$TREE/.git" ] && git -C "$TREE" rev-parse -q --verify series >/dev/null; then
		git -C "$TREE" bisect reset >/dev/null 2>&1 || true
		git -C "$TREE" checkout -q -f main
		return 0
	fi
	rm -rf "$TREE"
	mkdir -p "$WORK"
	say "unpacking $SOURCE into $TREE"
	mkdir "$TREE"
	tar -xJf "$SOURCE" -C "$TREE" --strip-components=1
	git init -q -b main "$TREE"
	# -f: Debian's linux-source .gitignore ignores everything at the top level
	"${git[@]}" add -A -f
	"${git[@]}" commit -q -m "linux-source-6.1 $(dpkg-query -W -f '${Version}' linux-source-6.1)"
	git -C "$TREE" tag base
	"${git[@]}" am -q "$HERE"/0*.patch
	git -C "$TREE" tag series
}

# allnoconfig with the fragment, from a clean tree (the first build is a
# full one); every option of the fragment must have stuck.
configure() {
	local line
	git -C "$TREE" clean -fdxq
	make -s -C "$TREE" KCONFIG_ALLCONFIG="$HERE/guest.config" allnoconfig >&2
	while read -r line; do
		grep -qx "$line" "$TREE/.config" || die "guest.config: $line did not stick in .config"
	done < <(grep '^CONFIG_' "$HERE/guest.config")
}

main() {
	local res=$WORK/results t0 wall culprit
	install_missing
	[ -f "$SOURCE" ] || die "$SOURCE is missing (apt-get install linux-source-6.1)"
	make_tree
	configure
	rm -rf "$res"
	t0=$SECONDS
	"$MMDELTA_ROOT/bisect.sh" -o "$res" -n build -i 2 --set SIZE=64M --tree "$TREE" --build "$BUILD" \
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
