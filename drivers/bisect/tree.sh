# Tree mode: GOOD and BAD are commits of a kernel git tree; each point is
# built with the user's command and its image measured.  bisect.sh walks
# the commits between them for every step; with --first git bisect does the
# choosing (it knows merges and skips) and bisect.sh is its step script.
# series.sh measures every commit from BASE to TIP with the same functions
# (TREE_ENDS names its two ends in messages).
# The tree is left on the branch or commit it was found on, also after an
# error or Ctrl-C.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_TREE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_TREE=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say
source "${BASH_SOURCE[0]%/*}/../core/exit.sh"  # exit_verdict
source "${BASH_SOURCE[0]%/*}/../vm/image.sh"  # vm_image_problem
source "${BASH_SOURCE[0]%/*}/measure.sh"  # bisect_last, bisect_log, bisect_point, bisect_spawn
source "${BASH_SOURCE[0]%/*}/bisection.sh"  # bisect_load_ends
source "${BASH_SOURCE[0]%/*}/kept.sh"  # kept_add, kept_build_dir, kept_find, kept_key, kept_take
source "${BASH_SOURCE[0]%/*}/progress.sh"  # progress_objects, progress_start, progress_stop
source "${BASH_SOURCE[0]%/*}/../run/dryrun.sh"  # dry_duration

tree_git() { git -C "$TREE" "$@"; }
tree_bisecting() { [ -e "$(tree_git rev-parse --absolute-git-dir)/BISECT_START" ]; }

