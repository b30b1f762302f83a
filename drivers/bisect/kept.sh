# The kernels a tree's builds leave, kept and found again.  Each build is
# copied to OUT/images/LABEL.bzImage (the tree's own is overwritten by the
# next build) and listed in OUT/images/keys.tsv under its key: the commit,
# the sha256 of the kernel .config the build started from, the build
# command and the image path.  A bisection or series in the same results
# root that needs a commit built with the same key boots that image
# instead of building it again: the same commit, built the same way from
# the same .config.  The compiler is not in the key; after changing it,
# start a new results root (docs/bisect.md).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_KEPT:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_KEPT=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/../vm/image.sh"  # vm_image_problem

# The build's output directory: the nearest directory above where the
# image is left that holds a .config (the tree, or make's O=DIR), searched
# no higher than the tree when the image is inside it; empty before the
# first build has written one.
kept_build_dir() {
	local d top=/
	d=$(realpath -m "$TREE/$(dirname "$IMAGE_PATH")")
	[[ $d/ != "$TREE"/* ]] || top=$TREE
	while :; do
		[ ! -f "$d/.config" ] || { echo "$d"; return 0; }
		[ "$d" != "$top" ] && [ "$d" != / ] || return 0
		d=$(dirname "$d")
	done
}

# kept_key COMMIT: the key of COMMIT built now (the .config as it is).
kept_key() {
	local dir cfg=none
	dir=$(kept_build_dir)
	[ -z "$dir" ] || cfg=$(sha256sum <"$dir/.config" | cut -d' ' -f1)
	printf '%s\n%s\n%s\n%s\n' "$1" "$cfg" "$BUILD" "$IMAGE_PATH" | sha256sum | cut -c1-16
}

# kept_find KEY: the path of an image kept under KEY in this results root
# (this bisection's own, or any other's), that is still a kernel.
kept_find() {
	local keys file
	for keys in "$OUT/images/keys.tsv" "${OUT%/*}"/*/images/keys.tsv; do
		[ -f "$keys" ] || continue
		file=$(awk -F'\t' -v k="$1" '$1 == k { f = $3 } END { print f }' "$keys")
		if [ -z "$file" ] || [ ! -f "${keys%/*}/$file" ]; then continue; fi
		[ -z "$(vm_image_problem "${keys%/*}/$file")" ] || continue
		echo "${keys%/*}/$file"
		return 0
	done
	return 1
}

# kept_add KEY COMMIT LABEL: list OUT/images/LABEL.bzImage under KEY.
kept_add() {
	printf '%s\t%s\t%s.bzImage\n' "$1" "$2" "$3" >>"$OUT/images/keys.tsv"
}

# kept_take PATH LABEL: PATH (found by kept_find) as OUT/images/LABEL.bzImage,
# a hard link where it can be one.
kept_take() {
	local to=$OUT/images/$2.bzImage
	mkdir -p "$OUT/images"
	[ "$1" -ef "$to" ] || ln -f "$1" "$to" 2>/dev/null || cp "$1" "$to"
}
