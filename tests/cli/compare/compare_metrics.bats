#!/usr/bin/env bats
# Which metrics compare.sh shows and how: a counter (direction none) is
# neither better nor worse, monitors' metrics follow the bench's own only
# where they changed, and what a run lacks is said once per run.

bats_require_minimum_version 1.5.0

setup() {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/compare
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
	R=$BATS_TEST_TMPDIR/r
	mkdir -p "$R"
	cp -r "$FIX/3.11-rc3-0" "$R/base"
	cp -r "$FIX/3.11-rc3-1" "$R/new"
}

# add_metric RUN NAME DIRECTION MONITOR VALUE...: a metric of timedmunlock,
# one sample per value.
add_metric() {
	local run=$1 name=$2 dir=$3 mon=$4 i=0 v
	shift 4
	printf '%s\t%s\tcount\t%s%s\n' "$name" "${name#*_}" "$dir" "${mon:+	$mon}" >>"$R/$run/timedmunlock/metrics.tsv"
	for v in "$@"; do
		printf '%s\t-\t%d\t%s\n' "$name" "$i" "$v" >>"$R/$run/timedmunlock/samples.tsv"
		i=$((i + 1))
	done
}

@test "a counter (direction none) shows its plain change, never a star, and is never gated" {
	# 1000 -> 1250 pages, constant, so significant: +25.00% in parentheses
	# (a plain change, not 'better'), where a lower-is-better metric would
	# read *-25.00%*
	sed -i 's/^pages\(\t.*\)\t1000000$/pages\1\t1000/' "$R/base/timedmunlock/samples.tsv"
	sed -i 's/^pages\(\t.*\)\t1000000$/pages\1\t1250/' "$R/new/timedmunlock/samples.tsv"
	run --separate-stderr "$COMPARE" -o "$R" base new
	[ "$status" -eq 0 ]
	[[ "$output" == *"
Pages mean            1.00 (  0.00%)        1.25 ( 25.00%)
"* ]]
	[[ "$output" == *"Pages new: Difference at 95.0% confidence: 0.25 ± 0.00 K, 25% ± 0% more"* ]]
	run --separate-stderr "$COMPARE" -o "$R" --format json base new
	[ "$(jq -r '.benches[] | select(.name == "timedmunlock") | .metrics[] | select(.metric == "pages") | .better' <<<"$output")" = none ]
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 --gate-metric pages base new
	[ "$status" -eq 2 ]
	[ "$stderr" = "mmstat: --gate-metric pages: a counter (direction none in metrics.tsv) is neither better nor worse and is never gated" ]
}

@test "monitor metrics follow the bench's own, only where they differ significantly" {
	for r in base new; do
		add_metric "$r" vmstat_nr_same none vmstat 5 6 7 6
	done
	add_metric base vmstat_pgfault none vmstat 100 101 102 101
	add_metric new vmstat_pgfault none vmstat 0 0 0 0
	add_metric base mmap_lock_hold_max lower mmaplock 10 11 12 11
	add_metric new mmap_lock_hold_max lower mmaplock 10 12 11 10
	run --separate-stderr "$COMPARE" -o "$R" base new
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# the primary metric and the bench's own that changed (ns/page); the one
	# counter that changed, 101 -> 0, is a line of the summary: Welch by
	# hand, sd 0.8165 and 0, se 0.408, df 3, t(0.975, 3) = 3.182: 101 ± 1.30,
	# 1.30 / 101 = 1.3%
	[ "$(sed -n '/^timedmunlock$/,$p' <<<"$output" | grep ' mean ' | cut -d' ' -f1 | tr '\n' ' ')" = "Elapsed ns/page " ]
	grep -qE '^  timedmunlock pgfault +101.00 -> +0.00 +100.0% ± 1.3% less$' <<<"$output"
	# Populate, Munmap, Pages, nr_same, pgfault and lock_hold_max
	[[ "$output" == *"Not shown: the tables of 6 other metrics (--all-metrics shows every table)."* ]]
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics base new
	[ "$(sed -n '/^timedmunlock$/,$p' <<<"$output" | grep ' mean ' | cut -d' ' -f1 | tr '\n' ' ')" = "Elapsed ns/page Populate Munmap nr_same pgfault lock_hold_max " ]
	[[ "$output" != *"Not shown"* ]]
	# machine formats carry every metric
	run --separate-stderr "$COMPARE" -o "$R" --format csv base new
	[ "$(grep -c '^timedmunlock,vmstat_nr_same,' <<<"$output")" -eq 2 ]
}

@test "what a run lacks is one line per run, however many metrics" {
	for m in a b c d e f g h; do add_metric new "vmstat_$m" none vmstat 1 2 3; done
	sed -i '/^pages/d' "$R/base/timedmunlock/samples.tsv"
	run --separate-stderr "$COMPARE" -o "$R" base new
	[ "$status" -eq 0 ]
	[ "$stderr" = "mmstat: run 'base' lacks 9 metrics: pages, vmstat_a, vmstat_b, vmstat_c, vmstat_d, vmstat_e (timedmunlock); and 3 more" ]
	rm -r "$R/new/heaprelease"
	run --separate-stderr "$COMPARE" -o "$R" base new
	[ "${#stderr_lines[@]}" -eq 2 ]
	[ "${stderr_lines[0]}" = "mmstat: run 'base' lacks 9 metrics: pages, vmstat_a, vmstat_b, vmstat_c, vmstat_d, vmstat_e (timedmunlock); and 3 more" ]
	[ "${stderr_lines[1]}" = "mmstat: run 'new' lacks bench 'heaprelease'; not compared" ]
}

@test "a counter that drops to zero is a value: -100%, tested, not missing" {
	add_metric base vmstat_pgfault none vmstat 40 41 42 41
	add_metric new vmstat_pgfault none vmstat 0 0 0 0
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics base new
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *"pgfault mean          41.00 (   0.00%)        0.00 (-100.00%)"* ]]
	# Welch by hand: sd 0.8165 and 0, se 0.408, df 3, t(0.975, 3) = 3.182,
	# so -41 ± 1.30, and 1.30 / 41 = 3.2%
	[[ "$output" == *"pgfault new: Difference at 95.0% confidence: -41.0 ± 1.3, 100.0% ± 3.2% less"* ]]
}

