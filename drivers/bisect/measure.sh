# Measuring one point of a bisection and deciding it.  A point is one
# `run.sh --kernel` run into the bisection's directory, kept; its verdict
# compares the mean of the metric (with its 95% interval, from reports/mmci)
# with a boundary between the two ends' means.  Every attempt is a line of
# WORK/steps.tsv, which the report is written from.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_BISECT_MEASURE:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_BISECT_MEASURE=1

# shellcheck source=drivers/bisect/globals.sh
source "${BASH_SOURCE[0]%/*}/globals.sh"
source "${BASH_SOURCE[0]%/*}/progress.sh"  # progress_stop
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, phase, say
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # meta_get
source "${BASH_SOURCE[0]%/*}/../vm/image.sh"  # vm_image_release
source "${BASH_SOURCE[0]%/*}/../vm/resolution.sh"  # vm_resolution_cv, vm_resolution_exact

# bisect_spawn OUT ERR CMD...: run CMD, stdout to file OUT, stderr to file
# ERR (bisect.sh's own when ERR is empty), in a process group of its own
# (setsid) in the background, and wait for it: bisect.sh's INT/TERM trap
# then runs at once and stops the whole group (bisect_stop_child): a
# build's compilers, git bisect with its step, run.sh (which stops its
# qemu).  A Ctrl-C on the terminal reaches bisect.sh alone, which passes
# it on.  The redirections are the child's only: the trap's message must
# reach the terminal.
bisect_spawn() {
	local out=$1 err=${2:-/dev/stderr} rc=0; shift 2
	setsid "$@" </dev/null >>"$out" 2>>"$err" &
	BISECT_CHILD=$!
	wait "$BISECT_CHILD" || rc=$?
	BISECT_CHILD=""
	return "$rc"
}

bisect_stop_child() {
	progress_stop
	[ -n "$BISECT_CHILD" ] || return 0
	kill -TERM -- "-$BISECT_CHILD" 2>/dev/null || true
	wait "$BISECT_CHILD" 2>/dev/null || true
	BISECT_CHILD=""
}

# bisect_run LABEL IMAGE ITERATIONS [--force]: one run.sh --kernel run (the
# tests put a stand-in in MMDELTA_BISECT_RUNNER; with --slurm it is one
# Slurm job that run.sh --slurm --wait submits and follows), its
# output in WORK/LABEL.log.  0 when complete; 1 when the kernel is at
# fault (it did not boot, panicked, hung, or the run inside it failed), with
# BISECT_REASON saying how; any other failure is the host's and ends the
# bisection.
bisect_run() {
	local label=$1 image=$2 iter=$3 log=$WORK/$1.log phase; shift 3
	BISECT_REASON=""
	bisect_spawn "$log" "$log" "${MMDELTA_BISECT_RUNNER:-$MMDELTA_ROOT/run.sh}" "${SLURM_ARGS[@]}" --kernel "$image" -o "$OUT" -n "$label" \
		-i "$iter" "${RUN_ARGS[@]}" "$@" "$CONFIG" && return 0
	BISECT_REASON=$(grep '^mmdelta: ' "$log" | grep -v '^mmdelta: run left partial' | tail -n 1 | sed 's/^mmdelta: //')
	phase=$(meta_get "$OUT/.$label.partial" phase 2>/dev/null || true)
	case $phase in
	"vm boot" | "vm results") return 1 ;;
	esac
	die "run $label failed on the host (${BISECT_REASON:-see $log})"
}

# "N MEAN HALF DIVISOR UNIT" of the metric in run directory DIR (HALF is
# inf below two values; the mean is shown as MEAN / DIVISOR UNIT).  mmci's
# target is -i auto's and means nothing here: its exit
# status 1 (interval wider than the target) is not a failure.
bisect_stats() {
	local out rc=0
	out=$("$MMDELTA_BUILD/bin/mmci" --target 100 "$1" "$BENCH" "$METRIC" -) || rc=$?
	[ "$rc" -le 1 ] || return 1
	cut -f1-3,5,6 <<<"$out" | tr '\t' ' '
}

# bisect_last NAME [RUN]: the field NAME of the last line of steps.tsv, or
# of RUN's last line (points measured at once log in any order).
bisect_last() {
	awk -F'\t' -v f="$1" -v r="${2:-}" -v names="$BISECT_STEP_FIELDS" 'BEGIN { n = split(names, k, " "); for (i = 1; i <= n; i++) col[k[i]] = i }
		r == "" || $2 == r { v = $col[f] } END { print v }' "$WORK/steps.tsv"
}

# The verdict of run LABEL as steps.tsv has it: good, bad, or skip (its
# last attempt unclear or not run).  For a runner that measures a round's
# points in parallel, each bisect_point in a subshell of its own.
bisect_verdict_of() {
	awk -F'\t' -v r="$1" '$2 == r { v = $6 } END { print (v == "good" || v == "bad") ? v : "skip" }' "$WORK/steps.tsv"
}

