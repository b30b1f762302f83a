# series.sh: every commit of BASE..TIP built, booted and measured, and the
# compare.sh table with one column per commit, base first, then 1 ... N, as
# a patch series is shown in its cover letter (the munlock thread's table).
# The tree's handling is bisect's tree form's (tree.sh); each commit is one
# point as bisect measures it (measure.sh), so the runs, logs and images sit
# where a bisection's do.  A commit that does not build or boot keeps its
# column, which says so; the rest goes on.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_SERIES:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_SERIES=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/every.sh"  # bisect_every_commits
source "${BASH_SOURCE[0]%/*}/measure.sh"  # bisect_last
source "${BASH_SOURCE[0]%/*}/tree.sh"  # tree_checkout, tree_git, tree_point, tree_restore, tree_save
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # meta_set

# The run of commit I: base-HASH for the base, I-HASH after it; the table's
# header shows the position over the short hash.
series_label() {
	local i=$1 sha=${COMMITS[$1]}
	if [ "$i" = 0 ]; then echo "base-${sha:0:7}"; else echo "$i-${sha:0:7}"; fi
}

# Measure every commit, oldest first; the base must run, as a table of
# changes against nothing means nothing.
series_measure() {
	local i
	LABELS=()
	for i in "${!COMMITS[@]}"; do LABELS+=("$(series_label "$i")"); done
	for i in "${!COMMITS[@]}"; do
		tree_checkout "${COMMITS[i]}"
		ROUND=$((ROUND + 1))
		tree_point commit "${LABELS[i]}"
		[ "$i" != 0 ] || [ "$VERDICT" != skip ] || die "the base ($GOOD) cannot be measured: $(bisect_last note)"
	done
}

# A commit that did not build or boot becomes a partial run holding the
# bench with no samples, so that compare.sh keeps its column (every cell
# "-", the header saying why) rather than dropping the commit from the table.
series_placeholder() {
	local label=$1 why=$2 dir=$OUT/.$1.partial base=$OUT/${LABELS[0]} key
	mkdir -p "$dir/$BENCH"
	[ -f "$dir/meta" ] || printf 'name: %s\nstatus: failed\nphase: build\nreason: %s\n' "$label" "$(bisect_last note "$label")" >"$dir/meta"
	meta_set "$dir" column_note "$why"
	# measured nothing, but it was to be measured as the base was: its clock
	# is the base's, or compare.sh would refuse its column as unlike
	for key in clock vm_clock; do
		[ -z "$(meta_get "$base" "$key" 2>/dev/null)" ] || meta_set "$dir" "$key" "$(meta_get "$base" "$key")"
	done
	cp "$base/$BENCH/metrics.tsv" "$dir/$BENCH/"
	[ ! -f "$base/$BENCH/config" ] || cp "$base/$BENCH/config" "$dir/$BENCH/"
	printf 'metric\tparam\titeration\tvalue\n' >"$dir/$BENCH/samples.tsv"
}

# The runs in column order, a placeholder for each commit that did not run.
series_columns() {
	local i label
	for i in "${!COMMITS[@]}"; do
		label=${LABELS[i]}
		if [ "$(bisect_last verdict "$label")" != skip ]; then
			echo "$label"
		elif [ "$(bisect_last booted "$label")" = 0 ]; then
			series_placeholder "$label" "no build"
			echo ".$label.partial"
		else
			series_placeholder "$label" "no boot"
			echo ".$label.partial"
		fi
	done
}

# The block for the cover letter: the table, then each column's commit.
series_text() {
	local -a cols
	local i note
	mapfile -t cols < <(series_columns)
	"$MMDELTA_ROOT/compare.sh" -o "$OUT" --allow-partial "${cols[@]}" 2>"$WORK/compare.err" ||
		echo "(compare.sh failed: $(tail -n 1 "$WORK/compare.err"))"
	echo
	for i in "${!COMMITS[@]}"; do
		note=""
		[ "$(bisect_last verdict "${LABELS[i]}")" != skip ] || note="  [$(bisect_last note "${LABELS[i]}")]"
		printf '%-5s %s %s%s\n' "$([ "$i" = 0 ] && echo base || echo "$i")" "${COMMITS[i]:0:7}" \
			"$(tree_git log -1 --format=%s "${COMMITS[i]}")" "$note"
	done
}

series_main() {
	local tmp
	tree_save
	bisect_every_commits
	say "series: ${#COMMITS[@]} commits ($GOOD and $((${#COMMITS[@]} - 1)) after it), $BENCH, $ITERATIONS iterations each, into $OUT"
	series_measure
	tree_restore
	tmp=$(mktemp "$OUT/.series.txt.XXXXXX")
	series_text >"$tmp"
	mv "$tmp" "$OUT/series.txt"
	cat "$OUT/series.txt"
	local failed
	failed=$(awk -F'\t' '$6 == "skip" { print $2 }' "$WORK/steps.tsv" | sort -u | tr '\n' ' ')
	if [ -n "$failed" ]; then
		say "series: did not run: ${failed% }; table in $OUT/series.txt"
		exit 2
	fi
	say "series: table in $OUT/series.txt"
}