@test "a run whose monitor did not run lacks its metrics there only; the other runs are compared" {
	cp -r "$R/new" "$R/novm"
	add_metric base vmstat_pgfault none vmstat 40 41 42 41
	add_metric new vmstat_pgfault none vmstat 20 21 22 21
	mkdir -p "$R/novm/timedmunlock/monitors"
	printf 'vmstat\t/proc/vmstat is not readable\n' >"$R/novm/timedmunlock/monitors/skipped"
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics base new novm
	[ "$status" -eq 0 ]
	[ "$stderr" = "mmstat: run 'base' lacks bench 'heaprelease'; not compared
mmstat: run 'novm' lacks metric 'vmstat_pgfault' of bench 'timedmunlock'; monitor vmstat did not run there (/proc/vmstat is not readable)" ] ||
		[ "$stderr" = "mmstat: run 'novm' lacks metric 'vmstat_pgfault' of bench 'timedmunlock'; monitor vmstat did not run there (/proc/vmstat is not readable)" ]
	# 41 -> 21: -48.78%, significant; novm's column is empty
	[[ "$output" == *"pgfault mean          41.00 (  0.00%)       21.00 (-48.78%)           -          "* ]]
	[[ "$output" == *"pgfault new: Difference at 95.0% confidence:"* ]]
	[[ "$output" == *"pgfault novm: No test: fewer than 2 samples (baseline 4, this run 0)"* ]]
	run --separate-stderr "$COMPARE" -o "$R" --format json base new novm
	local p='.benches[] | select(.name == "timedmunlock") | .metrics[] | select(.metric == "vmstat_pgfault") | .params[0]'
	[ "$(jq -r "$p.runs | map(.n) | join(\" \")" <<<"$output")" = "4 4 0" ]
	[ "$(jq -r "$p.runs[1].test.verdict" <<<"$output")" = "difference" ]
}

@test "a counter no run has a counted sample of (seen only in warm-ups) is left out" {
	for r in base new; do
		printf 'vmstat_thp_fault_alloc\tthp_fault_alloc\tcount\tnone\tvmstat\n' >>"$R/$r/timedmunlock/metrics.tsv"
		printf 'vmstat_thp_fault_alloc\t-\t0\t3\n' >"$R/$r/timedmunlock/warmup.tsv"
	done
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics base new
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" != *thp_fault_alloc* ]]
	run --separate-stderr "$COMPARE" -o "$R" --format csv base new
	[[ "$output" != *thp_fault_alloc* ]]
}

@test "a metric that is one number in every run is one line in every format, its data kept" {
	# both fixture runs map 1000000 pages in every iteration
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics base new
	[ "$status" -eq 0 ]
	grep -qxF 'Pages 1000000 in every run' <<<"$output"
	[[ "$output" != *"Pages min"* && "$output" != *"Pages new:"* && "$output" != *"Pages [M]"* ]]
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics --format markdown base new
	grep -qxF -e '- Pages 1000000 in every run' <<<"$output"
	[[ "$output" != *"Pages min"* && "$output" != *"Pages new:"* ]]
	run --separate-stderr "$COMPARE" -o "$R" --format csv base new
	[ "$(awk -F, '$2 == "pages" { print $9, $11, $39 }' <<<"$output" | sort -u)" = "4 1000000 1" ]
	[ "$(awk -F, '$2 == "elapsed" { print $39 }' <<<"$output" | sort -u)" = 0 ]
	run --separate-stderr "$COMPARE" -o "$R" --format json base new
	local m='.benches[] | select(.name == "timedmunlock") | .metrics[] | select(.metric == "pages")'
	[ "$(jq -r "$m | [.constant, .params[0].runs[1].n, .params[0].runs[1].mean] | join(\" \")" <<<"$output")" = "true 4 1000000" ]
	[ "$(jq -r '.benches[] | select(.name == "timedmunlock") | .metrics[0].constant' <<<"$output")" = false ]
	run --separate-stderr "$COMPARE" -o "$R" --format html base new
	[[ "$output" == *'<p class="constant" id="timedmunlock-pages">Pages 1000000 in every run</p>'* ]]
	[[ "$output" != *'<h3 id="timedmunlock-pages">'* ]]
}

@test "constant in each run but not equal across them, or varying in one: the table" {
	sed -i 's/^pages\(\t.*\)\t1000000$/pages\1\t1000/' "$R/new/timedmunlock/samples.tsv"
	run --separate-stderr "$COMPARE" -o "$R" base new
	[[ "$output" == *"Pages min "* && "$output" != *"Pages 1000000 in every run"* ]]
	cp "$FIX/3.11-rc3-1/timedmunlock/samples.tsv" "$R/new/timedmunlock/samples.tsv"
	sed -i '0,/^pages\(\t.*\)\t1000000$/s//pages\1\t1000001/' "$R/new/timedmunlock/samples.tsv"
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics base new
	[[ "$output" == *"Pages min "* && "$output" != *"Pages 1000000 in every run"* ]]
}

@test "a sweep's constant is one line naming each swept value's number" {
	# SIZE 16M 32M 64M in both runs: 4096, 8192 and 16384 pages of 4 KiB
	run --separate-stderr "$COMPARE" -o "$BATS_TEST_DIRNAME/../../fixtures/plot" --all-metrics sweep-a sweep-b
	[ "$status" -eq 0 ]
	grep -qxF 'Pages-16M 4096, Pages-32M 8192, Pages-64M 16384 in every run' <<<"$output"
}

@test "a counter that is another's figure under a second name is shown once, only where equal in every sample" {
	for r in base new; do
		add_metric "$r" vmstat_nr_active_anon none vmstat 5 6 7 6
		add_metric "$r" vmstat_nr_zone_active_anon none vmstat 5 6 7 6
		add_metric "$r" vmstat_nr_unevictable none vmstat 10 10 10 10
		add_metric "$r" vmstat_nr_zone_unevictable none vmstat 10 10 10 10
	done
	add_metric base vmstat_nr_mlock none vmstat 10 10 10 10
	# one sample of one run differs: nr_mlock is not nr_unevictable here
	add_metric new vmstat_nr_mlock none vmstat 10 10 9 10
	run --separate-stderr "$COMPARE" -o "$R" --all-metrics base new
	[ "$status" -eq 0 ]
	grep -qxF 'Shown once, the same in every sample: nr_zone_active_anon = nr_active_anon, nr_zone_unevictable = nr_unevictable.' <<<"$output"
	grep -q '^nr_active_anon mean ' <<<"$output"
	grep -q '^nr_mlock mean ' <<<"$output"
	run ! grep -q '^nr_zone_active_anon mean ' <<<"$output"
	run --separate-stderr "$COMPARE" -o "$R" --format csv base new
	[ "$(grep -c '^timedmunlock,vmstat_nr_zone' <<<"$output")" -eq 0 ]
	[ "$(grep -c '^timedmunlock,vmstat_nr_mlock,' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^timedmunlock,vmstat_nr_active_anon,' <<<"$output")" -eq 2 ]
}
