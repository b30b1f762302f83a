#!/bin/bash
# reports/plot/visual.sh: compare.sh --plot DIR / --html DIR.
#   reports/plot/visual.sh MMSTAT [--plot DIR] [--html DIR] -- MMSTAT_ARGS...
# Draws the plots (reports/plot/plot.sh) and writes DIR/index.html (mmstat --format
# html) from the very comparison compare.sh is about to print (same
# runs, alpha, test, gate), so plots, page and table carry the same numbers.
# Exit 2 when the comparison or the drawing fails; a gate's verdict is not a
# failure here (compare.sh's own exit status reports it).
set -euo pipefail

MMDELTA_ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
source "$MMDELTA_ROOT/drivers/core/log.sh"  # die, say
LOG_PREFIX=compare.sh DIE_STATUS=2  # this is compare.sh's work

# The page is written aside and renamed, so a failure never leaves half a
# page, with the umask's mode (mktemp's 0600 would hide it from a web server).
# One line says where it is and how many plots it has.
write_page() {
	local mmstat=$1 dir=$2 plots=$3 page rc=0
	shift 3
	page=$(mktemp "$dir/.index.html.XXXXXX")
	"$mmstat" --format html --plots "$dir/plots" "$@" >"$page" 2>"$page.err" || rc=$?
	if [ "$rc" -eq 2 ]; then
		grep '^mmstat: ' "$page.err" | tail -n 1 >&2
		rm -f "$page" "$page.err"
		exit 2
	fi
	rm -f "$page.err"
	chmod "$(printf '%o' $((0666 & ~$(umask))))" "$page"
	mv "$page" "$dir/index.html"
	say "html: $dir/index.html, $plots plot$([ "$plots" -eq 1 ] || echo s)"
}

main() {
	local mmstat=$1 plot="" html=""
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		case $1 in
		--plot) plot=$2; shift ;;
		--html) html=$2; shift ;;
		*) die "visual.sh: unknown option $1" ;;
		esac
		shift
	done
	shift
	# compare.sh's options minus the output ones; the run directories
	local args=()
	while [ $# -gt 0 ]; do
		case $1 in
		--format | --junit) shift ;;
		*) args+=("$1") ;;
		esac
		shift
	done
	[ -z "$plot" ] || "$MMDELTA_ROOT/reports/plot/plot.sh" "$plot" "${args[@]}" >/dev/null || exit 2
	if [ -n "$html" ]; then
		{ mkdir -p "$html" 2>/dev/null && [ -w "$html" ]; } || die "cannot write to $html"
		local listed
		# plot.sh lists each plot it drew on stdout
		listed=$(MMDELTA_PLOT_QUIET=1 "$MMDELTA_ROOT/reports/plot/plot.sh" "$html/plots" "${args[@]}") || exit 2
		write_page "$mmstat" "$html" "$(grep -c . <<<"$listed" || true)" "${args[@]}"
	fi
}

main "$@"