# Refuse to set runs of different qemu or CPU model side by side: mmstat
# knows when icount figures do not compare, and says so in one line.
bisect_comparable() {
	local err
	err=$("$MMDELTA_BUILD/bin/mmstat" --format json -- "$OUT/$1" "$OUT/$2" 2>&1 >/dev/null) ||
		die "${err#mmstat: }"
}

# The boundary a point's mean is held against: the midpoint of the ends,
# or with --threshold PCT the good mean moved PCT% toward the bad one.
bisect_boundary() {
	awk -v g="$GOOD_MEAN" -v b="$BAD_MEAN" -v t="$THRESHOLD" 'BEGIN {
		if (t == "") printf "%.17g\n", (g + b) / 2
		else printf "%.17g\n", g * (1 + (b > g ? 1 : -1) * t / 100) }'
}

# bisect_verdict MEAN HALF: bad when the whole interval lies beyond the
# boundary on the bad end's side, good when it lies on the good side,
# unclear when it straddles the boundary.
bisect_verdict() {
	awk -v m="$1" -v h="$2" -v x="$BOUNDARY" -v g="$GOOD_MEAN" -v b="$BAD_MEAN" 'BEGIN {
		if (h == "inf") { print "unclear"; exit }
		d = (m - x) * (b > g ? 1 : -1)
		print (d > h ? "bad" : -d > h ? "good" : "unclear") }'
}

# Whether run B differs from run A significantly: the gate's test (mmstat,
# Welch's t-test at 95%) on the metric.
bisect_significant() {
	"$MMDELTA_BUILD/bin/mmstat" --format json -- "$OUT/$1" "$OUT/$2" 2>/dev/null |
		jq -e --arg b "$BENCH" --arg m "$METRIC" '.benches[] | select(.name == $b) | .metrics[]
			| select(.metric == $m) | .params[0].runs[1].test.significant' >/dev/null
}

# bisect_test_verdict LABEL MEAN: for a bench whose icount figures are not
# exact (BISECT_NOISY): the boundary says which end the point is nearer,
# the gate's test whether it has left the other one.  bad when it lies on
# the bad side and differs from the good end, good when on the good side
# and it differs from the bad end, else unclear (measured again).
bisect_test_verdict() {
	local label=$1 side
	side=$(awk -v m="$2" -v x="$BOUNDARY" -v g="$GOOD_MEAN" -v b="$BAD_MEAN" \
		'BEGIN { print ((m - x) * (b > g ? 1 : -1) > 0 ? "bad" : "good") }')
	if [ "$side" = bad ]; then
		if bisect_significant "$GOOD_RUN" "$label"; then echo bad; else echo unclear; fi
	elif bisect_significant "$BAD_RUN" "$label"; then
		echo good
	else
		echo unclear
	fi
}

# The coefficient of variation of the metric over run RUN's iterations.
bisect_run_cv() {
	awk -F'\t' -v m="$METRIC" 'NR > 1 && $1 == m { n++; s += $4; q += $4 * $4 }
		END { if (n < 2 || s == 0) { print 0; exit } mu = s / n; v = (q - n * mu * mu) / (n - 1)
		      print (v > 0 ? sqrt(v) : 0) / (mu < 0 ? -mu : mu) }' "$OUT/$1/$BENCH/samples.tsv"
}

# Whether the bench is to be judged by the gate's test: the resolution
# table says its icount figures spread beyond what two iterations decide,
# or the ends' own iterations do (a config the table does not cover).
# Sets BISECT_NOISY (0 or 1) and says why once.
bisect_noise_check() {
	local cv ends
	# shellcheck disable=SC2046  # one word a pair
	cv=$(vm_resolution_cv "$BENCH" "$METRIC" $(vm_resolution_file_pairs "$GOOD_RUN/$BENCH/config"))
	ends=$(for r in "$GOOD_RUN" "$BAD_RUN"; do bisect_run_cv "$r"; done | sort -g | tail -n 1)
	BISECT_NOISY=0
	if ! vm_resolution_exact "$cv"; then
		BISECT_NOISY=1
		say "$BISECT_SAY: $BENCH $METRIC is not exact under icount (iterations spread by $cv of the mean, docs/vm.md): points are judged by the gate's test"
	elif ! vm_resolution_exact "$ends"; then
		BISECT_NOISY=1
		say "$BISECT_SAY: the ends' iterations spread by more than icount's exact figures (by $(printf '%.2e' "$ends") of the mean): points are judged by the gate's test"
	fi
}

