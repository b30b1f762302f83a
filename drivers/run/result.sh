# The lines a bench ends with: its metrics and one line for the monitors
# that write samples.tsv rows, as mmstat --result sums them up, and one line
# for each profile monitor (insns, profile), whose per-function tables are
# files mmstat's line never sees.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_RUN_RESULT:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_RUN_RESULT=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"  # MMDELTA_BUILD
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # say

# bench_result DIR [PROFILE_MONITOR...]: the result of the bench in DIR;
# the profile lines for the monitors named (default: both).  A result that
# cannot be made has said why; the run's data is what counts.
bench_result() {
	local dir=$1 line m
	local -a mons=("${@:2}")
	((${#mons[@]})) || mons=(insns profile)
	"$MMDELTA_BUILD/bin/mmstat" --result "$dir" | while IFS= read -r line; do say "$line"; done || true
	for m in "${mons[@]}"; do
		line=$(profile_recorded "$dir" "$m") || continue
		say "$line"
	done
}

# profile_recorded DIR MONITOR: "BENCH MONITOR: N iterations profiled,
# about F functions each (FILES); compare.sh --profile ...", or status 1
# when it profiled no counted iteration.  Warm-ups are not counted; a sweep
# says its points.
profile_recorded() {
	local dir=$1 m=$2 glob
	case $m in
	insns) glob="insns.*.tsv" ;;
	profile) glob="profile.*.self.tsv" ;;
	*) return 1 ;;
	esac
	find "$dir/monitors" -maxdepth 1 -name "$glob" -printf '%f\n' 2>/dev/null |
		awk -v bench="${dir##*/}" -v m="$m" -v d="$dir/monitors" -v shown="${glob/\*/TAG}" '
			{ tag = $0; sub("^" m "\\.", "", tag); sub(/(\.self)?\.tsv$/, "", tag) }
			tag ~ /(^|\.)warmup[0-9]+(\+[0-9]+)?$/ { next }
			{
				point = tag; sub(/(^|\.)[0-9]+(\+[0-9]+)?$/, "", point)
				points[point] = 1
				files++
				while ((getline line < (d "/" $0)) > 0) if (line !~ /^[#[]/ && line != "") funcs++
				close(d "/" $0)
			}
			END {
				if (!files) exit 1
				np = 0; for (p in points) np++
				plural = (files == 1) ? "" : "s"
				over = (np > 1) ? " over " np " sweep points" : ""
				printf "%s %s: %d iteration%s profiled%s, about %d functions each (monitors/%s); compare.sh --profile shows where they changed\n",
					bench, m, files, plural, over, int(funcs / files + 0.5), shown
			}'
}

# profiles_said RUNDIR MONITOR: that line for every bench of a run (the
# host's insns lines after a --kernel run, which the guest's results never
# saw).
profiles_said() {
	local b line
	for b in "$1"/*/; do
		if line=$(profile_recorded "${b%/}" "$2"); then say "$line"; fi
	done
}

# Does the run in DIR hold a profile compare.sh --profile can read?
run_has_profile() {
	find "$1" -mindepth 3 -maxdepth 3 -path '*/monitors/*' \( -name 'insns.*.tsv' -o -name 'profile.*.self.tsv' \) -print -quit 2>/dev/null | grep -q .
}
