# The plots drawn from compare.sh's JSON (docs/compare-json.md): the delta
# chart and the sweep plot.  Their numbers — means, standard deviations, the
# confidence interval of each difference and its significance — are the ones
# the tables print; nothing here recomputes a statistic.
# shellcheck shell=bash

# The JSON object of one metric of one bench, compact, or nothing:
# json_metric BENCH METRIC JSON.
json_metric() {
	jq -c --arg b "$1" --arg m "$2" \
		'.benches[] | select(.name == $b) | .metrics[] | select(.metric == $m)' "$3"
}

# Delta rows "x  pct  ci_half_pct  significant(0|1)  run_index" for every run but
# the baseline: pct is the change of the mean in the tables' convention
# (positive = better), its error bar the half-width of the CI of the
# difference.  Runs stand side by side in a group per swept value.
delta_data() {
	local metric_json=$1 nruns=$2 out=$3 json=$4
	jq -r --argjson R "$nruns" --argjson idx "$(jq -c '[.runs | to_entries[] | {(.value.name): .key}] | add' "$json")" '
		.params | to_entries[] | .key as $g | .value.runs[] | select(.test != null and .pct.mean != null and .test.ci_half_pct != null) |
		[($g * $R + $idx[.run]), .pct.mean, .test.ci_half_pct, (if .test.significant then 1 else 0 end), $idx[.run]] |
		@tsv' <<<"$metric_json" >"$out"
}

# Sweep blocks, one per run (two blank lines apart, so gnuplot's `index`
# finds run i at block i-1 even when a run lacks a value):
#   param_index  mean  stddev   (times SCALE, the box plot's unit)
sweep_data() {
	local metric_json=$1 nruns=$2 scale=$3 out=$4 json=$5 r
	: >"$out"
	for ((r = 0; r < nruns; r++)); do
		jq -r --argjson r "$r" --argjson s "$scale" --argjson names "$(jq -c '[.runs[].name]' "$json")" '
			.params | to_entries[] | .key as $g | .value.runs[] | select(.run == $names[$r] and .n > 0) |
			[$g, .mean * $s, ((.stddev // 0) * $s)] | @tsv' <<<"$metric_json" >>"$out"
		printf '\n\n' >>"$out"
	done
}

# X labels of the delta chart: run names, or the swept value per group.
# delta_xtics PARAMS OUT RUN...
delta_xtics() {
	local params=$1 out=$2 nparams i
	shift 2
	local runs=("$@")
	nparams=$(wc -l <"$params")
	if [ "$nparams" -le 1 ]; then
		for ((i = 1; i < ${#runs[@]}; i++)); do printf '%s\t%s\n' "$i" "$(run_name "${runs[$i]}")"; done >"$out"
	else
		awk -v R="${#runs[@]}" '{ printf "%s\t%s\n", (NR - 1) * R + R / 2, $0 }' "$params" >"$out"
	fi
}

# plot_json_metric BENCH METRIC LABEL DIR PARAMS SWEPT SCALE YLABEL JSON OUTDIR RUN...
plot_json_metric() {
	local bench=$1 metric=$2 label=$3 dir=$4 params=$5 swept=$6 scale=$7 ylabel=$8 json=$9 outdir=${10}
	shift 10
	local runs=("$@") mj nparams
	mj=$(cat "$dir/metric.json")
	[ -n "$mj" ] || { say "plot: $bench $metric: not in the JSON, no delta or sweep plot"; return 0; }
	nparams=$(wc -l <"$params")
	if [ ${#runs[@]} -gt 1 ]; then
		delta_data "$mj" "${#runs[@]}" "$dir/delta.dat" "$json"
	fi
	# with fewer than two samples there is no test, so no interval to draw
	# (and gnuplot 5.4 crashes on an empty delta chart)
	if [ ${#runs[@]} -gt 1 ] && [ ! -s "$dir/delta.dat" ]; then
		say "plot: $bench $metric: no test possible, no delta plot"
	elif [ ${#runs[@]} -gt 1 ]; then
		delta_xtics "$params" "$dir/xtics.dat" "${runs[@]}"
		write_vars "$dir" "$bench: $label, change of the mean against $(run_name "${runs[0]}")" \
			"change of the mean [%] (positive is better)" \
			"" "$outdir/$bench-$metric-delta" "$nparams"
		draw delta "$dir" "$bench" "$metric" "$outdir/$bench-$metric-delta"
	fi
	[ "$nparams" -gt 1 ] || return 0
	sweep_data "$mj" "${#runs[@]}" "$scale" "$dir/sweep.dat" "$json"
	awk '{ printf "%d\t%s\n", NR - 1, $0 }' "$params" >"$dir/xtics.dat"
	write_vars "$dir" "$bench: ${label% per *} against $swept (mean ± stddev)" "$ylabel" "$swept" \
		"$outdir/$bench-$metric-sweep" "$nparams"
	draw sweep "$dir" "$bench" "$metric" "$outdir/$bench-$metric-sweep"
}
