#!/usr/bin/env bats
# bisect.sh over the real series of Debian 6.1 cloud kernels, booted under
# qemu (icount clock), timedmunlock at 64M, 2 iterations a point:
#  - the images form names a culprit within ceil(log2 N) + 2 boots;
#  - over the 6.1 series and the 6.12 kernels after it, every step is named
#    (the 6.1 one among them) within k * ceil(log2 N) + 2 boots, its shares
#    adding up to the whole change less what it leaves unexplained;
#  - the tree form with --first (git bisect), on a throwaway git tree whose
#    commits name the images (plus a commit that does not build and one
#    whose image qemu cannot boot), blames the commit of the image the
#    images form blamed;
#  - every image measured separately agrees: each point the images form
#    measured has the same figures to the last digit, and the named pair
#    straddles the boundary.  "Separately" is the tree form's runs (other
#    boots) and, for the images it did not measure, runs of their own.
# The two bisections run side by side: icount figures do not depend on host
# load.  No warm-up, no monitors and a 1.5G guest keep a boot near 19 s.

bats_require_minimum_version 1.5.0
load ../cli/helpers
load ../cli/vm/bisect_tree
# bisect_tree.bash names its build beside the test that loads it; it is beside itself.
export BISECT_TREE_BUILD=$BATS_TEST_DIRNAME/../cli/vm/bisect_tree_build.bash

ARGS=(-i 2 --set SIZE=64M --set WARMUP=0 --set MONITORS=none --vm-mem 1536M)

