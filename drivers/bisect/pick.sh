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

# Every step of a series (bisect.sh without --first): the points measured
# so far cut the list into intervals between consecutive measured points;
# an interval whose ends differ holds at least one step and is searched
# until its ends are adjacent.  STATE is one word per point: m (measured),
# skip, or - (not yet); FLAGS one word per pair of consecutive measured
# points, in order: 1 when they differ, 0 when not.

# bisect_pairs STATE...: "A B" for each pair of consecutive measured points.
bisect_pairs() {
	local -a v=("$@")
	local i prev=""
	for ((i = 0; i < $#; i++)); do
		[ "${v[i]}" = m ] || continue
		[ -z "$prev" ] || echo "$prev $i"
		prev=$i
	done
}

# bisect_every_points K "FLAGS" STATE...: the points to measure this round:
# up to K in the first interval, in order, whose ends differ and that still
# has a point not measured; its cut points, chosen as bisect_points chooses.
# Nothing when every differing interval is down to adjacent points (or to
# skipped ones).
bisect_every_points() {
	local k=$1 flags=$2 a b j=0 i pt; shift 2
	local -a v=("$@") f sub
	read -r -a f <<<"$flags"
	while read -r a b; do
		if [ "${f[j]:-0}" = 1 ] && [ $((b - a)) -gt 1 ]; then
			sub=(good)
			for ((i = a + 1; i < b; i++)); do sub+=("${v[i]}"); done
			sub+=(bad)
			pt=$(bisect_points "$k" "${sub[@]}")
			if [ -n "$pt" ]; then
				for i in $pt; do echo $((a + i)); done
				return 0
			fi
		fi
		j=$((j + 1))
	done < <(bisect_pairs "$@")
}

# bisect_every_changes "FLAGS" STATE...: the steps, in order, one line each:
# "culprit A B" (B = A + 1: the step lies between adjacent points) or
# "ambiguous A B" (skipped points between A and B hide where).
bisect_every_changes() {
	local flags=$1 a b j=0; shift
	local -a f
	read -r -a f <<<"$flags"
	while read -r a b; do
		if [ "${f[j]:-0}" = 1 ]; then
			if [ $((b - a)) = 1 ]; then echo "culprit $a $b"; else echo "ambiguous $a $b"; fi
		fi
		j=$((j + 1))
	done < <(bisect_pairs "$@")
}
