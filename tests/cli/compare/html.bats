#!/usr/bin/env bats
# compare.sh --html: one page that opens from disk, checked in headless
# Chromium: every image loaded, the tables are there, differences and
# significant cells are marked.  The page is written once per file.

bats_require_minimum_version 1.5.0
load ../helpers
load html_browser

setup_file() {
	FIX=$ROOT/tests/fixtures/plot
	PAGE_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-html.XXXXXX")
	# elapsed's interval (-58% to +71%) straddles the gate: inconclusive, passed by policy
	"$ROOT/compare.sh" -o "$FIX" --gate 5 --inconclusive pass --html "$PAGE_DIR/ab" base-a patch-b >"$PAGE_DIR/ab.out" 2>"$PAGE_DIR/ab.err"
	echo $? >"$PAGE_DIR/ab.status"
	dump_dom "$PAGE_DIR/ab/index.html" >"$PAGE_DIR/ab.dom"
	export FIX PAGE_DIR
}

teardown_file() {
	rm -rf "$PAGE_DIR"
}

setup() {
	PAGE=$PAGE_DIR/ab/index.html
	DOM=$PAGE_DIR/ab.dom
}

@test "compare.sh --html writes DIR/index.html, prints the table and keeps the gate's exit status" {
	[ "$(cat "$PAGE_DIR/ab.status")" -eq 0 ]
	[ -s "$PAGE" ]
	grep -q 'Munmap mean' "$PAGE_DIR/ab.out"
	grep -q 'gate: timedmunlock elapsed patch-b' "$PAGE_DIR/ab.out"
	# one line on stderr for the page and its plots, not one per plot
	[ "$(grep -c . "$PAGE_DIR/ab.err")" -eq 1 ]
	grep -qx "compare.sh: html: $PAGE_DIR/ab/index.html, $(find "$PAGE_DIR/ab/plots" -name '*.svg' | wc -l) plots" "$PAGE_DIR/ab.err"
}

@test "the page loads nothing from the network and every image it names is in its folder" {
	run ! grep -Eiq '(src|href)="(https?:|//)' "$PAGE"
	run ! grep -Eiq '@import|url\(' "$PAGE"
	local n=0 src
	while IFS= read -r src; do
		[ -s "$PAGE_DIR/ab/$src" ] || { echo "missing $src"; return 1; }
		n=$((n + 1))
	done < <(grep -o '<img src="[^"]*"' "$PAGE" | sed 's/<img src="//; s/"$//')
	[ "$n" -eq 15 ]  # 5 metrics x box, run sequence, delta
}

@test "in Chromium every image loaded" {
	grep -q '<body data-images="ok" data-images-loaded="15" data-images-broken="0"' "$DOM"
}

@test "in Chromium the tables are there: systems, runs, config, one per metric, gate" {
	[ "$(grep -o '<table class="system">' "$DOM" | wc -l)" -eq 1 ]
	[ "$(grep -o '<table class="runs">' "$DOM" | wc -l)" -eq 1 ]
	[ "$(grep -o '<table class="config">' "$DOM" | wc -l)" -eq 1 ]
	[ "$(grep -o '<table class="stats">' "$DOM" | wc -l)" -eq 5 ]
	[ "$(grep -o '<table class="gate">' "$DOM" | wc -l)" -eq 1 ]
}

@test "a config value that differs from the baseline's is highlighted, an equal one is not" {
	grep -q '<tr><th>SIZE</th><td>64M</td><td class="differs">80M</td></tr>' "$PAGE"
	grep -q '<tr><th>LOCK</th><td>map_locked</td><td>map_locked</td></tr>' "$PAGE"
	grep -q '<tr><th>kernel_release</th><td>6.18.44-fc-v769</td><td>6.18.44-fc-v769</td></tr>' "$PAGE"
}

@test "a significant change of the mean is coloured, an unproven one is not" {
	# munmap: 24.8% slower, significant; elapsed: no difference proven
	# (the value's unit is the JSON's display unit: match the percentage)
	grep -Eq '<td class="num worse">[0-9.]+ \(-24.78%\) \*</td>' "$PAGE"
	grep -Eq '<td class="num">[0-9.]+ \( 50.21%\)</td>' "$PAGE"
}

