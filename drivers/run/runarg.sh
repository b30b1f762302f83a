# A RUN argument of compare.sh and history.sh: a name under the results
# root first, then its partial form, then a path.  A run is usually named,
# and a partial one keeps its name in .NAME.partial.  The caller's die()
# says which command refused it.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_RUN_RUNARG:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_RUN_RUNARG=1

source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die
source "${BASH_SOURCE[0]%/*}/../core/nearest.sh"  # did_you_mean

resolve_run() {
	local arg=$1 root=$2 near=""
	if [[ $arg != */* && -d $root/$arg ]]; then
		printf '%s\n' "$root/$arg"
	elif [[ $arg != */* && -d $root/.$arg.partial ]]; then
		printf '%s\n' "$root/.$arg.partial"
	elif [[ -d $arg ]]; then
		printf '%s\n' "$arg"
	else
		# a mistyped name: the nearest runs of the root (-printf: names
		# are never split or globbed)
		[[ $arg == */* ]] || near=$(mapfile -t runs < <(find "$root" -mindepth 1 -maxdepth 1 -type d ! -name '.*' -printf '%f\n' 2>/dev/null)
			did_you_mean "$arg" "${runs[@]}")
		die "no run '$arg' (not in $root/ and not a directory${near:+; ${near% }})"
	fi
}
