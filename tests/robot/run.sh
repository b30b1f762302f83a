#!/bin/bash
# make test-robot: two kernel test robot reports reproduced on Debian's
# linux-source-6.12, under the icount clock, with the robot's own test
# (stress-ng's pagemove, mremap and munmap stressors, one worker).
#   0001  link mm/ before kernel/: the robot's experiment that showed its
#         uretprobe report (stress-ng mprotect -12.3%) to be code alignment.
#         Code moves, no instruction changes: the suite must say the work
#         did not change.
#   0002  the walk "mseal: add mseal syscall" added before munmap and
#         mremap (can_modify_mm), since replaced by per-vma checks: the
#         robot's pagemove -4.4%, can_modify_mm 0 -> 1.35% of the cycles.
#         The suite must find pagemove slower and name can_modify_mm.
# The tree is base (the package's source, one commit) and robot-series
# (base, 0001, 0002); base, linkorder (base + 0001) and mseal (the series)
# are built with the minimal guest config and measured, then bisect.sh
# --tree over the series must name 0002's commit.
#   tests/robot/run.sh [--work DIR] [--only build|measure|bisect]
# WORK defaults to tests/cache/robot (the tree and its build, about 1.5 GB).
# Commits carry a fixed identity and date, so a tree made again has the
# same commits, and an image is rebuilt only when its commit changes.
set -euo pipefail

HERE=$(cd "${BASH_SOURCE[0]%/*}" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$ROOT/tests/cache/robot
ONLY=
while [ $# -gt 0 ]; do
	case $1 in
	--work) WORK=$2; shift 2 ;;
	--only) ONLY=$2; shift 2 ;;
	*) echo "test-robot: unknown argument $1 (--work DIR, --only build|measure|bisect)" >&2; exit 2 ;;
	esac
done
case $ONLY in "" | build | measure | bisect) ;; *) echo "test-robot: --only $ONLY: build, measure or bisect" >&2; exit 2 ;; esac

SOURCE=/usr/src/linux-source-6.12.tar.xz
PACKAGES=(linux-source-6.12 flex bison bc libelf-dev)
TREE=$WORK/linux
RES=$WORK/results
BUILD="make -s -j$(nproc) KBUILD_BUILD_VERSION=1 KBUILD_BUILD_TIMESTAMP=2024-01-01 KBUILD_BUILD_USER=mmdelta KBUILD_BUILD_HOST=bisect bzImage"
# The robot's test: its three stressors as sweep points of one run.
MEASURE=(-i 3 --monitors "vmstat,insns" --set WORKERS=1 --set "STRESSOR=pagemove mremap munmap" stress-ng-pagemove)

