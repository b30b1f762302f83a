# Debian's linux-source-6.1 as a git tree that the opt-in real-build tests
# (make test-bisect-build, make test-threads) build guest kernels from:
# the packages, the tree (the source as one commit tagged base), patch
# series on it, the minimal guest config and the build command.  The
# caller sets LINUX_SOURCE_WHO (its name, for messages) before sourcing.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_TESTS_LINUX_SOURCE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_TESTS_LINUX_SOURCE=1

LINUX_SOURCE_ROOT=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd)
LINUX_SOURCE=/usr/src/linux-source-6.1.tar.xz
# The source and what building it needs.
LINUX_SOURCE_PACKAGES=(linux-source-6.1 flex bison bc libelf-dev)
# The smallest kernel run.sh --kernel runs the benches in (each line said why).
LINUX_GUEST_CONFIG=$LINUX_SOURCE_ROOT/tests/bisect-build/guest.config
# A fixed build identity: the version string the guest prints is then the
# same for every commit, and so is the work of printing it.
# shellcheck disable=SC2034  # for the callers
LINUX_BUILD="make -s -j$(nproc) KBUILD_BUILD_VERSION=1 KBUILD_BUILD_TIMESTAMP=2024-01-01 KBUILD_BUILD_USER=mmdelta KBUILD_BUILD_HOST=bisect bzImage"
# shellcheck disable=SC2034  # for the callers
LINUX_IMAGE=arch/x86/boot/bzImage

say() { printf '%s: %s\n' "${LINUX_SOURCE_WHO:-linux-source}" "$*" >&2; }
die() { say "$*"; exit 1; }

linux_source_install() {
	local p missing=()
	for p in "${LINUX_SOURCE_PACKAGES[@]}"; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		[ "$(id -u)" = 0 ] || die "missing packages and not root: apt-get install ${missing[*]}"
		say "installing ${missing[*]}"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=900 \
			--no-install-recommends "${missing[@]}" >&2
	fi
	[ -f "$LINUX_SOURCE" ] || die "$LINUX_SOURCE is missing (apt-get install linux-source-6.1)"
}

# The package's version, as the tree's base commit names it.
linux_source_version() { dpkg-query -W -f '${Version}' linux-source-6.1; }

linux_git() { git -C "$1" -c user.name=mmdelta -c user.email=mmdelta@example.org "${@:2}"; }

# linux_source_tree TREE: the source unpacked into TREE as one commit,
# tagged base, on branch main; a tree that has base already is kept (its
# build too), a bisection left in it ended.
linux_source_tree() {
	local tree=$1
	if [ -e "$tree/.git" ] && git -C "$tree" rev-parse -q --verify base >/dev/null; then
		git -C "$tree" bisect reset >/dev/null 2>&1 || true
		# A tree copied or moved has index stat data that no longer match its
		# files, and checkout -f would rewrite every one of them: a full build.
		git -C "$tree" update-index -q --refresh >/dev/null || true
		say "the tree: $tree, base $(git -C "$tree" log -1 --format=%s base)"
		return 0
	fi
	rm -rf "$tree"
	mkdir -p "$tree"
	say "unpacking $LINUX_SOURCE ($(linux_source_version)) into $tree"
	tar -xJf "$LINUX_SOURCE" -C "$tree" --strip-components=1
	git init -q -b main "$tree"
	# -f: Debian's linux-source .gitignore ignores everything at the top level
	linux_git "$tree" add -A -f
	linux_git "$tree" commit -q -m "linux-source-6.1 $(linux_source_version)"
	git -C "$tree" tag base
}

# linux_source_branch TREE BRANCH PATCH...: BRANCH is base with the
# patches applied, one commit each (git am: their messages are kept).  A
# branch whose changes are already those patches' is left as it is, so its
# files keep their times and the next build stays incremental.
linux_source_branch() {
	local tree=$1 branch=$2 want have
	shift 2
	want=$(cat "$@" | git -C "$tree" patch-id --stable | cut -d' ' -f1 | paste -sd ' ')
	if git -C "$tree" rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
		have=$(git -C "$tree" log --reverse -p "base..$branch" | git -C "$tree" patch-id --stable | cut -d' ' -f1 | paste -sd ' ')
		[ "$have" != "$want" ] || return 0
	fi
	git -C "$tree" checkout -q -f -B "$branch" base
	linux_git "$tree" am -q "$@"
}

# linux_source_configure TREE [clean]: allnoconfig with the guest fragment;
# every option of the fragment must have stuck.  With clean, from a clean
# tree (the next build is a full one).  Without, a tree whose .config holds
# every line of the fragment is left alone: even an allnoconfig that comes
# out the same rewrites include/config/, and the next build is a full one.
linux_source_configure() {
	local tree=$1
	if [ "${2:-}" = clean ]; then
		git -C "$tree" clean -fdxq
	elif [ -f "$tree/.config" ] && linux_config_has "$tree/.config"; then
		return 0
	fi
	make -s -C "$tree" KCONFIG_ALLCONFIG="$LINUX_GUEST_CONFIG" allnoconfig >&2
	linux_config_has "$tree/.config" || die "guest.config: $(linux_config_has "$tree/.config" missing) did not stick in .config"
}

# Does CONFIG hold every option of the fragment?  With missing: the first
# line it lacks.
linux_config_has() {
	local line
	while read -r line; do
		grep -qx -- "$line" "$1" && continue
		[ "${2:-}" != missing ] || echo "$line"
		return 1
	done < <(grep '^CONFIG_' "$LINUX_GUEST_CONFIG")
}

# linux_build_cached TREE CACHE: the kernel of TREE's checked-out files and
# .config at TREE/LINUX_IMAGE, built, or copied from CACHE when a build of
# the same files and config is there (the build identity is fixed, so it is
# the same kernel).  A bisection builds the same few trees again and again.
linux_build_cached() {
	local tree=$1 cache=$2 key t0
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] || die "$tree has uncommitted changes"
	key=$(git -C "$tree" rev-parse 'HEAD^{tree}')-$(sha256sum "$tree/.config" | cut -c1-16)
	if [ -f "$cache/$key/bzImage" ]; then
		say "$(git -C "$tree" log -1 --format=%h): the kernel of these files and config is in $cache/$key"
		cp "$cache/$key/bzImage" "$tree/$LINUX_IMAGE"
		return 0
	fi
	t0=$SECONDS
	(cd "$tree" && bash -c "$LINUX_BUILD") || return 1
	mkdir -p "$cache/$key"
	cp "$tree/$LINUX_IMAGE" "$cache/$key/bzImage.tmp"
	mv "$cache/$key/bzImage.tmp" "$cache/$key/bzImage"
	echo $((SECONDS - t0)) >"$cache/$key/build-seconds"
	say "$(git -C "$tree" log -1 --format=%h): built in $((SECONDS - t0)) s"
}

# linux_cache_seed TREE CACHE IMAGE COMMIT: IMAGE, built elsewhere from
# COMMIT with TREE's .config, goes into CACHE as that commit's kernel.
linux_cache_seed() {
	local key
	key=$(git -C "$1" rev-parse "$4^{tree}")-$(sha256sum "$1/.config" | cut -c1-16)
	[ -f "$2/$key/bzImage" ] && return 0
	mkdir -p "$2/$key"
	cp "$3" "$2/$key/bzImage"
	echo prebuilt >"$2/$key/build-seconds"
}