# Refuse a tree that cannot be bisected, before anything is touched.
# Sets GOOD_SHA and BAD_SHA.
tree_check() {
	[ -d "$TREE" ] || die "--tree $TREE: no such directory"
	[ "$(tree_git rev-parse --is-inside-work-tree 2>/dev/null)" = true ] || die "--tree $TREE: not a git work tree"
	[ -n "$BUILD" ] || die "--tree needs --build CMD (run in $TREE to build the kernel)"
	[ -n "$IMAGE_PATH" ] || die "--tree needs --image PATH (where --build leaves the kernel image, relative to $TREE)"
	local g=${TREE_ENDS% *} b=${TREE_ENDS#* }
	GOOD_SHA=$(tree_git rev-parse -q --verify "$GOOD^{commit}") || die "--tree $TREE: $g '$GOOD' is not a commit"
	BAD_SHA=$(tree_git rev-parse -q --verify "$BAD^{commit}") || die "--tree $TREE: $b '$BAD' is not a commit"
	[ "$GOOD_SHA" != "$BAD_SHA" ] || die "$g and $b are the same commit ($GOOD_SHA)"
	tree_git merge-base --is-ancestor "$GOOD_SHA" "$BAD_SHA" ||
		die "$b $BAD is not a descendant of $g $GOOD: give $g the older commit"
	! tree_bisecting ||
		die "--tree $TREE: a git bisect is already in progress there (git bisect reset ends it)"
	[ -z "$(tree_git status --porcelain --untracked-files=no)" ] ||
		die "--tree $TREE: has uncommitted changes to tracked files; commit or stash them first"
}

# Remember where the tree is (a branch, else the commit) and restore it on
# exit, whatever the exit.
tree_save() {
	TREE_ORIG=$(tree_git symbolic-ref -q --short HEAD || tree_git rev-parse HEAD)
}
tree_restore() {
	[ -n "${TREE_ORIG:-}" ] || return 0
	if tree_bisecting; then tree_git bisect reset >/dev/null 2>&1 || true; fi
	if ! tree_git checkout -q "$TREE_ORIG" >/dev/null 2>&1; then
		say "could not put $TREE back on $TREE_ORIG (git checkout $TREE_ORIG in $TREE does it)"
		return 0
	fi
	TREE_ORIG=""
}

# Build the commit checked out in TREE, or take the image a build with
# the same key left in this results root (kept.sh); set TREE_IMAGE to it,
# in OUT/images (the tree's own is overwritten by the next build).  Returns
# 1 with BISECT_REASON when the build fails or leaves no kernel image.
tree_build() {
	local label=$1 sha=$2 key kept
	BISECT_REASON="" BISECT_BUILD_SECONDS="" BISECT_KEPT=""
	TREE_IMAGE=$OUT/images/$label.bzImage
	key=$(kept_key "$sha")
	if kept=$(kept_find "$key"); then
		kept_take "$kept" "$label"
		kept_add "$key" "$sha" "$label"
		BISECT_KEPT=$(basename "$(dirname "$(dirname "$kept")")")
		say "$BISECT_SAY: $label: not built again: $BISECT_KEPT built this commit with the same .config and build command"
		return 0
	fi
	say "$BISECT_SAY: building $label ($(tree_git log -1 --format=%s "$sha")), log in $WORK/build-$label.log"
	tree_make "$label" || return 1
	mkdir -p "$OUT/images"
	cp "$TREE/$IMAGE_PATH" "$TREE_IMAGE"
	kept_add "$key" "$sha" "$label"
}

# Run the build command, its progress reported while it runs
# (progress.sh); check it left a kernel at IMAGE_PATH.
tree_make() {
	local label=$1 log=$WORK/build-$1.log stamp=$WORK/build-$1.start dir problem t0=$SECONDS rc=0
	touch "$stamp"
	dir=$(kept_build_dir)
	progress_start "$label" "$log" "${dir:-$TREE}" "$stamp"
	bisect_spawn "$log" "$log" env -C "$TREE" bash -c "$BUILD" || rc=$?
	progress_stop
	if [ "$rc" != 0 ]; then
		BISECT_REASON="build failed (log in $log)"
		return 1
	fi
	# shellcheck disable=SC2034  # read by measure.sh, for steps.tsv
	BISECT_BUILD_SECONDS=$((SECONDS - t0))
	dir=$(kept_build_dir)
	say "$BISECT_SAY: built $label in $(dry_duration "$BISECT_BUILD_SECONDS"), $(progress_objects "${dir:-$TREE}" "$stamp") .o files"
	problem=$(vm_image_problem "$TREE/$IMAGE_PATH")
	[ -z "$problem" ] || { BISECT_REASON="the build left no kernel at $IMAGE_PATH: $problem"; return 1; }
}

# tree_point ROLE [LABEL]: build and measure the commit checked out now,
# as run LABEL (default: its first 12 hex digits).
tree_point() {
	local role=$1 sha label t0=$SECONDS
	sha=$(tree_git rev-parse HEAD)
	label=${2:-${sha:0:12}}
	if ! tree_build "$label" "$sha"; then
		VERDICT=skip
		bisect_log role="$role" run="$label" commit="$sha" verdict=skip booted=0 seconds=$((SECONDS - t0)) note="$BISECT_REASON"
		say "$BISECT_SAY: $label: $BISECT_REASON"
		return 0
	fi
	bisect_point "$role" "$label" "$TREE_IMAGE" "$sha"
}

tree_checkout() {
	tree_git checkout -q --detach "$1" 2>/dev/null || die "git checkout $1 in $TREE failed"
}

# tree_end ROLE SHA: check out an end, build and measure it; an end that
# does not build or boot ends the bisection.
tree_end() {
	tree_checkout "$2"
	tree_point "$1"
	[ "$VERDICT" != skip ] || die "the $1 ($2) cannot be measured: $(bisect_last note)"
}

# The step script git bisect runs: 0 good, 1 bad, 125 skip; 128 aborts
# git bisect (an error on the host, said on stderr).
tree_step() {
	bisect_load_ends
	# Only --first drives git bisect, and its argv need not say so: the
	# point must come back good or bad.
	# shellcheck disable=SC2034  # read by measure.sh
	BISECT_FIRST=1
	tree_point step
	case $VERDICT in
	good) exit 0 ;;
	bad) exit_verdict 1 ;;
	*) exit_verdict 125 ;;
	esac
}

# Drive git bisect from the measured ends: sets CULPRIT_SHA, or leaves it
# empty with CANDIDATES when skipped commits hide the culprit.
tree_bisect() {
	local rc=0
	CULPRIT_SHA="" CANDIDATES=""
	if [ "$(tree_git rev-list --count "$GOOD_SHA..$BAD_SHA")" = 1 ]; then
		CULPRIT_SHA=$BAD_SHA
		return 0
	fi
	tree_git bisect start "$BAD_SHA" "$GOOD_SHA" >>"$WORK/git-bisect.log" 2>&1 || die "git bisect start failed (see $WORK/git-bisect.log)"
	bisect_spawn "$WORK/git-bisect.log" "" git -C "$TREE" bisect run "$MMDELTA_ROOT/bisect.sh" --step "$WORK" || rc=$?
	CULPRIT_SHA=$(tree_git bisect log | sed -n 's/^# first bad commit: \[\([0-9a-f]*\)\].*/\1/p')
	[ -n "$CULPRIT_SHA" ] && return 0
	CANDIDATES=$(tree_git bisect log | sed -n 's/^# possible first bad commit: \[\([0-9a-f]*\)\].*/\1/p' | cut -c1-12 | tr '\n' ' ')
	[ -n "$CANDIDATES" ] || die "git bisect run stopped (status $rc) without a verdict (see $WORK/git-bisect.log)"
}
