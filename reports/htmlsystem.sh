# The "what was compared" part of the HTML report: the runs, their systems
# (meta), their topology and each bench's resolved config, with every value
# that differs from the baseline's highlighted — a "regression" that is really
# a different THP setting or kernel command line should be the first thing
# a reader sees.
# shellcheck shell=bash

html_escape() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'; }

# meta keys that describe one run rather than the system: they differ between
# any two runs, so highlighting them would drown the differences that matter.
RUN_KEYS='^(name|pid|status|start_time|end_time|command|memavailable)$'

# A table of key -> value per run from files of "key: value" lines (one file
# per run, baseline first).  Rows are the keys that match (PICK=match) or do
# not match (PICK=nomatch) the regex KEYS, in order of first appearance; with
# HIGHLIGHT=1 a value that differs from the baseline's gets class "differs".
# Byte counts (mem*, swap_total) also show in GiB.
kv_table() {
	local keys=$1 pick=$2 highlight=$3; shift 3
	awk -v keys="$keys" -v pick="$pick" -v hl="$highlight" '
		function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
		function show(k, v) {
			if (k ~ /^(mem|swap_)/ && v ~ /^[0-9]+$/ && v >= 2^20) return sprintf("%.1f GiB (%s)", v / 2^30, v)
			return v }
		FNR == 1 { r++ }
		{ i = index($0, ": "); if (!i) next
		  k = substr($0, 1, i - 1); v = substr($0, i + 2)
		  if ((k ~ keys) != (pick == "match")) next
		  if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		  val[k, r] = v; has[k, r] = 1 }
		END { for (j = 1; j <= nk; j++) { k = order[j]; printf "<tr><th>%s</th>", esc(k)
			for (c = 1; c <= r; c++) {
				v = has[k, c] ? show(k, val[k, c]) : "(none)"
				cls = (length(v) > 60 ? "long" : "")
				if (hl && c > 1 && (has[k, c] != has[k, 1] || val[k, c] != val[k, 1])) cls = cls " differs"
				sub(/^ /, "", cls)
				printf "<td%s>%s</td>", cls == "" ? "" : " class=\"" cls "\"", esc(v) }
			print "</tr>" } }' "$@"
}

# The header row: one column per run (RUN...), with its colour from the plots.
runs_header() {
	local i name runs=("$@")
	printf '<tr><th></th>'
	for i in "${!runs[@]}"; do
		name=$(run_name "${runs[$i]}" | html_escape)
		printf '<th><span class="swatch" style="background:#%s"></span>%s%s</th>' \
			"$(run_color "$i")" "$name" "$([ "$i" = 0 ] && echo ' (baseline)')"
	done
	printf '</tr>\n'
}

# system_section RUN...
system_section() {
	local d metas=()
	for d in "$@"; do metas+=("$d/meta"); done
	echo '<h2 id="system">Systems</h2>'
	echo '<p class="sub">Highlighted: differs from the baseline.</p>'
	echo '<table class="system">'
	runs_header "$@"
	kv_table "$RUN_KEYS" nomatch 1 "${metas[@]}"
	echo '</table>'
	echo '<h3>Runs</h3><table class="runs">'
	runs_header "$@"
	kv_table "$RUN_KEYS" match 0 "${metas[@]}"
	echo '</table>'
	topology_details "$@"
}

topology_details() {
	local d
	for d in "$@"; do
		[ -f "$d/topology.txt" ] || continue
		printf '<details><summary>Topology of %s</summary><pre>' "$(run_name "$d" | html_escape)"
		html_escape <"$d/topology.txt"
		echo '</pre></details>'
	done
}

# BENCH/config is "KEY=VALUE" lines plus "command[ KEY=V]: ..." lines; both
# become "key: value" for kv_table.  A run without the bench gets an empty
# column.  config_table BENCH WORKDIR RUN...
config_table() {
	local bench=$1 work=$2 i files=()
	shift 2
	local runs=("$@")
	for i in "${!runs[@]}"; do
		files+=("$work/config.$i")
		if [ -f "${runs[$i]}/$bench/config" ]; then
			sed '/^command/!s/=/: /' "${runs[$i]}/$bench/config"
		fi >"${files[$i]}"
	done
	echo '<table class="config">'
	runs_header "${runs[@]}"
	kv_table '' match 1 "${files[@]}"
	echo '</table>'
}
