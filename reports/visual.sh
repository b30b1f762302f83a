#!/bin/bash
# reports/visual.sh: compare.sh --plot DIR / --html DIR.
#   reports/visual.sh MMSTAT [--plot DIR] [--html DIR] -- MMSTAT_ARGS...
# Asks reports/mmstat for the JSON of the very comparison compare.sh is
# about to print (same runs, alpha, test, gate), so plots, page and table
# carry the same numbers, then draws the plots and/or writes the page.
# Exit 2 when the comparison or the drawing fails; a gate regression is not a
# failure here (compare.sh's own exit status reports it).
set -euo pipefail

REPORTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

fail() { echo "compare.sh: $*" >&2; exit 2; }

main() {
	local mmstat=$1 plot="" html=""; shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		case $1 in
		--plot) plot=$2; shift ;;
		--html) html=$2; shift ;;
		*) fail "visual.sh: unknown option $1" ;;
		esac
		shift
	done
	shift
	# compare.sh's options minus the output ones, then JSON
	local args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		case $1 in
		--format | --junit) shift ;;
		*) args+=("$1") ;;
		esac
		shift
	done
	args+=(--format json "$@")

	local rc=0 dirs=()
	JSON=$(mktemp)
	trap 'rm -f "$JSON" "$JSON.err"' EXIT
	# Its warnings and gate lines are compare.sh's to print, once, when it
	# runs mmstat for the table; here they only matter if it fails.
	"$mmstat" "${args[@]}" >"$JSON" 2>"$JSON.err" || rc=$?
	[ "$rc" -le 1 ] || { cat "$JSON.err" >&2; exit 2; }
	mapfile -t dirs < <(jq -r '.runs[].path' "$JSON")
	[ -z "$plot" ] || "$REPORTS/plot.sh" --json "$JSON" "$plot" "${dirs[@]}" >/dev/null || exit 2
	[ -z "$html" ] || "$REPORTS/html.sh" --json "$JSON" "$html" "${dirs[@]}" || exit 2
}

main "$@"
