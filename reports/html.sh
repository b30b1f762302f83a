#!/bin/bash
# reports/html.sh: write DIR/index.html, the comparison as one page.
#   reports/html.sh [--json FILE] DIR RUNDIR...
# The page holds the systems (differences highlighted), each bench's config,
# the tables (from compare.sh's JSON, significant cells coloured) with their
# plots beside them (drawn by reports/plot.sh into DIR/plots), and the gate
# verdicts when the JSON has them (compare.sh --gate).  It loads nothing from the network: the folder opens from disk.
# The first run is the baseline.  compare.sh --html calls this.
set -euo pipefail

REPORTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=drivers/lib/log.sh
source "$REPORTS/../drivers/lib/log.sh"
# shellcheck source=reports/plotdata.sh
source "$REPORTS/plotdata.sh"
# Any failure not caught by a die() still ends in one line, not silently.
set -E
trap 'die "html: unexpected failure in ${FUNCNAME[0]:-main}, line $LINENO"' ERR
# shellcheck source=reports/htmlsystem.sh
source "$REPORTS/htmlsystem.sh"
# shellcheck source=reports/htmltables.sh
source "$REPORTS/htmltables.sh"

JSON="" DIR="" RUNS=()
parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--json) [ $# -ge 2 ] || die "--json needs a file"; JSON=$2; shift ;;
		-h|--help) sed -n '2,8s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
		-*) die "html: unknown option $1" ;;
		*) if [ -z "$DIR" ]; then DIR=$1; else RUNS+=("$1"); fi ;;
		esac
		shift
	done
	{ [ -n "$DIR" ] && [ ${#RUNS[@]} -gt 0 ]; } || die "usage: reports/html.sh [--json FILE] DIR RUNDIR..."
	local f
	[ -z "$JSON" ] || [ -r "$JSON" ] || die "html: cannot read $JSON"
	for f in "${RUNS[@]}"; do [ -f "$f/meta" ] || die "html: $f is not a run directory (no meta)"; done
	{ mkdir -p "$DIR" 2>/dev/null && [ -w "$DIR" ]; } || die "html: cannot write to $DIR"
}

page_head() {
	local names title
	names=$(for d in "${RUNS[@]}"; do run_name "$d"; done | paste -sd ' ' | sed 's/ / vs /g')
	title=$(printf 'mmdelta: %s' "$names" | html_escape)
	cat <<EOF
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<style>
$(cat "$REPORTS/report.css")
</style>
</head>
<body>
<h1>$title</h1>
<p class="sub">Generated $(date -u '+%Y-%m-%d %H:%M UTC') by mmdelta compare.sh from $(printf '%s' "${RUNS[*]}" | html_escape).
The first run is the baseline; a positive percentage is always an improvement.</p>
EOF
}

# A link list to every section: with four benches the page is long.
contents() {
	local bench
	printf '<p class="sub">'
	[ -z "$JSON" ] || [ "$(jq -r '.gate != null' "$JSON")" != true ] || printf '<a href="#gate">Gate</a> · '
	printf '<a href="#system">Systems</a>'
	while IFS= read -r bench; do printf ' · <a href="#%s">%s</a>' "$bench" "$bench"; done <"$WORK/benches"
	printf '</p>\n'
}

# One figure per plot of BENCH METRIC: the SVG shown, the PNG a click away.
figures() {
	local bench=$1 metric=$2 kind path base
	echo '<div class="plots">'
	while IFS=$'\t' read -r _ _ kind path; do
		base=plots/$(basename "$path")
		printf '<figure><a href="%s.png"><img src="%s.svg" alt="%s %s %s plot" loading="eager"></a><figcaption>%s</figcaption></figure>\n' \
			"$base" "$base" "$bench" "$metric" "$kind" "$(plot_caption "$kind")"
	done < <(awk -F'\t' -v b="$bench" -v m="$metric" '$1 == b && $2 == m' "$WORK/plots.list")
	echo '</div>'
}

plot_caption() {
	case $1 in
	box) echo 'Samples per run: box = quartiles, whiskers = min/max, bar = median, × = mean.' ;;
	runseq) echo 'Values in measurement order; hollow = warm-up (not counted).' ;;
	delta) echo 'Change of the mean against the baseline with its confidence interval; filled = significant.' ;;
	sweep) echo 'Mean per swept value, error bars = ± one standard deviation.' ;;
	esac
}

bench_section() {
	local bench=$1 metric label unit better
	printf '<h2 id="%s">%s</h2>\n<h3>Config</h3>\n' "$bench" "$bench"
	config_table "$bench" "$WORK" "${RUNS[@]}"
	while IFS=$'\t' read -r metric label unit better _; do
		grep -q "^$bench	$metric	" "$WORK/plots.list" || continue
		printf '<h3 id="%s-%s">%s <small>(%s, %s is better)</small></h3>\n' "$bench" "$metric" \
			"$(html_escape <<<"$label")" "$(html_escape <<<"$unit")" "$better"
		echo '<div class="metric"><div>'
		metric_table "$bench" "$metric" "$JSON" "${RUNS[@]}"
		echo '</div>'
		figures "$bench" "$metric"
		echo '</div>'
	done <"${RUNS[0]}/$bench/metrics.tsv"
}

write_page() {
	page_head
	contents
	gate_section "$JSON"
	system_section "${RUNS[@]}"
	local bench
	while IFS= read -r bench; do bench_section "$bench"; done <"$WORK/benches"
	printf '<script>\n%s\n</script>\n</body>\n</html>\n' "$(cat "$REPORTS/report.js")"
}

main() {
	parse_args "$@"
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT
	# plot.sh says why it failed
	"$REPORTS/plot.sh" ${JSON:+--json "$JSON"} "$DIR/plots" "${RUNS[@]}" >"$WORK/plots.list" || exit 1
	cut -f1 "$WORK/plots.list" | awk '!seen[$0]++' >"$WORK/benches"
	say "html: writing $DIR/index.html"
	# written aside and renamed, so a failed run never leaves half a page
	PAGE=$(mktemp "$DIR/.index.html.XXXXXX")
	write_page >"$PAGE"
	chmod 0644 "$PAGE"  # mktemp's 0600 would hide the page from a web server
	mv "$PAGE" "$DIR/index.html"
}

main "$@"