@test "the gate's verdicts are on the page" {
	grep -q '<h2 id="gate">Gate (5%): <span class="gate-inconclusive">INCONCLUSIVE: more iterations are needed</span></h2>' "$PAGE"
	grep -q '<td class="inconclusive">inconclusive</td>' "$PAGE"
}

# The mean's change of munmap_elapsed, positive = better, from samples.tsv
mean_change() {	# mean_change BASE-RUN RUN METRIC
	awk -F'\t' -v m="$3" 'FNR == 1 { f++ } $1 == m { s[f] += $4; n[f]++ }
		END { a = s[1] / n[1]; b = s[2] / n[2]; printf "%.2f%%\n", (a - b) * 100 / a }' \
		"$FIX/$1/timedmunlock/samples.tsv" "$FIX/$2/timedmunlock/samples.tsv"
}

@test "the first screen is the result: every change and verdict, linked, within 900 pixels" {
	local bottom summary munmap id
	bottom=$(element_bottom "$PAGE" summary)
	[ -n "$bottom" ] && [ "$bottom" -gt 100 ] && [ "$bottom" -le 900 ]
	summary=$(sed -n '/<section id="summary">/,/<\/section>/p' "$DOM")
	# munmap: significant and worse, its change of the mean by hand
	munmap=$(mean_change base-a patch-b munmap_elapsed)
	[ "$munmap" = -24.78% ]
	grep -q "<td><a href=\"#timedmunlock-munmap_elapsed\">Munmap</a></td><td>patch-b</td><td class=\"num worse\">$munmap</td><td class=\"num\">\[-[0-9.]*%, -[0-9.]*%\] at 95%</td><td class=\"worse\">worse \*</td><td></td></tr>" <<<"$summary"
	# elapsed: not significant, but gated: its verdict is there
	grep -q '<td><a href="#timedmunlock-elapsed">Elapsed</a></td><td>patch-b</td>.*<td>no difference proven</td><td class="inconclusive"><a href="#gate">inconclusive</a></td></tr>' <<<"$summary"
	grep -q 'Gate (5%): <span class="gate-inconclusive">INCONCLUSIVE' <<<"$summary"
	# pages (64M against 80M of 4 KiB) changed: a count, in the counters' line
	grep -q 'counts that changed (plain change): <a href="#timedmunlock-pages">Pages</a> (patch-b) +25.00%' <<<"$summary"
	# every link leads somewhere on the page
	for id in $(grep -o 'href="#[^"]*"' <<<"$summary" | sed 's/href="#//; s/"$//' | sort -u); do
		grep -q "id=\"$id\"" "$DOM" || { echo "no element $id"; return 1; }
	done
}

@test "the first-screen check can fail: a summary pushed down is found below 900 pixels" {
	sed 's|<section id="summary">|<div style="height: 1000px"></div>&|' "$PAGE" >"$PAGE_DIR/ab/pushed.html"
	[ "$(element_bottom "$PAGE_DIR/ab/pushed.html" summary)" -gt 900 ]
}

# The page of two real kernel runs (the ends of a bisection under icount,
# tests/fixtures/plot/README.md), or of copies with their meta edited.
kernel_page() {	# kernel_page ROOT
	"$ROOT/compare.sh" -o "$1" --format html 00-6.12.115+deb12-cloud-amd64 01-6.12.117+deb12-cloud-amd64 2>/dev/null
}

# The th of every highlighted row of the table of class CLASS.
highlighted() {	# highlighted PAGE CLASS
	sed -n "/<table class=\"$2\">/,/<\/table>/p" "$1" | grep 'class="[a-z ]*differs"' |
		sed 's/^<tr><th>\([^<]*\)<.*/\1/' | tr '\n' ' '
}

