#!/bin/bash
# qemu-plugin-header.sh OUT_DIR: qemu-plugin.h for the insns monitor's
# plugin (drivers/vm/insns-plugin.c), run by make into build/include.
#
# Debian's qemu-system-x86 (bookworm: 7.2) is built with TCG plugin support
# (-plugin, plugin API version 1), but no Debian package ships the header a
# plugin is compiled against, include/qemu/qemu-plugin.h.  This script takes
# it from Debian's own source package of the *installed* qemu, pinned to its
# exact source version, so that the header matches the binary's ABI:
#
#   1. the installed source version: dpkg-query ${source:Version} of
#      qemu-system-x86 (a binNMU such as 1:7.2+dfsg-7+deb12u18+b3 is built
#      from source 1:7.2+dfsg-7+deb12u18);
#   2. a PRIVATE apt configuration (sources list, lists, cache in a fresh
#      directory under OUT_DIR, so that two builds at once cannot collide)
#      with deb-src lines for the Debian suites the system's
#      own sources name (deb.debian.org bookworm, bookworm-updates and
#      bookworm-security here); the system's apt sources, lists and cache are
#      never touched;
#   3. `apt-get source --download-only qemu=VERSION`: apt checks every file
#      against the signed Sources index (the .dsc, the .orig and the .debian
#      tarballs);
#   4. only */include/qemu/qemu-plugin.h is extracted from the .orig tarball;
#   5. every patch in debian/patches/series that touches that file is
#      applied to it, in series order (hunks for other files are dropped);
#      the script says which, or that none does.
#
# Result: OUT_DIR/qemu-plugin.h (compile with -I OUT_DIR), and OUT_DIR/qemu-plugin.h.source naming
# the version, the tarball, its sha256 and the patches applied.  apt runs
# as the caller (its sandbox user), so any user who can write OUT_DIR can
# run it; the downloaded sources (about 24 MB) are deleted afterwards.
# Exit 0 on success, 1 with a one-line reason otherwise.
set -euo pipefail

OUT=${1:?usage: qemu-plugin-header.sh OUT_DIR}
HEADER=include/qemu/qemu-plugin.h
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

say() { printf 'qemu-plugin-header: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

command -v dpkg-query >/dev/null || die "not a Debian system (no dpkg-query)"
BIN_VERSION=$(dpkg-query -W -f '${Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not installed (apt-get install qemu-system-x86)"
SRC_PKG=$(dpkg-query -W -f '${source:Package}' qemu-system-x86)
SRC_VERSION=$(dpkg-query -W -f '${source:Version}' qemu-system-x86)
say "installed qemu-system-x86 $BIN_VERSION, built from source $SRC_PKG $SRC_VERSION"

# The deb-src lines: the Debian archives the system's own sources use
# (one-line sources.list entries and deb822 .sources files alike), as
# deb-src.  Falls back to deb.debian.org when none are found.
debsrc_lines() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		awk '$1 == "deb" && /debian/ { $1 = "deb-src"; print }' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		# deb822: one stanza per blank-line-separated paragraph.
		awk -v key="$KEYRING" '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && uris ~ /debian/ && enabled != "no")
					for (i = 1; i <= nu; i++) for (j = 1; j <= ns; j++)
						printf "deb-src [signed-by=%s] %s %s %s\n", key, u[i], s[j], comps
				types = uris = comps = enabled = ""; nu = ns = 0
			}
			/^#/ { next }
			/^[ \t]*$/ { flush(); next }
			{ k = tolower($1); sub(/:$/, "", k); $1 = ""; sub(/^ +/, "") }
			k == "types" { types = $0 }
			k == "uris" { uris = $0; nu = split($0, u, " ") }
			k == "suites" { ns = split($0, s, " ") }
			k == "components" { comps = $0 }
			k == "enabled" { enabled = tolower($0) }
			END { flush() }' "$f"
	done
}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)	# absolute: apt runs from another directory below
APT_DIR=$(mktemp -d "$OUT/.apt.XXXXXX")
WORK=$(mktemp -d)
# Kept on failure, for its logs; gone on success.
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" "$APT_DIR/src"
debsrc_lines | sort -u >"$APT_DIR/sources.list"
if ! [ -s "$APT_DIR/sources.list" ]; then
	{
		echo "deb-src [signed-by=$KEYRING] http://deb.debian.org/debian bookworm main"
		echo "deb-src [signed-by=$KEYRING] http://deb.debian.org/debian bookworm-updates main"
		echo "deb-src [signed-by=$KEYRING] http://deb.debian.org/debian-security bookworm-security main"
	} >"$APT_DIR/sources.list"
fi
say "private deb-src sources: $(paste -sd ';' "$APT_DIR/sources.list")"

