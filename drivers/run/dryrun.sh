# --dry-run: what a run would do, without doing it.  For each config its
# resolved keys and, per sweep point, the exact command line every iteration
# would run (the numactl prefix, the options as the bench's --check resolved
# them: a capped size in bytes), then how long it should take.  Nothing runs
# but the benches' --check; nothing is written.
#
# The time comes from measurements, never a guess: each run writes what each
# sweep point cost into BENCH/config ("wall[ KEY=V]: S s, N processes").  The
# estimate takes the newest run in the results root that ran the same config
# (else any config of the same bench), per process, and scales it by the
# ratio of the two --size values when they differ: populating memory
# dominates timedmunlock and procmunmap.  (sparsemunmap's cost does not grow
# with its size, so there the scaled figure is an upper bound; the output
# says when it scaled.)
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_RUN_DRYRUN:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_RUN_DRYRUN=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../config/config.sh"  # cfg_dump, config_load, config_name, config_option_die
source "${BASH_SOURCE[0]%/*}/iterate.sh"  # for_each_point, point_command, point_resolve
source "${BASH_SOURCE[0]%/*}/rundir.sh"  # meta_get
source "${BASH_SOURCE[0]%/*}/../vm/resolution.sh"  # VM_ITERATIONS_RULE

DRY_ROOT=""	# the results root earlier runs are looked for in
DRY_TOTAL=0	# seconds expected, over the points that have an estimate
DRY_PROCS=0	# bench processes, over all points
DRY_UNKNOWN=0	# points without an earlier run to estimate from

# dry_run RESULTS: print every config of the run, then the total.
dry_run() {
	local c
	DRY_ROOT=$1
	for c in "${CONFIGS[@]}"; do
		config_load "$c"
		printf '# %s\n' "$(config_name)"
		cfg_dump
		# under --kernel with the icount clock, the rule that chose ITERATIONS
		[ -z "$VM_ITERATIONS_RULE" ] || printf '# %s\n' "$VM_ITERATIONS_RULE"
		printf 'sweep: %s\n' "${SWEEP_KEY:--}"
		for_each_point dry_point
		echo
	done
	printf '# in all: %d bench processes' "$DRY_PROCS"
	if ((DRY_UNKNOWN == 0)); then
		printf ', about %s\n' "$(dry_duration "$DRY_TOTAL")"
	else
		printf '; %d sweep point(s) without an estimate (above)\n' "$DRY_UNKNOWN"
	fi
}

# One sweep point: its command line and its expected time.
dry_point() {
	local param=$1 notes procs prev size rc=0
	notes=$(mktemp)
	point_resolve "$notes" || rc=$?
	if ((rc == 3)); then
		printf '# %s=%s: left out: %s\n' "$SWEEP_KEY" "$param" "$(tail -n 1 "$notes")"
		rm -f "$notes"
		return 0
	fi
	if ((rc != 0)); then
		local why
		why=$(tail -n 1 "$notes")
		rm -f "$notes"
		config_option_die "${why#"${CFG[BENCH]}: "}"
	fi
	sed 's/^/# /' "$notes"
	rm -f "$notes"
	point_command "$param"
	procs=$((CFG[WARMUP] + ${CFG[ITERATIONS]/auto/${CFG[MAX_ITERATIONS]}}))
	DRY_PROCS=$((DRY_PROCS + procs))
	size=$(dry_size "${POINT_ARGV[*]}")
	prev=$(dry_previous "$param")
	if [ -z "$prev" ]; then
		DRY_UNKNOWN=$((DRY_UNKNOWN + 1))
		printf '# %s; no earlier run of %s in %s to take the time from\n' \
			"$(dry_procs "$procs")" "${CFG[BENCH]}" "$DRY_ROOT"
		return 0
	fi
	dry_estimate "$procs" "$size" "$prev"
}

# "11 processes (1 warm-up + 10)", or "at most ..." with ITERATIONS=auto.
dry_procs() {
	local n=$1 at=""
	[ "${CFG[ITERATIONS]}" != auto ] || at="at most "
	printf '%s%d processes (%d warm-up + %s)' "$at" "$n" "${CFG[WARMUP]}" "$((n - CFG[WARMUP]))"
}