@test "two kernels: only what can change a figure is highlighted, the rest is folded" {
	local k=$PAGE_DIR/kernels page=$PAGE_DIR/kernels/index.html mem key
	mkdir -p "$k"
	kernel_page "$FIX" >"$page"
	[ "$(highlighted "$page" system)" = "kernel_release kernel_version " ]
	# pids, paths, times and the load at start differ, folded and plain
	for key in pid pid_start fifo_dir load_at_start start_time vm_image kernel_config vm_wall_seconds; do
		sed -n '/<table class="system">/,/<\/table>/p' "$page" | grep -q "<th>$key</th>" && { echo "$key open"; return 1; }
		sed -n '/<table class="runs">/,/<\/table>/p' "$page" | grep -q "<tr><th>$key</th>" || { echo "$key missing"; return 1; }
	done
	grep -q '<details><summary>[0-9]* more facts of the runs' "$page"
	[ -z "$(highlighted "$page" runs)" ]
	# MemTotal 12 KiB apart (another kernel's reservations) is the same
	# machine; 10% more, or another THP setting, is not
	mem=$(sed -n 's/^memtotal: //p' "$FIX/00-6.12.115+deb12-cloud-amd64/meta")
	cp -r "$FIX/00-6.12.115+deb12-cloud-amd64" "$FIX/01-6.12.117+deb12-cloud-amd64" "$k/"
	sed -i "s/^memtotal: .*/memtotal: $((mem - 12288))/" "$k/01-6.12.117+deb12-cloud-amd64/meta"
	kernel_page "$k" >"$page"
	[ "$(highlighted "$page" system)" = "kernel_release kernel_version " ]
	sed -i "s/^memtotal: .*/memtotal: $((mem * 11 / 10))/; s/^thp_enabled: .*/thp_enabled: always/" "$k/01-6.12.117+deb12-cloud-amd64/meta"
	# a config line of how the run went is folded; SIZE decides the figure
	sed -i 's/^ITERATIONS=.*/ITERATIONS=7/; s/^SIZE=.*/SIZE=32M/' "$k/01-6.12.117+deb12-cloud-amd64/timedmunlock/config"
	kernel_page "$k" >"$page"
	# the system's THP at the start differs, but the bench ran with THP=never
	# in both: what it ran with is alike
	[ "$(highlighted "$page" system)" = "kernel_release kernel_version memtotal " ]
	[ "$(highlighted "$page" config)" = "SIZE " ]
	sed -n '/<table class="config-run">/,/<\/table>/p' "$page" | grep -q '<tr><th>ITERATIONS</th><td>2</td><td>7</td></tr>'
}

@test "two kernels: the result is the first screen" {
	local page=$PAGE_DIR/kernels-first.html bottom
	kernel_page "$FIX" >"$page"
	bottom=$(element_bottom "$page" summary)
	[ -n "$bottom" ] && [ "$bottom" -le 900 ]
	# populate 0.044% faster, munmap 0.19% slower: both significant under
	# icount, but populate's is under the 0.1% threshold: never coloured
	grep -q '<a href="#timedmunlock-populate_elapsed">Populate</a>.*<td>significant, under 0.1%</td>' "$page"
	run ! grep -q '<a href="#timedmunlock-populate_elapsed">Populate</a>.*class="[a-z ]*better' "$page"
	grep -q '<a href="#timedmunlock-munmap_elapsed">Munmap</a>.*<td class="worse">worse \*</td>' "$page"
}

@test "the screenshot is a real, non-blank PNG" {
	screenshot "$PAGE" "$PAGE_DIR/shot.png"
	is_png "$PAGE_DIR/shot.png"
	# a blank 1400x2000 page compresses to a few KB; this one has plots and tables
	[ "$(stat -c %s "$PAGE_DIR/shot.png")" -gt 100000 ]
}

@test "a missing plot shows as broken, so the image check can fail" {
	cp -r "$PAGE_DIR/ab" "$PAGE_DIR/holed"
	rm "$PAGE_DIR/holed/plots/timedmunlock-pages-box.svg"
	dump_dom "$PAGE_DIR/holed/index.html" >"$PAGE_DIR/holed.dom"
	grep -q '<body data-images="broken" data-images-loaded="14" data-images-broken="1"' "$PAGE_DIR/holed.dom"
	grep -q 'missing plot: plots/timedmunlock-pages-box.svg' "$PAGE_DIR/holed.dom"
}