# Everything apt reads or writes is under APT_DIR; nothing of the system's
# lists, cache or sources is used.  The sandbox user is the caller, so that
# apt's downloader can write into a private directory it did not create.
APT=(apt-get -q
	-o Dir::Etc::SourceList="$APT_DIR/sources.list"
	-o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists="$APT_DIR/lists"
	-o Dir::Cache="$APT_DIR/cache"
	-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
	-o APT::Sandbox::User="$(id -un)"
	-o Debug::NoLocking=1)

"${APT[@]}" update >"$APT_DIR/update.log" 2>&1 ||
	die "apt-get update of the private deb-src lists failed (see $APT_DIR/update.log)"
(cd "$APT_DIR/src" && "${APT[@]}" source --download-only "$SRC_PKG=$SRC_VERSION") \
	>"$APT_DIR/source.log" 2>&1 ||
	die "apt-get source --download-only $SRC_PKG=$SRC_VERSION failed (see $APT_DIR/source.log)"

# Upstream version without epoch: 1:7.2+dfsg-7+deb12u18 -> 7.2+dfsg
UPSTREAM=${SRC_VERSION#*:}
UPSTREAM=${UPSTREAM%-*}
shopt -s nullglob
origs=("$APT_DIR/src/${SRC_PKG}_$UPSTREAM.orig.tar."*)
debtars=("$APT_DIR/src/${SRC_PKG}_${SRC_VERSION#*:}.debian.tar."*)
shopt -u nullglob
[ ${#origs[@]} -gt 0 ] || die "no .orig tarball in $APT_DIR/src (see $APT_DIR/source.log)"
[ ${#debtars[@]} -gt 0 ] || die "no .debian tarball in $APT_DIR/src (see $APT_DIR/source.log)"
ORIG=${origs[0]} DEBTAR=${debtars[0]}

# The tarball's top directory is not fixed (qemu-7.2+dfsg/, qemu-7.2/): match
# the header under any one top directory, and extract that member alone.
# (awk reads the whole listing: an early exit would kill tar with SIGPIPE,
# which pipefail reports as a failure.)
MEMBER=$(tar -tf "$ORIG" | awk -v h="$HEADER" '
	{ top = index($0, "/"); if (!m && top > 1 && substr($0, top + 1) == h) m = $0 }
	END { print m }')
[ -n "$MEMBER" ] || die "$HEADER is not in $ORIG"
tar -xf "$ORIG" -C "$WORK" "$MEMBER"
mkdir -p "$WORK/tree/include/qemu"
mv "$WORK/$MEMBER" "$WORK/tree/$HEADER"

# The Debian patches, in series order.  A patch is applied only when one of
# its +++ lines names the header; only that file's section of it is kept,
# since the rest of the tree is not there to patch.
tar -xf "$DEBTAR" -C "$WORK" debian/patches
applied=()
if [ -f "$WORK/debian/patches/series" ]; then
	while read -r p _; do
		case $p in '' | '#'*) continue ;; esac
		f=$WORK/debian/patches/$p
		[ -f "$f" ] || die "debian/patches/series names $p, which is missing"
		grep -qE "^\+\+\+ [^ ]*/?$HEADER([[:space:]]|\$)" "$f" || continue
		# The header's section: from its "--- " line to the next file's.
		awk -v h="$HEADER" '
			/^--- / { keep = (index($2, h) > 0) }
			/^diff / { keep = 0 }
			keep' "$f" >"$WORK/one.patch"
		# Debian patches are -p1 (a/..., b/...), like upstream git's.
		(cd "$WORK/tree" && patch -p1 --quiet --forward --batch <"$WORK/one.patch") ||
			die "debian patch $p does not apply to $HEADER"
		applied+=("$p")
	done <"$WORK/debian/patches/series"
fi

# Into place atomically: a build running beside this one sees the old
# header or the new one, never half of one.
cp "$WORK/tree/$HEADER" "$WORK/qemu-plugin.h"
mv "$WORK/qemu-plugin.h" "$OUT/qemu-plugin.h"
API=$(awk '/#define QEMU_PLUGIN_VERSION/ { print $3 }' "$OUT/qemu-plugin.h")
{
	echo "package: $SRC_PKG $SRC_VERSION (installed binary qemu-system-x86 $BIN_VERSION)"
	echo "tarball: ${ORIG##*/} sha256 $(sha256sum "$ORIG" | cut -d' ' -f1)"
	echo "member: $MEMBER"
	echo "debian_patches_touching_header: ${applied[*]:-none}"
	echo "QEMU_PLUGIN_VERSION: $API"
	echo "header_sha256: $(sha256sum "$OUT/qemu-plugin.h" | cut -d' ' -f1)"
} >"$OUT/qemu-plugin.h.source"
rm -rf "$APT_DIR"
if [ ${#applied[@]} -eq 0 ]; then
	say "no Debian patch touches $HEADER: the upstream file is used as it is"
else
	say "applied to $HEADER: ${applied[*]}"
fi
say "wrote $OUT/qemu-plugin.h (QEMU_PLUGIN_VERSION $API)"
