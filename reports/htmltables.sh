# The numbers of the HTML report: per metric the rows of compare.sh's text
# table, and the gate verdicts, both read from compare.sh's JSON
# (docs/compare-json.md), so the page and the text table cannot disagree.
# Significant changes of the mean are coloured: green better, red worse.
# shellcheck shell=bash

# The summary rows the text table prints, in its order.
TABLE_ROWS="min mean stddev max range cv"

# One metric's table: per swept value a block of rows, per run "value (pct%)"
# in the tables' display unit, then the test's verdict per run.
# metric_table BENCH METRIC JSON RUN... (no table without compare.sh's JSON)
metric_table() {
	local bench=$1 metric=$2 json=$3
	shift 3
	[ -n "$json" ] || return 0
	echo '<table class="stats">'
	runs_header "$@"
	jq -r --arg b "$bench" --arg m "$metric" --arg rows "$TABLE_ROWS" \
		--argjson names "$(jq -c '[.runs[].name]' "$json")" '
		.benches[] | select(.name == $b) | .metrics[] | select(.metric == $m) |
		(.display_divisor // 1) as $d | (.display_unit // .unit) as $u | (.better == "none") as $counter |
		.params[] | . as $p |
		(if $p.param != "-" then ["param", $p.param] else empty end),
		(($rows | split(" "))[] as $row |
		 ["row", $row + (if $row == "cv" then " (%)" else " (" + $u + ")" end)] +
		 [$names[] as $n | (first($p.runs[] | select(.run == $n)) // null) as $r |
		  if $r == null or ($r.n // 0) == 0 then "-" else
		  ($r[$row] | if . == null then "n/a" elif $row == "cv" then . else . / $d end | tostring) + " " +
		  ($r.pct[$row] // "n/a" | tostring) + " " +
		  (if $row == "mean" and ($counter | not) and $r.test != null and $r.test.significant then "sig" else "-" end) end]),
		(["test", "difference"] + [$names[] as $n | (first($p.runs[] | select(.run == $n)) // null) as $r |
		  if $r == null or $r.test == null then "" else ($r.test.text // $r.test.reason // "") end])
		| @tsv' "$json" | table_rows "$(($# + 1))"
	echo '</table>'
}

# TSV from metric_table's jq to HTML rows: "param P", "row LABEL cell...",
# "test LABEL text..." where a cell is "value pct sig|-" or "-".
table_rows() {
	awk -F'\t' -v cols="$1" '
		function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
		# two decimals as the text table, but never "0.00" for a small value
		function num(v, a) { if (v == "n/a") return v; a = v < 0 ? -v : v
			return a >= 1 || a == 0 ? sprintf("%.2f", v) : sprintf("%.3g", v) }
		$1 == "param" { printf "<tr><th colspan=\"%d\">%s</th></tr>\n", cols, esc($2); next }
		{ printf "<tr><th>%s</th>", esc($2)
		  for (i = 3; i <= NF; i++) {
			if ($1 == "test") { printf "<td class=\"long\">%s</td>", esc($i); continue }
			if ($i == "-") { printf "<td class=\"num\">-</td>"; continue }
			split($i, c, " "); cls = "num"
			if (c[3] == "sig") cls = cls (c[2] + 0 >= 0 ? " better" : " worse")
			printf "<td class=\"%s\">%s (%s)%s</td>", cls, num(c[1]), c[2] == "n/a" ? "n/a" : sprintf("%6.2f%%", c[2]),
				c[3] == "sig" ? " *" : "" }
		  print "</tr>" }'
}

# The gate's verdicts (the JSON has them when compare.sh ran with --gate),
# first on the page: they are why CI failed.  gate_section JSON
gate_section() {
	local json=$1
	[ -n "$json" ] && [ "$(jq -r '.gate != null' "$json")" = true ] || return 0
	local verdict
	verdict=$(jq -r 'if .gate.regression then "FAIL: a gated metric regressed" else "pass" end' "$json")
	printf '<h2 id="gate">Gate (%s%%): <span class="%s">%s</span></h2>\n' \
		"$(jq -r .gate.pct "$json")" "$([ "$verdict" = pass ] && echo gate-pass || echo gate-fail)" "$verdict"
	echo '<table class="gate"><tr><th>bench</th><th>metric</th><th>run</th><th>change of the mean</th><th>verdict</th></tr>'
	jq -r '.gate.results[] | [.bench, .name, .run, (.mean_pct // "" | tostring), .verdict] | @tsv' "$json" |
		awk -F'\t' '
			function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
			{ cls = $5 == "REGRESSION" ? " class=\"worse\"" : $5 == "improvement" ? " class=\"better\"" : ""
			  printf "<tr><td>%s</td><td>%s</td><td>%s</td><td class=\"num\">%s</td><td%s>%s</td></tr>\n",
				esc($1), esc($2), esc($3), $4 == "" ? "-" : sprintf("%.2f%%", $4), cls, esc($5) }'
	echo '</table>'
}
