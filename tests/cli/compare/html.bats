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
	grep -q 'compare.sh: html: writing' "$PAGE_DIR/ab.err"
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
	[ "$(grep -o '<img src="plots/[^"]*-sweep.svg"' "$PAGE_DIR/sweep/index.html" | wc -l)" -eq 5 ]
	[ "$(grep -o '<img ' "$PAGE_DIR/sweep/index.html" | wc -l)" -eq 20 ]
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
	[[ "$stderr" == *"mmdelta: plot: timedmunlock elapsed: no test possible, no delta plot"* ]]
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