# bisect_log FIELD=VALUE...: append one line to steps.tsv, fields in
# BISECT_STEP_FIELDS order ("-" for those not given).  One short write, so
# concurrent steps do not interleave.
bisect_log() {
	local -A f=()
	local kv name line=""
	[ "$ROUND" = 0 ] || f[round]=$ROUND
	for kv in "$@"; do f[${kv%%=*}]=${kv#*=}; done
	for name in $BISECT_STEP_FIELDS; do
		kv=${f[$name]:--}
		line+="${line:+$'\t'}${kv//[$'\t\n']/ }"
	done
	printf '%s\n' "$line" >>"$WORK/steps.tsv"
}

# "DIVISOR<TAB>UNIT" that compare.sh's table of runs A and B shows METRIC
# in (mmstat's display_divisor and display_unit, the unit ladder of
# reports/compare/units.c); "1<TAB>METRIC_UNIT" when mmstat cannot tell.
bisect_display() {
	local shown
	shown=$("$MMDELTA_BUILD/bin/mmstat" --format json -- "$OUT/$1" "$OUT/$2" 2>/dev/null | jq -r --arg b "$BENCH" --arg m "$METRIC" \
		'.benches[] | select(.name == $b) | .metrics[] | select(.metric == $m) | "\(.display_divisor)\t\(.display_unit)"') || true
	printf '%s\n' "${shown:-1$'\t'$METRIC_UNIT}"
}

# bisect_show FILTER DIVISOR UNIT [NAME VALUE]...: show.jq's FILTER (show,
# show_ci) with $div and $u the unit to show figures in, and each $NAME a
# number (a half width "inf", "-" or "" is null: no interval).
bisect_show() {
	local filter=$1 div=$2 unit=$3 v
	local -a args=()
	shift 3
	while [ $# -ge 2 ]; do
		v=$2
		case $v in inf | - | "") v=null ;; esac
		args+=(--argjson "$1" "$v")
		shift 2
	done
	# show.jq's text, not jq's include: jq 1.6 looks for a module in the
	# current directory first
	jq -rn --argjson div "$div" --arg u "$unit" "${args[@]}" "$(<"$MMDELTA_ROOT/drivers/bisect/show.jq")"$'\n'"$filter"
}

# bisect_point ROLE LABEL IMAGE [COMMIT]: measure IMAGE and decide it,
# re-measuring with twice and then four times the iterations while the
# verdict is unclear (a realtime clock; icount is exact).  Sets VERDICT
# (good, bad, skip, or for the ends: measured) and logs every attempt.
bisect_point() {
	local role=$1 label=$2 image=$3 commit=${4:-} iter=$ITERATIONS t0 release n mean half div unit force=()
	release=$(vm_image_release "$image")
	while :; do
		t0=$SECONDS
		if ! bisect_run "$label" "$image" "$iter" "${force[@]}"; then
			VERDICT=skip
			bisect_log role="$role" run="$label" image="$image" release="$release" commit="$commit" \
				verdict=skip iterations="$iter" booted=1 seconds=$((SECONDS - t0)) \
				build_seconds="$BISECT_BUILD_SECONDS" note="$BISECT_REASON" kept="$BISECT_KEPT"
			say "$BISECT_SAY: $label does not run: $BISECT_REASON"
			return 0
		fi
		read -r n mean half div unit < <(bisect_stats "$OUT/$label")
		[ -n "$release" ] || release=$(meta_get "$OUT/$label" kernel_release)
		if [ "$role" = step ]; then
			bisect_comparable "$GOOD_RUN" "$label"
			if [ "$BISECT_NOISY" = 1 ]; then
				VERDICT=$(bisect_test_verdict "$label" "$mean")
			else
				VERDICT=$(bisect_verdict "$mean" "$half")
			fi
		else
			VERDICT=measured
		fi
		[ "$VERDICT" != unclear ] || [ "$iter" -ge $((ITERATIONS * 4)) ] || VERDICT=remeasure
		# Every step: the midpoint of the ends only says whether to measure
		# again; a clear point is a level of its own, not good or bad.
		case $BISECT_FIRST$VERDICT in 0good | 0bad) VERDICT=measured ;; esac
		bisect_log role="$role" run="$label" image="$image" release="$release" commit="$commit" \
			verdict="$VERDICT" mean="$mean" half="$half" n="$n" iterations="$iter" booted=1 \
			seconds=$((SECONDS - t0)) build_seconds="$BISECT_BUILD_SECONDS" kept="$BISECT_KEPT"
		BISECT_BUILD_SECONDS="" BISECT_KEPT=""
		# shellcheck disable=SC2016  # a jq filter
		say "$BISECT_SAY: $label: $METRIC mean $(bisect_show '$v | show_ci($div; $u; $h)' "$div" "$unit" v "$mean" h "$half"): $VERDICT"
		[ "$VERDICT" = remeasure ] || break
		iter=$((iter * 2)) force=(--force)
	done
	[ "$VERDICT" != unclear ] || VERDICT=skip
}