setup_file() {
	local i
	debian_kernels
	make -s -C "$ROOT" all static
	export BRES=$BATS_FILE_TMPDIR/results
	mapfile -t SERIES < <(grep '^6\.1\.0-' <<<"$KERNELS" | cut -f2)
	[ ${#SERIES[@]} -ge 5 ] || skip "the archive serves ${#SERIES[@]} Debian 6.1 cloud kernels; the tree needs 5"
	printf '%s\n' "${SERIES[@]}" >"$BATS_FILE_TMPDIR/series"
	series_tree
	local t0=$SECONDS
	"$ROOT/bisect.sh" -o "$BRES" -n images "${ARGS[@]}" timedmunlock "${SERIES[@]}" \
		>"$BATS_FILE_TMPDIR/images.out" 2>"$BATS_FILE_TMPDIR/images.err" &
	mapfile -t LATER < <(grep -v '^6\.1\.0-' <<<"$KERNELS" | cut -f2)
	echo $((${#SERIES[@]} + ${#LATER[@]})) >"$BATS_FILE_TMPDIR/every-n"
	"$ROOT/bisect.sh" -o "$BRES" -n every "${ARGS[@]}" timedmunlock "${SERIES[@]}" "${LATER[@]}" \
		>"$BATS_FILE_TMPDIR/every.out" 2>"$BATS_FILE_TMPDIR/every.err" &
	"$ROOT/bisect.sh" -o "$BRES" -n tree --first "${ARGS[@]}" --tree "$BATS_FILE_TMPDIR/tree" \
		--build "$BISECT_TREE_BUILD" --image bzImage timedmunlock c0 "c$((${#SERIES[@]} + 2))" \
		>"$BATS_FILE_TMPDIR/tree.out" 2>"$BATS_FILE_TMPDIR/tree.err" || true
	separate_runs
	wait
	echo "# ${#SERIES[@]} kernels: two bisections and the separate runs in $((SECONDS - t0)) s" >&3
}

release_of() { basename "$1" | sed 's/^vmlinuz-//'; }

# Runs of their own for the images the tree form did not measure, two at
# a time.
separate_runs() {
	local i pids=()
	mkdir -p "$BRES/separate"
	for i in "${!SERIES[@]}"; do
		[ -z "$(tree_mean "$(release_of "${SERIES[i]}")")" ] || continue
		"$ROOT/run.sh" --kernel "${SERIES[i]}" -o "$BRES/separate" -n "$i" "${ARGS[@]}" timedmunlock \
			2>>"$BATS_FILE_TMPDIR/separate.err" &
		pids+=($!)
		[ ${#pids[@]} -lt 2 ] || { wait "${pids[@]}" || true; pids=(); }
	done
	[ ${#pids[@]} -eq 0 ] || wait "${pids[@]}" || true
}

# The tree form's figure for a release, if it measured one.
tree_mean() {
	jq -r --arg r "$1" '[.steps[] | select(.release == $r and .mean != null) | .mean] | last // empty' \
		"$BRES/tree/bisect.json"
}

# Commits c0..c3 name the first four images, c4 does not build, c5's image
# is no kernel qemu can load, c6 names the fourth image again (so that
# whichever image is the culprit, its commit's parent can be measured), and
# the rest name the other images in order: c0..c(N+2).
series_tree() {
	local i specs
	export TREE_IMAGES=$BATS_FILE_TMPDIR/tree-images
	head -c 4096 "${SERIES[0]}" >"$BATS_FILE_TMPDIR/noboot"
	{
		for i in 0 1 2 3; do printf 'k%s\t%s\n' "$i" "${SERIES[i]}"; done
		printf 'k5\t%s\nk6\t%s\n' "$BATS_FILE_TMPDIR/noboot" "${SERIES[3]}"
		for ((i = 4; i < ${#SERIES[@]}; i++)); do printf 'k%s\t%s\n' $((i + 3)) "${SERIES[i]}"; done
	} >"$TREE_IMAGES"
	specs=(k k k k fail k k)
	for ((i = 4; i < ${#SERIES[@]}; i++)); do specs+=(k); done
	bisect_tree "$BATS_FILE_TMPDIR/tree" "${specs[@]}"
}

setup() { common_setup; mapfile -t SERIES <"$BATS_FILE_TMPDIR/series"; }
teardown() { common_teardown; }

J() { jq -r "$2" "$BRES/$1/bisect.json"; }
# The figure of image I measured apart from the images form: by the tree
# form, or by a run of its own.
separate_mean() {
	local m
	m=$(tree_mean "$(release_of "${SERIES[$1]}")")
	if [ -z "$m" ]; then
		# mmci, as bisect.sh reads a step; its exit status (the interval
		# against -i auto's target) does not matter here
		m=$("$ROOT/build/bin/mmci" --target 100 "$BRES/separate/$1" timedmunlock elapsed - | cut -f2)
	fi
	echo "$m"
}
# bisect.json holds each image's real path; the series may name it through a link.
index_of() { local i; for i in "${!SERIES[@]}"; do [ "$(realpath "${SERIES[i]}")" != "$(realpath "$1")" ] || echo "$i"; done; }

@test "the images form names a culprit in at most ceil(log2 N)+2 boots" {
	cat "$BRES/images/bisect.txt"
	[ "$(J images .result)" = culprit ]
	local n=${#SERIES[@]} lg fb
	lg=$(index_of "$(J images .last_good.image)") fb=$(index_of "$(J images .first_bad.image)")
	[ "$fb" -eq $((lg + 1)) ]
	[ "$(J images .boots)" -le $(($(awk -v n="$n" 'BEGIN { l = 0; while (2 ^ l < n) l++; print l }') + 2)) ]
	grep -q "^mmdelta: bisect: first bad $(J images .first_bad.run) " "$BATS_FILE_TMPDIR/images.err"
	echo "# named ${SERIES[lg]##*/} -> ${SERIES[fb]##*/}, $(J images .boots) boots" >&3
}

@test "every image measured separately agrees with the bisection's figures and culprit" {
	local i mean lg fb boundary good bad
	for i in "${!SERIES[@]}"; do [ -n "$(separate_mean "$i")" ]; done
	# Each point the bisection measured: the same figure, to the last digit.
	while IFS=$'\t' read -r image mean; do
		[ "$(separate_mean "$(index_of "$image")")" = "$mean" ]
	done < <(J images '.steps[] | [.image, .mean] | @tsv')
	lg=$(index_of "$(J images .last_good.image)") fb=$(index_of "$(J images .first_bad.image)")
	boundary=$(J images .boundary) good=$(J images .good_mean) bad=$(J images .bad_mean)
	# The named pair straddles the boundary, each on its end's side.
	awk -v g="$good" -v b="$bad" -v x="$boundary" -v l="$(separate_mean "$lg")" -v f="$(separate_mean "$fb")" \
		'BEGIN { d = b > g ? 1 : -1; exit !((l - x) * d < 0 && (f - x) * d > 0) }'
	for i in "${!SERIES[@]}"; do echo "# ${SERIES[i]##*/}: elapsed $(separate_mean "$i") s" >&3; done
	echo "# the step: $(awk -v l="$(separate_mean "$lg")" -v f="$(separate_mean "$fb")" 'BEGIN { printf "%+.3f%%", 100 * (f - l) / l }')" >&3
}

@test "over 6.1 and 6.12 every step is named, within k*ceil(log2 N)+2 boots, the shares adding up" {
	cat "$BRES/every/bisect.txt"
	[ "$(J every .result)" = culprit ]
	local k n
	k=$(J every '.changes | length') n=$(<"$BATS_FILE_TMPDIR/every-n")
	[ "$k" -ge 2 ]
	[ "$(J every .boots)" -le $((k * $(awk -v n="$n" 'BEGIN { l = 0; while (2 ^ l < n) l++; print l }') + 2)) ]
	# Each step between adjacent images.
	[ -z "$(J every '.changes[] | [.last_good.run, .first_bad.run] | map(.[0:2] | tonumber) | .[1] - .[0] | select(. != 1)')" ]
	# The 6.1 series' own step is one of them.
	[ "$(J every "[.changes[] | select(.last_good.run == \"$(J images .last_good.run)\")] | length")" = 1 ]
	awk -v s="$(J every '[.changes[].share] | add')" -v u="$(J every .unexplained)" 'BEGIN { exit !(s + u > 0.9999 && s + u < 1.0001) }'
	echo "# every step: $(J every '[.changes[] | "\(.last_good.release) -> \(.first_bad.release) \(.pct)% (share \(.share))"] | join("; ")'), unexplained $(J every .unexplained), $(J every .boots) boots" >&3
}

@test "the tree form blames the commit of the image the images form blamed, skipping what cannot run" {
	cat "$BRES/tree/bisect.txt"
	[ "$(J tree .result)" = culprit ]
	local fb commit k
	fb=$(J images .first_bad.image)
	commit=$(J tree .first_bad.commit)
	k=$(git -C "$BATS_FILE_TMPDIR/tree" show "$commit:image")
	[ "$(realpath "$(awk -F'\t' -v k="$k" '$1 == k { print $2 }' "$TREE_IMAGES")")" = "$(realpath "$fb")" ]
	cmp "$(J tree .first_bad.image)" "$fb"
	[ "$(git -C "$BATS_FILE_TMPDIR/tree" symbolic-ref --short HEAD)" = main ]
	[ ! -e "$BATS_FILE_TMPDIR/tree/.git/BISECT_START" ]
	# Whatever git tested of the two: the build failed, qemu refused the image.
	J tree '.steps[] | select(.verdict == "skip") | .note' | while read -r note; do
		[[ $note == "build failed"* || $note == "qemu failed"* ]]
	done
	echo "# tree: $(J tree '[.steps[] | .verdict] | join(" ")'), $(J tree .boots) boots" >&3
}
