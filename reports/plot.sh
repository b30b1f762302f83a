#!/bin/bash
# reports/plot.sh: draw the plots of a comparison with gnuplot.
#   reports/plot.sh [--json FILE] OUTDIR RUNDIR...
# Per bench and metric: BENCH-METRIC-box and -runseq from the samples, and,
# given compare.sh's JSON (means, confidence intervals, significance),
# -delta and, for sweeps, -sweep; each as .png and .svg.  The first run is the
# baseline.  compare.sh --plot calls this; it also runs on its own.
# stdout: one line per file written ("BENCH<TAB>METRIC<TAB>KIND<TAB>PATH"
# without extension), for reports/html.sh; progress goes to stderr.
set -euo pipefail

REPORTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=drivers/lib/log.sh
source "$REPORTS/../drivers/lib/log.sh"
# shellcheck source=reports/plotdata.sh
source "$REPORTS/plotdata.sh"
# Any failure not caught by a die() still ends in one line, not silently.
set -E
trap 'die "plot: unexpected failure in ${FUNCNAME[0]:-main}, line $LINENO"' ERR
# shellcheck source=reports/plotjson.sh
source "$REPORTS/plotjson.sh"

JSON="" OUTDIR="" RUNS=()
parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--json) [ $# -ge 2 ] || die "--json needs a file"; JSON=$2; shift ;;
		-h|--help) sed -n '2,9s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
		-*) die "plot: unknown option $1" ;;
		*) if [ -z "$OUTDIR" ]; then OUTDIR=$1; else RUNS+=("$1"); fi ;;
		esac
		shift
	done
	{ [ -n "$OUTDIR" ] && [ ${#RUNS[@]} -gt 0 ]; } || die "usage: reports/plot.sh [--json FILE] OUTDIR RUNDIR..."
	[ -z "$JSON" ] || [ -r "$JSON" ] || die "plot: cannot read $JSON"
	command -v gnuplot >/dev/null || die "plot: gnuplot is not installed (make deps installs it)"
	local d
	for d in "${RUNS[@]}"; do
		[ -f "$d/meta" ] || die "plot: $d is not a run directory (no meta)"
	done
	{ mkdir -p "$OUTDIR" 2>/dev/null && [ -w "$OUTDIR" ]; } || die "plot: cannot write to $OUTDIR"
}

# The benches to plot: those the baseline ran, in name order; with JSON only
# those compare.sh compared (it leaves out a bench some run lacks), so the
# plots match the tables.
benches() {
	local f
	for f in "${RUNS[0]}"/*/samples.tsv; do
		[ -f "$f" ] || continue
		f=${f%/samples.tsv}
		f=${f##*/}
		if [ -z "$JSON" ] || jq -e --arg b "$f" 'any(.benches[]; .name == $b)' "$JSON" >/dev/null; then
			printf '%s\n' "$f"
		fi
	done
}

# Refuse a samples file that is not what run.sh writes, naming it, rather
# than draw a wrong plot.
check_samples() {
	local f=$1
	awk -F'\t' 'NR == 1 { if ($0 != "metric\tparam\titeration\tvalue") { print "bad header"; exit 1 } next }
		NF != 4 || $3 !~ /^-?[0-9]+$/ || $4 !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ { print "bad line " NR ": " $0; exit 1 }' \
		"$f" >"$WORK/why" 2>&1 || die "plot: $f: $(head -c 200 "$WORK/why")"
}

# vars.gp: everything a plot script needs to know besides its data.
write_vars() {
	local dir=$1 title=$2 ylabel=$3 xlabel=$4 out=$5 nparams=$6
	local i
	{
		echo "REPORTS = $(gp_str "$REPORTS")"
		echo "TITLE = $(gp_str "$title")"
		echo "YLABEL = $(gp_str "$ylabel")"
		echo "XLABEL = $(gp_str "$xlabel")"
		echo "OUT = $(gp_str "$out")"
		echo "NRUNS = ${#RUNS[@]}"
		echo "NPARAMS = $nparams"
		echo "array NAMES[${#RUNS[@]}]"
		echo "array COLORS[${#RUNS[@]}]"
		for i in "${!RUNS[@]}"; do
			echo "NAMES[$((i + 1))] = $(gp_str "$(run_name "${RUNS[$i]}")")"
			echo "COLORS[$((i + 1))] = '#$(run_color "$i")'"
		done
	} >"$dir/vars.gp"
}

# Label under each box: run names, or for a sweep the swept value per group.
write_xtics() {
	local params=$1 out=$2 nparams i=0 p
	nparams=$(wc -l <"$params")
	: >"$out"
	if [ "$nparams" -le 1 ]; then
		for i in "${!RUNS[@]}"; do printf '%s\t%s\n' "$((i + 1))" "$(run_name "${RUNS[$i]}")" >>"$out"; done
		return
	fi
	while IFS= read -r p; do
		awk -v x="$(( i * (${#RUNS[@]} + 1) ))" -v r="${#RUNS[@]}" -v p="$p" \
			'BEGIN { printf "%s\t%s\n", x + (r + 1) / 2, p }' >>"$out"
		i=$((i + 1))
	done <"$params"
}

# Separators between swept values on the run-sequence plot.
write_marks() {
	local marks=$1 out=$2
	awk '{ printf "set arrow from %s, graph 0 to %s, graph 1 nohead dt 3 lc rgb \"#999999\"\n", $1, $1
		gsub(/\047/, "\047\047", $2)
		printf "set label \047%s\047 at %s, graph 0.97 left offset 0.5, 0 tc rgb \"#666666\"\n", $2, $1 }' \
		"$marks" >"$out"
}