@test "a sweep's page has one table block per swept value and the sweep plots" {
	run --separate-stderr "$ROOT/compare.sh" -o "$FIX" --html "$PAGE_DIR/sweep" sweep-a sweep-b
	[ "$status" -eq 0 ]
	grep -q '<tr><th colspan="3">32M</th></tr>' "$PAGE_DIR/sweep/index.html"
	# pages, 4096, 8192 and 16384 in both runs, is one line and not plotted
	grep -q '<p class="constant" id="timedmunlock-pages">Pages-16M 4096, Pages-32M 8192, Pages-64M 16384 in every run</p>' "$PAGE_DIR/sweep/index.html"
	[ "$stderr" = "compare.sh: html: $PAGE_DIR/sweep/index.html, 16 plots" ]
	[ "$(grep -o '<img src="plots/[^"]*-sweep.svg"' "$PAGE_DIR/sweep/index.html" | wc -l)" -eq 4 ]
	[ "$(grep -o '<img ' "$PAGE_DIR/sweep/index.html" | wc -l)" -eq 16 ]
}

@test "--html with a run that does not exist fails in one line and writes no page" {
	run --separate-stderr "$ROOT/compare.sh" -o "$FIX" --html "$PAGE_DIR/none" base-a no-such-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	[ ! -e "$PAGE_DIR/none/index.html" ]
}

@test "a run with one sample per metric: the page says n/a and draws no delta chart" {
	run --separate-stderr "$ROOT/compare.sh" -o "$ROOT/tests/fixtures/compare" --html "$PAGE_DIR/single" 3.11-rc3-0 single-1
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"compare.sh: html: $PAGE_DIR/single/index.html, 8 plots"* ]]
	grep -q '<td class="num">n/a (n/a)</td>' "$PAGE_DIR/single/index.html"
	[ -z "$(find "$PAGE_DIR/single/plots" -name '*-delta.*')" ]
	[ -n "$(find "$PAGE_DIR/single/plots" -name 'timedmunlock-elapsed-box.svg')" ]
}

@test "the page's tables are the text table's rows: median and percentiles where it has them" {
	local r=$PAGE_DIR/dist i
	mkdir -p "$r"
	cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-0" "$r/base"
	cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-1" "$r/new"
	# 20 samples of elapsed per run: a latency distribution
	for i in $(seq 4 19); do
		printf 'elapsed\t-\t%d\t3.%02d\n' "$i" "$((30 + i))" >>"$r/base/timedmunlock/samples.tsv"
		printf 'elapsed\t-\t%d\t1.%02d\n' "$i" "$((80 + i))" >>"$r/new/timedmunlock/samples.tsv"
	done
	run --separate-stderr "$ROOT/compare.sh" -o "$r" --format html base new
	[ "$status" -eq 0 ]
	local page=$output text p99
	text=$("$ROOT/compare.sh" -o "$r" base new 2>/dev/null)
	p99=$(awk '/^Elapsed p99 / { print $3 }' <<<"$text")
	[ -n "$p99" ]
	grep -q "<tr><th>p99 (s)</th><td class=\"num\">$p99 " <<<"$page"
	for s in min mean stddev max range cv median p90 p95 p99; do
		grep -q "<tr><th>$s (" <<<"$page" || { echo "no $s row"; return 1; }
	done
}

