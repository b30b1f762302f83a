# The choice of what to measure next, over an ordered list of points
# (images oldest first, or commits), index 0 the good end and the last the
# bad end.  Pure functions of the verdicts so far: no runs, no files, so the
# sequential bisection (one point a round) and a K-ary one (K points a
# round, measured in parallel) share them, and the tests can drive them
# directly.
#
# Verdicts are one word per point, in order: good, bad, skip (could not be
# measured: no build, no boot, never clear) or - (not measured yet).
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_PICK:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_PICK=1

# bisect_range VERDICT...: "LO HI" of the undecided range: HI the first bad
# point, LO the last good one before it.  The culprit is in (LO, HI].  A
# good point after a bad one (the figure went back) is outside the range.
bisect_range() {
	local -a v=("$@")
	local i lo=0 hi=$(($# - 1))
	for ((i = 0; i < $#; i++)); do
		if [ "${v[i]}" = bad ]; then hi=$i; break; fi
	done
	for ((i = 0; i < hi; i++)); do
		[ "${v[i]}" != good ] || lo=$i
	done
	echo "$lo $hi"
}

# bisect_points K VERDICT...: the indices to measure this round, at most K,
# ascending: those nearest to the K points that cut (LO, HI) into K+1 equal
# parts, among the points not measured yet.  Nothing when none is left.
# With K=1 this is the midpoint, rounded down, as git bisect chooses.
bisect_points() {
	local k=$1; shift
	local -a v=("$@") chosen=()
	local lo hi j target best d bestd i
	read -r lo hi < <(bisect_range "$@")
	for ((j = 1; j <= k; j++)); do
		target=$((lo + j * (hi - lo) / (k + 1)))
		best="" bestd=""
		for ((i = lo + 1; i < hi; i++)); do
			[ "${v[i]}" = - ] || continue
			[[ " ${chosen[*]} " != *" $i "* ]] || continue
			d=$((i > target ? i - target : target - i))
			if [ -z "$bestd" ] || [ "$d" -lt "$bestd" ]; then best=$i bestd=$d; fi
		done
		[ -z "$best" ] || chosen+=("$best")
	done
	[ ${#chosen[@]} -eq 0 ] || printf '%s\n' "${chosen[@]}" | sort -n
}

# bisect_outcome VERDICT...: when nothing is left to measure, "culprit LO HI"
# (HI the first bad point, LO the last good one) or "ambiguous LO HI" when
# skipped points between them hide which one it is.
bisect_outcome() {
	local lo hi
	read -r lo hi < <(bisect_range "$@")
	if [ $((hi - lo)) -eq 1 ]; then echo "culprit $lo $hi"; else echo "ambiguous $lo $hi"; fi
}