say() { printf 'test-robot: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
git_fixed() {
	GIT_AUTHOR_DATE=2024-01-01T00:00:00Z GIT_COMMITTER_DATE=2024-01-01T00:00:00Z \
		git -C "$TREE" -c user.name=mmdelta -c user.email=mmdelta@example.org "$@"
}

packages() {
	local p missing=()
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return
	[ "$(id -u)" = 0 ] || die "missing packages and not root: apt-get install ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

# The source as commit base; the series as robot-series.
tree() {
	[ -d "$TREE/.git" ] && git -C "$TREE" rev-parse -q --verify robot-series >/dev/null && return
	say "unpacking $SOURCE into $TREE"
	mkdir -p "$WORK"
	rm -rf "$TREE" "$WORK/linux-source-6.12"
	tar -xf "$SOURCE" -C "$WORK"
	mv "$WORK/linux-source-6.12" "$TREE"
	# Debian's .gitignore ignores the whole top level (its packaging repo
	# holds none of it); the kernel's own ignores are kept.
	sed -i '/^# Debian packaging: ignore everything/,/^!\/debian\/$/d' "$TREE/.gitignore"
	git -C "$TREE" init -q
	git_fixed add -A
	git_fixed commit -qm "Debian linux-source-6.12 $(dpkg-query -W -f '${Version}' linux-source-6.12)"
	git_fixed tag base
	git_fixed checkout -q -b robot-series
	git_fixed am -q --committer-date-is-author-date "$HERE"/0*.patch
}

# image NAME REV: REV built with the guest config into WORK/images/NAME.
image() {
	local name=$1 commit start
	commit=$(git -C "$TREE" rev-parse "$2")
	if [ -f "$WORK/images/$name" ] && [ "$(cat "$WORK/images/$name.commit" 2>/dev/null)" = "$commit" ]; then
		return
	fi
	git -C "$TREE" checkout -q "$commit"
	cat "$ROOT/tests/bisect-build/guest.config" "$HERE/robot.config" >"$WORK/fragment"
	make -s -C "$TREE" KCONFIG_ALLCONFIG="$WORK/fragment" allnoconfig >&2
	start=$(date +%s)
	(cd "$TREE" && $BUILD) >&2
	mkdir -p "$WORK/images"
	cp "$TREE/arch/x86/boot/bzImage" "$WORK/images/$name"
	echo "$commit" >"$WORK/images/$name.commit"
	say "$name ($(git -C "$TREE" log -1 --format=%h "$commit")) built in $(($(date +%s) - start)) s"
}

measure() {
	local name
	for name in base linkorder mseal; do
		if [ -f "$RES/r-$name/meta" ] && grep -qx 'status: complete' "$RES/r-$name/meta"; then
			continue
		fi
		"$ROOT/run.sh" -o "$RES" --force -n "r-$name" --kernel "$WORK/images/$name" "${MEASURE[@]}"
	done
	"$ROOT/compare.sh" -o "$RES" --profile --top 5 r-base r-linkorder | tee "$WORK/linkorder.txt"
	"$ROOT/compare.sh" -o "$RES" --profile --top 5 r-linkorder r-mseal | tee "$WORK/mseal.txt"
	# the link order moves code: no bench's figure may change, and the
	# instruction totals of all three stressors stay unproven
	grep -q '^stressng STRESSOR=pagemove: No difference proven in ns/bogo-op-pagemove' "$WORK/linkorder.txt" ||
		die "linkorder: pagemove's figure changed ($WORK/linkorder.txt)"
	! grep -q '^stressng STRESSOR=[a-z]*: where the instructions changed' "$WORK/linkorder.txt" ||
		die "linkorder: a stressor's instructions changed ($WORK/linkorder.txt)"
	# the walk: pagemove slower, its block led by the walk's functions
	grep -Eq '^  stressng STRESSOR=pagemove ns/bogo-op .* worse(, beyond resolution .*)?$' "$WORK/mseal.txt" ||
		die "mseal: pagemove is not slower ($WORK/mseal.txt)"
	sed -n '/^stressng STRESSOR=pagemove: where the instructions changed/,/^$/p' "$WORK/mseal.txt" |
		grep -q '^can_modify_mm  *0 ' || die "mseal: can_modify_mm is not in pagemove's profile ($WORK/mseal.txt)"
	say "measured: linkorder changes no work, the walk slows pagemove in can_modify_mm"
}

bisect() {
	local culprit
	culprit=$(git -C "$TREE" rev-parse robot-series)
	git -C "$TREE" checkout -q robot-series
	cat "$ROOT/tests/bisect-build/guest.config" "$HERE/robot.config" >"$WORK/fragment"
	make -s -C "$TREE" KCONFIG_ALLCONFIG="$WORK/fragment" allnoconfig >&2
	# a bisection done before is read, not run again (bisect.sh keeps it)
	[ -f "$RES/bisect-pagemove/bisect.txt" ] ||
		"$ROOT/bisect.sh" -o "$RES" -n bisect-pagemove --set WORKERS=1 --set STRESSOR=pagemove \
			--tree "$TREE" --build "$BUILD" --image arch/x86/boot/bzImage stress-ng-pagemove base robot-series
	grep -q "${culprit:0:12}" "$RES/bisect-pagemove/bisect.txt" ||
		die "bisect did not name ${culprit:0:12} ($RES/bisect-pagemove/bisect.txt)"
	say "bisected: $(git -C "$TREE" log -1 --format='%h %s' "$culprit")"
}

packages
tree
if [ -z "$ONLY" ] || [ "$ONLY" = build ]; then
	image base base
	image linkorder robot-series~1
	image mseal robot-series
fi
if [ -z "$ONLY" ] || [ "$ONLY" = measure ]; then measure; fi
if [ -z "$ONLY" ] || [ "$ONLY" = bisect ]; then bisect; fi