@test "names, labels and values are escaped in the page" {
	local r=$PAGE_DIR/esc
	mkdir -p "$r"
	cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-0" "$r/base"
	cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-1" "$r/new"
	sed -i '1s/\tElapsed\t/\t<b>Elapsed\&"\t/' "$r"/*/timedmunlock/metrics.tsv
	printf 'cpu_model: <script>x</script>\n' >>"$r/new/meta"
	run --separate-stderr "$ROOT/compare.sh" -o "$r" --format html base new
	[ "$status" -eq 0 ]
	[[ "$output" == *"&lt;b&gt;Elapsed&amp;&quot; [s]"* ]]
	[[ "$output" == *"&lt;script&gt;x&lt;/script&gt;"* ]]
	[[ "$output" != *"<b>Elapsed"* && "$output" != *"<script>x"* ]]
}

@test "the Systems table shows the THP each run's benches ran with; the system's at the start is folded" {
	local r=$PAGE_DIR/thp
	mkdir -p "$r"
	cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-0" "$r/base"
	cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-1" "$r/new"
	printf 'thp_enabled: madvise\n' | tee -a "$r/base/meta" >>"$r/new/meta"
	printf 'THP=default\n' | tee "$r/base/heaprelease/config" >"$r/new/heaprelease/config"
	printf 'THP=never\n' >"$r/base/timedmunlock/config"
	printf 'THP=never\n' >"$r/new/timedmunlock/config"
	run --separate-stderr "$ROOT/compare.sh" -o "$r" --format html base new
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$r/page.html"
	# alike: "default" is the system's setting, madvise
	grep -q '<tr><th>thp_enabled</th><td>madvise (heaprelease), never (timedmunlock)</td><td>madvise (heaprelease), never (timedmunlock)</td></tr>' "$r/page.html"
	[ -z "$(highlighted "$r/page.html" system)" ]
	printf 'THP=always\n' >"$r/new/timedmunlock/config"
	printf 'THP=always\n' >"$r/new/heaprelease/config"
	run --separate-stderr "$ROOT/compare.sh" -o "$r" --format html base new
	printf '%s\n' "$output" >"$r/page.html"
	grep -q '<td class="differs">always</td>' "$r/page.html"
	[ "$(highlighted "$r/page.html" system)" = "thp_enabled " ]
	sed -n '/<table class="runs">/,/<\/table>/p' "$r/page.html" | grep -q '<tr><th>thp_enabled at start</th><td>madvise</td><td>madvise</td></tr>'
}

@test "a significant change under the threshold is never coloured: said as such" {
	local r=$PAGE_DIR/small
	mkdir -p "$r"
	cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-0" "$r/base"
	cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-0" "$r/new"
	# icount: constant samples are exact, 1.0 s against 1.0005 s is 0.05% worse
	awk -F'\t' -v OFS='\t' 'NR > 1 && $1 == "elapsed" { $4 = 1.0 } { print }' "$r/base/timedmunlock/samples.tsv" >"$r/s" && mv "$r/s" "$r/base/timedmunlock/samples.tsv"
	awk -F'\t' -v OFS='\t' 'NR > 1 && $1 == "elapsed" { $4 = 1.0005 } { print }' "$r/new/timedmunlock/samples.tsv" >"$r/s" && mv "$r/s" "$r/new/timedmunlock/samples.tsv"
	sed -i '/^clock:/d; $a clock: icount' "$r/base/meta" "$r/new/meta"
	MMDELTA_RESOLUTION=/nonexistent run --separate-stderr "$ROOT/compare.sh" -o "$r" --format html base new
	[ "$status" -eq 0 ]
	[[ "$output" == *"<td>significant, under 0.1%</td>"* ]]
	# the text summary's lines close the page's
	[[ "$output" == *'<p class="sub">Significant, under 0.1%: timedmunlock Elapsed 0.050% worse, exact.</p>'* ]]
	[[ "$output" == *'<p class="sub">8 figures: no difference proven; the smallest change each bench could detect'* ]]
	[[ "$output" != *'class="num worse"'* ]]
	run --separate-stderr "$ROOT/compare.sh" -o "$r" --threshold 0.01 --format html base new
	[[ "$output" == *'class="num worse"'* ]]
	[[ "$output" != *"significant, under"* ]]
	# without a resolution table, the test alone decides
	MMDELTA_RESOLUTION=/nonexistent run --separate-stderr "$ROOT/compare.sh" -o "$r" base new
	grep -qx 'Significant, under 0.1%: timedmunlock Elapsed 0.050% worse, exact.' <<<"$output"
}
