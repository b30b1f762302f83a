#!/usr/bin/env bats
# history.sh html: a trend chart per series on one page that opens from
# disk, checked in headless Chromium like the compare report: every image
# loaded, one chart and one change table per series, the change point
# between the right runs.

bats_require_minimum_version 1.5.0
load ../helpers
load ../compare/html_browser
load history_runs

setup_file() {
	RES=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-histhtml.XXXXXX")
	export RES
	fake_series "$RES" 30 21 1.0 1.06
	"$ROOT/history.sh" -o "$RES" html "$RES/page" >"$RES/html.out" 2>"$RES/html.err"
	echo $? >"$RES/html.status"
	dump_dom "$RES/page/index.html" >"$RES/page.dom"
}

teardown_file() {
	rm -rf "$RES"
}

@test "html writes OUTDIR/index.html and a PNG and SVG per series" {
	[ "$(cat "$RES/html.status")" -eq 0 ]
	grep -q "mmdelta: html: wrote $RES/page/index.html" "$RES/html.err"
	[ "$(find "$RES/page/plots" -name '*.svg' | wc -l)" -eq 2 ]	# elapsed, pages
	[ "$(find "$RES/page/plots" -name '*.png' | wc -l)" -eq 2 ]
	! grep -Eiq '(src|href)="(https?:|//)' "$RES/page/index.html"
}

@test "in Chromium every chart loaded" {
	grep -q '<body data-images="ok" data-images-loaded="2" data-images-broken="0"' "$RES/page.dom"
}

@test "the change point is on the page between the runs around it, as a regression" {
	[ "$(grep -o '<table class="changes">' "$RES/page.dom" | wc -l)" -eq 1 ]
	grep -q '<tr><td>night-20</td><td>night-21</td>.*<td class="num worse">-[0-9.]*% ± ' "$RES/page.dom"
	grep -q 'No change point.' "$RES/page.dom"	# pages is constant
	# the chart marks it: a label naming both runs in the SVG
	grep -q 'night-20 → night-21' "$RES"/page/plots/0-timedmunlock-elapsed.svg
}

@test "the screenshot is a real, non-blank PNG" {
	screenshot "$RES/page/index.html" "$RES/shot.png"
	is_png "$RES/shot.png"
	[ "$(stat -c %s "$RES/shot.png")" -gt 50000 ]
}

@test "html without a directory, or one that cannot be written, fails in one line" {
	run --separate-stderr "$ROOT/history.sh" -o "$RES" html
	[ "$status" -eq 2 ]
	assert_one_line_error
	touch "$RES/file"
	run --separate-stderr "$ROOT/history.sh" -o "$RES" html "$RES/file/sub"
	[ "$status" -eq 2 ]
	assert_one_line_error
}

# A count metric in ones (its unit shows as ""), flat in every run, and a
# series of one run: each is a chart like any other.
@test "every series gets a chart: a flat one, one whose unit is empty, one of a single run" {
	local r=$RES/flat
	mkdir "$r"
	fake_series "$r" 8 99 1.0 1.0
	for d in "$r"/night-*; do
		printf 'voluntary_cs\tVoluntary CS\tcount\tnone\n' >>"$d/timedmunlock/metrics.tsv"
		printf 'voluntary_cs\t-\t%d\t2\n' 1 2 3 4 5 >>"$d/timedmunlock/samples.tsv"
	done
	sed -i 's/^SIZE=1G$/SIZE=2G/' "$r/night-08/timedmunlock/config"	# a series of its own
	run --separate-stderr "$ROOT/history.sh" -o "$r" html "$r/page"
	[ "$status" -eq 0 ]
	# elapsed, pages, voluntary_cs; for SIZE=1G and for night-08's SIZE=2G
	[ "$(grep -c '^<h2 ' "$r/page/index.html")" -eq 6 ]
	[ "$(find "$r/page/plots" -name '*.svg' -size +1k | wc -l)" -eq 6 ]
	[ "$(find "$r/page/plots" -name '*.png' -size +1k | wc -l)" -eq 6 ]
	grep -q '<h2 id="s[0-9]*">timedmunlock voluntary_cs on labhost</h2>' "$r/page/index.html"
	[ -z "$(find "$r/page" -name '.*')" ]
}

@test "a failed page leaves no debris, and the page before it stands" {
	local r=$RES/fail stub=$BATS_TEST_TMPDIR/bin
	mkdir "$r" "$stub"
	fake_series "$r" 8 99 1.0 1.0
	"$ROOT/history.sh" -o "$r" html "$r/page" 2>/dev/null
	before=$(cd "$r/page" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
	printf '#!/bin/sh\necho "stand-in gnuplot: failing" >&2\nexit 1\n' >"$stub/gnuplot"
	chmod +x "$stub/gnuplot"
	for out in "$r/page" "$r/new"; do
		run --separate-stderr env PATH="$stub:$PATH" "$ROOT/history.sh" -o "$r" html "$out"
		[ "$status" -eq 2 ]
		[[ $stderr == *"mmdelta: html: gnuplot failed on timedmunlock elapsed on labhost: stand-in gnuplot: failing"* ]]
	done
	[ "$(cd "$r/page" && find . -type f -print0 | sort -z | xargs -0 sha256sum)" = "$before" ]
	[ -z "$(find "$r/page" -name '.*')" ]
	[ ! -e "$r/new" ]
}

@test "a run set aside as an outlier is a ring on its chart and listed under it" {
	local r=$RES/bad
	mkdir "$r"
	fake_series "$r" 20 99 1.0 1.0
	fake_runs "$r" 10 10 0 1.3 1.3
	run --separate-stderr "$ROOT/history.sh" -o "$r" html "$r/page"
	[ "$status" -eq 0 ]
	grep -q '<p class="sub">Set aside as outliers (not in any level): night-10 1.2[0-9]* s (+29.[0-9]%).</p>' "$r/page/index.html"
	grep -q 'outlier run, set aside' "$r/page/plots/0-timedmunlock-elapsed.svg"
	run ! grep -q 'outlier run, set aside' "$r/page/plots/1-timedmunlock-pages.svg"
}
