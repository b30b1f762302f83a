# bisect.sh --dry-run and series.sh --dry-run: what would be built and
# booted, and about how long it would take, once every check of the real
# run has passed (so the dry run refuses what the run would, with the same
# line) and before the tree is touched or anything written.
#
# The time comes from what earlier runs in the results root recorded,
# never a guess, as run.sh --dry-run's does (drivers/run/dryrun.sh): a boot
# is the median vm_wall_seconds of the complete --kernel runs of this
# config there (else of its bench), the bisections' and series' points
# included; a build the median build_seconds of the earlier bisections and
# series of the same tree (their .bisect/steps.tsv).  Without such a run,
# the output says what it has no figure for.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_DRYRUN:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_DRYRUN=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/every.sh"  # bisect_every_commits
source "${BASH_SOURCE[0]%/*}/kept.sh"  # kept_find, kept_key
source "${BASH_SOURCE[0]%/*}/series.sh"  # series_label
source "${BASH_SOURCE[0]%/*}/tree.sh"  # tree_git
source "${BASH_SOURCE[0]%/*}/../run/dryrun.sh"  # dry_duration
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # meta_get

# The seconds of one build and one boot (dry_figures).
DRY_BUILD=0
DRY_BOOT=0

# dry_rounds K GAPS: ceil(log_(K+1) GAPS), the rounds of K points that
# find one step among GAPS intervals (K = 1: the halvings).
dry_rounds() {
	local k=$1 gaps=$2 r=0 reach=1
	while ((reach < gaps)); do reach=$((reach * (k + 1))); r=$((r + 1)); done
	echo "$r"
}

# The median of the numbers on stdin, with their count: "MEDIAN N", or
# nothing when there are none.
dry_median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.0f %d\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, NR }'
}

