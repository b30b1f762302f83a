# A throwaway kernel "tree" for the tree-mode tests of bisect.sh, built
# without compiling: commit cN's only file, `image`, says kN (or "fail"),
# and the build (bisect_tree_build.bash) copies the image that TREE_IMAGES
# maps kN to ("kN<TAB>PATH" lines) to bzImage.  Names, dates and contents
# are fixed, so the commits' hashes and with them git bisect's choices
# after a skip are the same on every run: with a failing build at c4 and a
# dead kernel at c5 of c0..c8, git tests c4, c2, c5, c6, c7.
# shellcheck shell=bash

# bisect_tree DIR SPEC...: SPEC "fail" or anything else (a kN commit).
bisect_tree() {
	local dir=$1 i=0 spec date; shift
	git init -q -b main "$dir"
	git -C "$dir" config user.email t@example.org
	git -C "$dir" config user.name t
	for spec in "$@"; do
		if [ "$spec" = fail ]; then echo fail >"$dir/image"; else echo "k$i" >"$dir/image"; fi
		git -C "$dir" add image
		date="@$((1700000000 + i * 60)) +0000"
		GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date git -C "$dir" commit -q -m "c$i"
		git -C "$dir" tag "c$i"
		i=$((i + 1))
	done
}

# The --build command for these trees.
# shellcheck disable=SC2154  # set by bats
export BISECT_TREE_BUILD=$BATS_TEST_DIRNAME/bisect_tree_build.bash