# The --size in bytes of a command line, or nothing.
dry_size() { awk '{ for (i = 1; i < NF; i++) if ($i == "--size") { print $(i + 1); exit } }' <<<"$1"; }

# Scale the earlier measurement PREV ("SECONDS PROCS SIZE RUN SAME") to PROCS
# processes at SIZE bytes, and say where it comes from.
dry_estimate() {
	local procs=$1 size=$2 secs nprev psize run same est from
	read -r secs nprev psize run same <<<"$3"
	# "wall: 0.0 s" is below what the run recorded: nothing to scale from.
	if awk -v s="$secs" 'BEGIN { exit !(s + 0 < 0.1) }'; then
		DRY_UNKNOWN=$((DRY_UNKNOWN + 1))
		printf "# %s; no estimate: run '%s' took under 0.1 s for %s processes, too little to scale from\n" \
			"$(dry_procs "$procs")" "$run" "$nprev"
		return 0
	fi
	est=$(awk -v s="$secs" -v p="$nprev" -v n="$procs" -v a="${size:-0}" -v b="$psize" \
		'BEGIN { r = (a > 0 && b > 0) ? a / b : 1; printf "%.0f", s / p * n * r }')
	DRY_TOTAL=$((DRY_TOTAL + est))
	from="run '$run' took $secs s for $nprev processes"
	[ "$psize" = - ] || [ -z "$size" ] || [ "$psize" = "$size" ] ||
		from+=" at --size $psize, scaled by size to $size"
	[ "$same" = 1 ] || from+=" (another config of ${CFG[BENCH]})"
	printf '# %s; about %s: %s\n' "$(dry_procs "$procs")" "$(dry_duration "$est")" "$from"
}

# "SECONDS PROCS SIZE RUN SAME" measured for the current point by the newest
# complete run in DRY_ROOT that ran this config (SAME=1), else any config of
# this bench (SAME=0); nothing when there is none.
dry_previous() {
	local param=$1 tag="" d best="" score top=-1 line
	[ -d "$DRY_ROOT" ] || return 0
	[ -z "$SWEEP_KEY" ] || tag=" $SWEEP_KEY=$param"
	for d in $(dry_runs_newest_first); do
		[ -f "$d/${CFG[BENCH]}/config" ] || continue
		line=$(dry_wall "$d/${CFG[BENCH]}/config" "$tag") || continue
		score=0
		[[ " $(meta_get "$d" configs) " != *" $(basename "$(config_name)") "* ]] || score=2
		[[ $line != exact* ]] || score=$((score + 1))
		((score > top)) || continue
		top=$score best="${line#* } ${d##*/} $((score >= 2))"
	done
	[ -z "$best" ] || printf '%s\n' "$best"
}

# The complete runs of DRY_ROOT, newest first (by end_time).
dry_runs_newest_first() {
	local d
	for d in "$DRY_ROOT"/*/; do
		d=${d%/}
		[ "$(meta_get "$d" status)" = complete ] || continue
		printf '%s\t%s\n' "$(meta_get "$d" end_time)" "$d"
	done | sort -r | cut -f2
}

# From a BENCH/config, the wall time of the point tagged TAG ("exact S N
# SIZE"), else of its first point ("other S N SIZE"); SIZE is that point's
# --size, or -.
dry_wall() {
	awk -v tag="$2" '
		function size(s,   w, i, n) { n = split(s, w, " "); for (i = 1; i < n; i++) if (w[i] == "--size") return w[i + 1]; return "-" }
		/^command[^:]*:/ { t = substr($0, 8, index($0, ":") - 8); cmd[t] = $0 }
		/^wall[^:]*:/ { t = substr($0, 5, index($0, ":") - 5); split(substr($0, index($0, ":") + 2), v, " ")
			if (!(t in cmd)) next
			if (t == tag) { print "exact", v[1], v[3], size(cmd[t]); found = 1; exit }
			if (first == "") first = v[1] " " v[3] " " size(cmd[t]) }
		END { if (found) exit 0; if (first == "") exit 1; print "other", first }' "$1"
}

# Seconds as "42 s" or "3m10s".
dry_duration() {
	local s=$1
	if ((s < 120)); then printf '%d s\n' "$s"; else printf '%dm%02ds\n' $((s / 60)) $((s % 60)); fi
}