# "SECONDS N FROM" for one boot: the complete --kernel runs of this config
# in the results root (a bisection's or series' points too), else of its
# bench; nothing when there is none.
dry_boot_seconds() {
	local root=${OUT%/*} d config=${CONFIG##*/} same=() any=() secs
	for d in "$root"/*/ "$root"/*/*/; do
		d=${d%/}
		if [ ! -d "$d/$BENCH" ] || [ "$(meta_get "$d" status 2>/dev/null)" != complete ]; then continue; fi
		secs=$(meta_get "$d" vm_wall_seconds 2>/dev/null)
		[[ $secs =~ ^[0-9]+$ ]] || continue
		any+=("$secs")
		[[ " $(meta_get "$d" configs) " != *" $config "* ]] || same+=("$secs")
	done
	if [ ${#same[@]} -gt 0 ]; then
		dry_said "$(printf '%s\n' "${same[@]}" | dry_median)" "--kernel runs of $config in $root"
	elif [ ${#any[@]} -gt 0 ]; then
		dry_said "$(printf '%s\n' "${any[@]}" | dry_median)" "--kernel runs of $BENCH (other configs) in $root"
	fi
}

# dry_said "MEDIAN N" WHAT: "MEDIAN N WHAT", or nothing without a median.
dry_said() { [ -z "$1" ] || printf '%s %s\n' "$1" "$2"; }

# "SECONDS N" for one build of this tree: the builds the earlier
# bisections and series of it in the results root recorded.
dry_build_seconds() {
	local root=${OUT%/*} w
	for w in "$root"/*/.bisect; do
		if [ ! -f "$w/argv" ] || [ ! -f "$w/steps.tsv" ]; then continue; fi
		tr '\0' '\n' <"$w/argv" | grep -qx -- "$TREE" || continue
		awk -F'\t' -v names="$BISECT_STEP_FIELDS" 'BEGIN { n = split(names, k, " "); for (i = 1; i <= n; i++) c[k[i]] = i }
			$c["build_seconds"] ~ /^[0-9]+$/ { print $c["build_seconds"] }' "$w/steps.tsv"
	done | dry_median
}

# DRY_BUILD and DRY_BOOT, the seconds of one build (with BUILDS > 0) and
# one boot, from the figures above, said in one line; or what there is no
# figure for, and 1.
dry_figures() {
	local builds=$1 b=() m=() line=""
	if [ "$builds" -gt 0 ]; then
		read -r -a b <<<"$(dry_build_seconds)"
		[ ${#b[@]} -gt 0 ] || { echo "# no estimate of the time: no earlier build of $TREE in ${OUT%/*} (bisect.sh and series.sh record theirs)"; return 1; }
		DRY_BUILD=${b[0]}
		line="a build about $(dry_duration "$DRY_BUILD") (the median of ${b[1]} earlier builds of the tree in ${OUT%/*}); "
	fi
	read -r -a m <<<"$(dry_boot_seconds)"
	[ ${#m[@]} -gt 0 ] || { echo "# no estimate of the time: no earlier --kernel run of $BENCH in ${OUT%/*}"; return 1; }
	DRY_BOOT=${m[0]}
	echo "# ${line}a boot about $(dry_duration "$DRY_BOOT") (the median of ${m[*]:1})"
}

# dry_time BUILDS BOOTS [NOUN]: "about T (B builds, N boots)"; NOUN
# "round" for boots in rounds, each round as long as one boot.
dry_time() {
	local builds=${1:-0} boots=$2 noun=${3:-boot} what=""
	[ "$builds" = 0 ] || what="$builds build$([ "$builds" = 1 ] || echo s), "
	printf 'about %s (%s%d %s%s)' "$(dry_duration $((builds * DRY_BUILD + boots * DRY_BOOT)))" "$what" \
		"$boots" "$noun" "$([ "$boots" = 1 ] || echo s)"
}

# The command every point's boot is, with POINT and IMAGE for its name and
# kernel.
dry_boot_command() {
	printf '# each boot: run.sh --kernel IMAGE -o %q -n POINT -i %s' "$OUT" "$ITERATIONS"
	[ ${#RUN_ARGS[@]} -eq 0 ] || printf ' %q' "${RUN_ARGS[@]}"
	printf ' %q\n' "$CONFIG"
}

# Tree form: "build" for commit SHA, or "kept by DIR": the bisection or
# series of this results root whose image of it would be booted instead.
dry_build_of() {
	local kept
	if kept=$(kept_find "$(kept_key "$1")"); then
		kept=${kept%/images/*}
		echo "kept by ${kept##*/}"
	else
		echo build
	fi
}

# The commits of the tree form, one line each: its run name, which end it
# is, whether it is built, its subject; at most 30 lines, the first and
# last ten, as a kernel range can hold thousands.
dry_commits() {
	local i n=${#COMMITS[@]} role
	echo "# $n commits, $GOOD first, $BAD last; each built (or its image kept by an earlier run), then booted"
	for ((i = 0; i < n; i++)); do
		if ((n > 30 && i == 10)); then echo "... $((n - 20)) more ..."; i=$((n - 11)); continue; fi
		role=""
		[ "$i" != 0 ] || role=${TREE_ENDS% *}
		[ "$i" != $((n - 1)) ] || role=${TREE_ENDS#* }
		printf '%-14s %-5s %-24s %s\n' "${LABELS[i]}" "$role" "$(dry_build_of "${COMMITS[i]}")" \
			"$(tree_git log -1 --format=%s "${COMMITS[i]}")"
	done
	printf '# each build: bash -c %q in %s, the kernel left at %s\n' "$BUILD" "$TREE" "$IMAGE_PATH"
}

# The builds among the commits: those without a kept image.
dry_builds() {
	local c n=0
	for c in "$@"; do [ "$(dry_build_of "$c")" != build ] || n=$((n + 1)); done
	echo "$n"
}

# The boots for the step's profile: 2 under icount when the config does
# not run the insns monitor (profile.sh).
dry_profile_boots() {
	if [ "$VM_CLOCK" = icount ] && [[ ,$BISECT_MONITORS, != *,insns,* ]]; then echo 2; else echo 0; fi
}

# bisect.sh --dry-run, once check_args has passed.
bisect_dry_run() {
	local n gaps per extra builds=0 first kind=boots noun=boot ends=2
	echo "# bisect of $BENCH, metric $METRIC, $ITERATIONS iterations a point, into $OUT"
	if [ -n "$TREE" ]; then
		if [ "$BISECT_FIRST" = 1 ]; then dry_first_commits; else bisect_every_commits; fi
		dry_commits
	else
		dry_images
	fi
	dry_boot_command
	n=${#LABELS[@]} gaps=$((${#LABELS[@]} - 1))
	per=$(dry_rounds 1 "$gaps") extra=$(dry_profile_boots)
	first="the 2 ends, then at most $per a step (ceil(log2 $gaps); one more for each point skipped)"
	[ "$BISECT_FIRST" = 1 ] || first+=", every step looked for"
	if [ -n "$TREE" ]; then
		kind="builds and boots"
		builds=$(($(dry_builds "${COMMITS[0]}" "${COMMITS[n - 1]}") + per))
	elif [ "$SLURM" = 1 ]; then
		per=$(dry_rounds "$JOBS" "$gaps") noun=round ends=1
		first="as Slurm jobs, $JOBS at once: the ends in one round, then about $per rounds a step ($JOBS points each)"
	fi
	[ "$extra" = 0 ] || first+="; $extra more boots for the step's profile"
	echo "# $kind: $first"
	dry_figures "$builds" || return 0
	echo "# one step: $(dry_time "$builds" $((ends + per + extra)) "$noun")"
	[ "$BISECT_FIRST" = 1 ] || [ "$gaps" -lt 2 ] || echo "# each further step: $(dry_time "${TREE:+$per}" "$per" "$noun") more"
}

# The images form's points: run name, release, image.
dry_images() {
	local i
	echo "# ${#IMAGES[@]} kernels, oldest first: the first is the good end, the last the bad end"
	for i in "${!IMAGES[@]}"; do printf '%-30s %s\n' "${LABELS[i]}" "${IMAGES[i]}"; done
}

# --first in a tree: git bisect chooses among every commit of GOOD..BAD
# (both sides of a merge), so all are listed.
dry_first_commits() {
	local i
	mapfile -t COMMITS < <(echo "$GOOD_SHA"; tree_git rev-list --reverse "$GOOD_SHA..$BAD_SHA")
	LABELS=()
	for i in "${COMMITS[@]}"; do LABELS+=("${i:0:12}"); done
}

# series.sh --dry-run, once check_args has passed: every commit is built
# (unless kept) and booted.
series_dry_run() {
	local i builds
	echo "# series of $BENCH, $ITERATIONS iterations a commit, into $OUT"
	bisect_every_commits
	for i in "${!COMMITS[@]}"; do LABELS[i]=$(series_label "$i"); done
	dry_commits
	dry_boot_command
	builds=$(dry_builds "${COMMITS[@]}")
	dry_figures "$builds" || return 0
	echo "# the series: $(dry_time "$builds" "${#COMMITS[@]}")"
}