draw() {
	local kind=$1 dir=$2 bench=$3 metric=$4 out=$5
	say "plot: $bench $metric: $kind"
	gnuplot -c "$REPORTS/$kind.gp" "$dir" 2>"$dir/gnuplot.err" ||
		die "plot: gnuplot failed on $bench $metric $kind: $( (grep -v '^ *$\|^Warning' "$dir/gnuplot.err" || echo 'no message') | tail -n 1)"
	printf '%s\t%s\t%s\t%s\n' "$bench" "$metric" "$kind" "$out"
}

# All plots of one metric of one bench.
plot_metric() {
	local bench=$1 metric=$2 label=$3 unit=$4 better=$5 params=$6
	local dir=$WORK/$bench-$metric scale ulabel nparams swept xlabel
	[ -z "$JSON" ] || json_metric "$bench" "$metric" "$JSON" >"$dir/metric.json"
	read -r scale ulabel < <(unit_scale "$unit" "$(metric_maxabs "$bench" "$metric" "${RUNS[@]}")")
	nparams=$(wc -l <"$params")
	swept=$(sweep_key "${RUNS[0]}/$bench")
	local ylabel="$label [$ulabel] ($better is better)"
	box_data "$bench" "$metric" "$scale" "$params" "$dir/box.dat" "$dir/pts.dat" "${RUNS[@]}"
	[ -s "$dir/box.dat" ] || { say "plot: $bench $metric: no samples, skipped"; return 0; }
	write_xtics "$params" "$dir/xtics.dat"
	# the swept key goes in the title: a bottom label collides with the key
	local per=""
	[ "$nparams" -le 1 ] || per=" per $swept"
	write_vars "$dir" "$bench: $label$per, samples per run" "$ylabel" "" "$OUTDIR/$bench-$metric-box" "$nparams"
	draw box "$dir" "$bench" "$metric" "$OUTDIR/$bench-$metric-box"

	seq_data "$bench" "$metric" "$scale" "$params" "$dir/seq.dat" "$dir/marks.dat" "${RUNS[@]}"
	write_marks "$dir/marks.dat" "$dir/marks.gp"
	xlabel=$([ "$nparams" -gt 1 ] && echo "measurement, in run order, per $swept (hollow: warm-up, not counted)" ||
		echo "iteration (hollow: warm-up, not counted)")
	write_vars "$dir" "$bench: $label, run sequence" "$ylabel" "$xlabel" "$OUTDIR/$bench-$metric-runseq" "$nparams"
	draw runseq "$dir" "$bench" "$metric" "$OUTDIR/$bench-$metric-runseq"

	[ -n "$JSON" ] || return 0
	plot_json_metric "$bench" "$metric" "$label$per" "$dir" "$params" "$swept" "$scale" "$ylabel" \
		"$JSON" "$OUTDIR" "${RUNS[@]}"
}

# The key run.sh swept for this bench ("SIZE"), from its config; "value" if
# the config does not say.
sweep_key() {
	awk -F'[ =:]' '/^command [A-Z_]+=/ { print $2; exit }' "$1/config" 2>/dev/null | grep . || echo value
}

# Each metric's plots are independent: draw them in parallel, one job per CPU
# (a gnuplot or jq start costs about 0.1 s here, and a 4x4 report has ~80
# plots).  A job's listing goes to its own file so the output stays in order.
plot_bench() {
	local bench=$1 params=$WORK/$1.params d metric label unit better
	for d in "${RUNS[@]}"; do
		[ ! -f "$d/$bench/samples.tsv" ] || check_samples "$d/$bench/samples.tsv"
	done
	[ -f "${RUNS[0]}/$bench/metrics.tsv" ] || die "plot: ${RUNS[0]}/$bench has samples.tsv but no metrics.tsv"
	bench_params "$bench" "${RUNS[@]}" >"$params"
	while IFS=$'\t' read -r metric label unit better _; do
		[[ $metric =~ ^[A-Za-z0-9_.-]+$ ]] || die "plot: ${RUNS[0]}/$bench/metrics.tsv: metric name '$metric' is not usable in a file name"
		while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
		mkdir -p "$WORK/$bench-$metric"
		# not "|| ...": that would switch off set -e inside the job
		{ plot_metric "$bench" "$metric" "$label" "$unit" "$better" "$params" >"$WORK/$bench-$metric/list"
			touch "$WORK/$bench-$metric/done"; } &
		printf '%s\n' "$WORK/$bench-$metric" >>"$WORK/order"
	done <"${RUNS[0]}/$bench/metrics.tsv"
}

main() {
	parse_args "$@"
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT
	JOBS=$(nproc 2>/dev/null || echo 2)
	local bench found=0 d
	while IFS= read -r bench; do
		found=1
		plot_bench "$bench"
	done < <(benches)
	[ "$found" = 1 ] || die "plot: ${RUNS[0]} holds no bench results (no */samples.tsv)"
	wait
	# a failed job has said why on stderr
	while IFS= read -r d; do [ -e "$d/done" ] || exit 1; cat "$d/list"; done <"$WORK/order"
}

main "$@"
