# The set-up and helpers of the bisect.sh tests (bisect.bats, bisect_every.bats):
# a stand-in for run.sh --kernel (bisect_fake_run.bash) whose fake images
# carry their figures, and throwaway trees (bisect_tree.bash) of them.
# shellcheck shell=bash disable=SC2154  # RES, ROOT, BATS_*: from bats and helpers.bash
setup() {
	common_setup
	export MMDELTA_BISECT_RUNNER=$ROOT/tests/cli/vm/bisect_fake_run.bash
	export FAKE_FIGURES=$RES/figures FAKE_CALLS=$RES/calls
	: >"$FAKE_FIGURES"
	: >"$FAKE_CALLS"
	cd "$RES" || return
}
teardown() { common_teardown; }

# A file run.sh takes for a kernel: the bzImage magic and a version string.
fake_image() {
	head -c 1024 /dev/zero >"$1"
	printf HdrS | dd of="$1" bs=1 seek=514 conv=notrunc 2>/dev/null
	printf '\000\001' | dd of="$1" bs=1 seek=526 conv=notrunc 2>/dev/null
	printf '%s (fake) #1\000' "${1##*/}" | dd of="$1" bs=1 seek=768 conv=notrunc 2>/dev/null
}

# images SPEC...: fake images k0, k1, ... with those figures (see the runner).
images() {
	local i=0 spec
	IMGS=()
	for spec in "$@"; do
		fake_image "$RES/k$i"
		printf 'k%s\t%s\n' "$i" "$spec" >>"$FAKE_FIGURES"
		IMGS+=("$RES/k$i")
		i=$((i + 1))
	done
}

J() { jq -r "$1" "$RES/out/bisect-timedmunlock/bisect.json"; }
bisect() { run --separate-stderr "$ROOT/bisect.sh" -o "$RES/out" "$@"; }
# The bisection's own boots; the step's profile boots are LABEL-insns.
boots() { grep -vc -- '-insns ' "$FAKE_CALLS" || true; }
ceil_log2() { awk -v n="$1" 'BEGIN { l = 0; while (2 ^ l < n) l++; print l }'; }
source_pick() { source "$ROOT/drivers/bisect/pick.sh"; }

# The tree of bisect_tree.bash, its kN commits naming fake images kN.
tree() {
	local i=0 spec
	export TREE_IMAGES=$RES/tree-images
	: >"$TREE_IMAGES"
	for spec in "$@"; do
		if [ "$spec" != fail ]; then
			images_add "$i" "$spec"
			printf 'k%s\t%s\n' "$i" "$RES/k$i" >>"$TREE_IMAGES"
		fi
		i=$((i + 1))
	done
	bisect_tree "$RES/tree" "$@"
}
images_add() {
	fake_image "$RES/k$1"
	printf 'k%s\t%s\n' "$1" "$2" >>"$FAKE_FIGURES"
}
BUILD=$BISECT_TREE_BUILD
tbisect() { bisect --tree "$RES/tree" --build "$BUILD" --image bzImage timedmunlock "$@"; }
sha() { git -C "$RES/tree" rev-parse "$1"; }
tree_untouched() {
	[ "$(git -C "$RES/tree" symbolic-ref --short HEAD)" = main ]
	[ ! -e "$RES/tree/.git/BISECT_START" ]
	[ -z "$(git -C "$RES/tree" status --porcelain --untracked-files=no)" ]
}


# What earlier runs recorded, for --dry-run's estimate: complete --kernel
# runs of timedmunlock that took SECS... each (their vm_wall_seconds), and
# an earlier series of the tree whose builds took SECS... each.
earlier_boots() {
	local s
	for s in "$@"; do
		mkdir -p "$RES/out/r$s/timedmunlock"
		printf 'status: complete\nconfigs: timedmunlock \nvm_wall_seconds: %s\n' "$s" >"$RES/out/r$s/meta"
	done
}
earlier_builds() {
	local s i=0
	mkdir -p "$RES/out/old/.bisect"
	printf '%s\0' -o "$RES/out" --tree "$RES/tree" >"$RES/out/old/.bisect/argv"
	for s in "$@"; do
		printf 'commit\t%s-x\t-\t-\t-\tmeasured\t10\t0\t2\t2\t1\t%s\t%s\n' "$i" $((s + 50)) "$s" >>"$RES/out/old/.bisect/steps.tsv"
		i=$((i + 1))
	done
}
