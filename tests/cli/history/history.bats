#!/usr/bin/env bats
# history.sh: the database of runs (checked with the sqlite3 program as an
# independent reader), change points over made-up nightly series with a
# planted step, and bad input.  Real run.sh runs are in history_runs.bats.

bats_require_minimum_version 1.5.0
load ../helpers
load history_runs

setup() { common_setup; }
teardown() { common_teardown; }

db() { sqlite3 -batch "$RES/history.sqlite" "$@"; }

# Everything the database says about the runs, without its row ids.
db_dump() {
	db "SELECT name, host, start_time, end_time, kernel_release, clock, coalesce(qemu_version, ''),
	           coalesce(vm_image, ''), status, digest FROM runs ORDER BY name;
	    SELECT r.name, m.bench, m.name, m.unit, m.direction, s.param, s.iteration, s.value
	      FROM samples s JOIN runs r ON r.id = s.run_id JOIN metrics m ON m.id = s.metric_id
	     ORDER BY r.name, m.bench, m.name, s.param, s.iteration;
	    SELECT r.name, p.bench, p.param, c.text FROM points p JOIN runs r ON r.id = p.run_id
	      JOIN configs c ON c.id = p.config_id ORDER BY r.name, p.bench, p.param;
	    SELECT r.name, k.key, k.value FROM meta k JOIN runs r ON r.id = k.run_id ORDER BY 1, 2"
}

@test "ingest records every complete run with its samples, once" {
	fake_series "$RES" 6 99 1.0 1.0
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest
	[ "$status" -eq 0 ]
	[ "$(db 'PRAGMA user_version')" -eq 1 ]
	[ "$(db 'PRAGMA journal_mode')" = wal ]
	[ "$(db 'SELECT count(*) FROM runs')" -eq 6 ]
	# every row of every samples.tsv, value for value
	diff <(db "SELECT r.name, m.name, s.param, s.iteration, printf('%.9g', s.value) FROM samples s
	           JOIN runs r ON r.id = s.run_id JOIN metrics m ON m.id = s.metric_id ORDER BY 1, 2, 4" | tr '|' '\t') \
		<(for d in "$RES"/night-*; do awk -F'\t' -v n="${d##*/}" 'NR > 1 { printf "%s\t%s\t%s\t%s\t%.9g\n", n, $1, $2, $3, $4 }' \
			"$d/timedmunlock/samples.tsv"; done | sort -t$'\t' -k1,2 -k4n)
	[ "$(db "SELECT clock || ' ' || host || ' ' || kernel_release FROM runs WHERE name = 'night-03'")" = "realtime labhost 6.1.0-3" ]
	[ "$(db "SELECT label || ' ' || unit || ' ' || direction || ' ' || position FROM metrics WHERE name = 'elapsed'")" = "Elapsed s lower 0" ]
	# the same runs again change nothing
	before=$(db_dump)
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest night-02 "$RES/night-03"
	[ "$status" -eq 0 ]
	[[ $stderr == *"night-02 already recorded"* ]]
	[ "$(db_dump)" = "$before" ]
}

@test "a run copied twice is one run; a copy whose files changed replaces it" {
	fake_series "$RES" 3 99 1.0 1.0
	cp -r "$RES/night-02" "$RES/copy-a"
	cp -r "$RES/night-02" "$RES/copy-b"
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest
	[ "$status" -eq 0 ]
	[ "$(db 'SELECT count(*) FROM runs')" -eq 3 ]
	[ "$(db "SELECT count(*) FROM runs WHERE name = 'night-02'")" -eq 1 ]
	# an iteration added later: the directory is the truth
	printf 'elapsed\t-\t6\t1.5\n' >>"$RES/copy-b/timedmunlock/samples.tsv"
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest copy-b
	[ "$status" -eq 0 ]
	[[ $stderr == *"recorded again (its files changed)"* ]]
	[ "$(db "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'night-02'")" -eq 11 ]
	[ "$(db 'SELECT count(*) FROM runs')" -eq 3 ]
}

@test "rebuild gives the database ingest gave; without one, changes reads the runs and creates nothing" {
	fake_series "$RES" 8 5 1.0 1.2
	"$ROOT/history.sh" -o "$RES" ingest 2>/dev/null
	ingested=$(db_dump)
	changes=$("$ROOT/history.sh" -o "$RES" changes --format json)
	run --separate-stderr "$ROOT/history.sh" -o "$RES" rebuild
	[ "$status" -eq 0 ]
	[ "$(db_dump)" = "$ingested" ]
	rm "$RES/history.sqlite"
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --format json
	[ "$status" -eq 0 ]
	[[ $stderr == *"no $RES/history.sqlite; reading the 8 runs there (./history.sh ingest records them)"* ]]
	[ "$output" = "$changes" ]
	[ -z "$(find "$RES" -maxdepth 1 -name '*history.sqlite*')" ]
	# the first write builds it from every run there
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest night-02
	[ "$status" -eq 0 ]
	[[ $stderr == *"no $RES/history.sqlite yet; building it"* ]]
	[ "$(db_dump)" = "$ingested" ]
	[ -z "$(find "$RES" -maxdepth 1 -name '.history.sqlite.*')" ]
}

@test "two ingests at once into one database both complete and lose nothing" {
	fake_series "$RES" 40 99 1.0 1.0
	"$ROOT/history.sh" -o "$RES" ingest night-01 2>/dev/null
	mapfile -t odd < <(printf 'night-%02d\n' $(seq 1 2 40))
	mapfile -t even < <(printf 'night-%02d\n' $(seq 2 2 40))
	# each process also records half of the other's runs
	"$ROOT/history.sh" -o "$RES" ingest "${odd[@]}" "${even[@]:0:10}" 2>"$RES/a.err" &
	a=$!
	"$ROOT/history.sh" -o "$RES" ingest "${even[@]}" "${odd[@]:0:10}" 2>"$RES/b.err" &
	b=$!
	wait "$a"
	wait "$b"
	[ "$(db 'SELECT count(*) FROM runs')" -eq 40 ]
	[ "$(db 'SELECT count(DISTINCT name) FROM runs')" -eq 40 ]
	[ "$(db 'SELECT count(*) FROM samples')" -eq 400 ]
	[ "$(db 'PRAGMA integrity_check')" = ok ]
}

@test "two processes that both find no database agree on one" {
	fake_series "$RES" 12 99 1.0 1.0
	"$ROOT/history.sh" -o "$RES" ingest night-01 2>"$RES/a.err" &
	a=$!
	"$ROOT/history.sh" -o "$RES" changes >/dev/null 2>"$RES/b.err" &
	b=$!
	wait "$a"
	wait "$b"
	[ "$(db 'SELECT count(*) FROM runs')" -eq 12 ]
	[ -z "$(find "$RES" -maxdepth 1 -name '.history.sqlite.*')" ]
}

@test "a corrupt database or one of another schema is refused in one line naming rebuild" {
	fake_series "$RES" 6 99 1.0 1.0
	head -c 8192 /dev/urandom >"$RES/history.sqlite"
	sum=$(sha256sum <"$RES/history.sqlite")
	for cmd in changes ingest; do
		run --separate-stderr "$ROOT/history.sh" -o "$RES" "$cmd"
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ $stderr == "history: $RES/history.sqlite: not a usable history database"*"./history.sh rebuild recreates it"* ]]
	done
	[ "$(sha256sum <"$RES/history.sqlite")" = "$sum" ]
	run --separate-stderr "$ROOT/history.sh" -o "$RES" rebuild
	[ "$status" -eq 0 ]
	[ "$(db 'SELECT count(*) FROM runs')" -eq 6 ]
	db 'PRAGMA user_version = 7'
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes
	assert_one_line_error
	[[ $stderr == *"schema version 7, this mmdelta reads version 1; ./history.sh rebuild"* ]]
	rm "$RES/history.sqlite"
	sqlite3 "$RES/history.sqlite" 'CREATE TABLE t (x)'
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes
	assert_one_line_error
	[[ $stderr == *"not an mmdelta history database (another SQLite file); ./history.sh rebuild"* ]]
}

@test "a partial run is refused in one line and nothing is written" {
	fake_series "$RES" 4 99 1.0 1.0
	"$ROOT/history.sh" -o "$RES" ingest 2>/dev/null
	before=$(db_dump)
	mv "$RES/night-04" "$RES/.late.partial"
	sed -i 's/^status: complete$/status: interrupted/' "$RES/.late.partial/meta"
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest late
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ $stderr == *".late.partial: partial run (status: interrupted); only complete runs are recorded" ]]
	# named with others: still nothing written
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest night-01 "$RES/.late.partial"
	[ "$status" -eq 2 ]
	[ "$(db_dump)" = "$before" ]
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest nosuch
	assert_one_line_error
	[[ $stderr == "history: no run 'nosuch' (not in $RES/ and not a directory)" ]]
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest night-1
	assert_one_line_error
	[[ $stderr == "history: no run 'night-1' (not in $RES/ and not a directory; did you mean night-01?)" ]]
}

@test "changes: the planted step, between the right runs, with its size and p" {
	fake_series "$RES" 24 17 1.0 1.08
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --format json
	[ "$status" -eq 0 ]
	[ "$(jq '.changes | length' <<<"$output")" -eq 1 ]
	jq -e '.changes[0] | .bench == "timedmunlock" and .metric == "elapsed" and .param == "-"
		and .last_before == "night-16" and .first_after == "night-17" and .regression == true
		and .runs_before == 16 and .runs_after == 8 and .p_value < 1e-6 and .newest_level == true' <<<"$output"
	# the means are the runs' means: independent arithmetic over samples.tsv
	want=$(for i in $(seq -w 1 16); do awk -F'\t' '$1 == "elapsed" { s += $4; n++ } END { print s / n }' \
		"$RES/night-$i/timedmunlock/samples.tsv"; done | awk '{ s += $1 } END { printf "%.6f", s / NR }')
	[ "$(jq -r '.changes[0].before_mean * 1e6 | round / 1e6' <<<"$output" | xargs printf '%.6f')" = "$want" ]
	# lower is better: 8% slower is about -7.4% (positive = better, of the before mean)
	jq -e '.changes[0] | .pct < -6 and .pct > -10 and (.pct - (-(.after_mean - .before_mean) * 100 / .before_mean) | fabs) < 1e-9' <<<"$output"
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes
	[[ ${lines[0]} == "timedmunlock elapsed on labhost: night-16 -> night-17: "*": regression, the newest level" ]]
	[[ ${lines[1]} == "  kernels: 6.1.0-16 -> 6.1.0-17" ]]
}

@test "changes --gate: exit 1 only when the newest level is a regression larger than PCT" {
	fake_series "$RES" 24 17 1.0 1.08
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 5
	[ "$status" -eq 1 ]
	[[ $output == *"gate: timedmunlock elapsed on labhost: REGRESSION ("*"%, gate 5%, p="* ]]
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 10
	[ "$status" -eq 0 ]
	[[ $output == *"gate: pass"* ]]
	# --since a run after the step: nothing to report, nothing to gate
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 5 --since night-20
	[ "$status" -eq 0 ]
	# an improvement in the newest level passes
	rm -rf "$RES"/night-* "$RES/history.sqlite"
	fake_series "$RES" 24 17 1.0 0.9
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 5 --format json
	[ "$status" -eq 0 ]
	jq -e '.changes[0].regression == false and .changes[0].pct > 9' <<<"$output"
}

@test "changes --gate with nothing to judge is inconclusive (exit 3), says how many runs are missing, creates nothing" {
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 5
	[ "$status" -eq 3 ]
	[[ $output == *"gate: inconclusive (no series in the history to judge; a change point needs 6 runs of a series)"* ]]
	[[ $output != *"gate: pass"* ]]
	[ -z "$(ls -A "$RES")" ]
	fake_series "$RES" 3 99 1.0 1.0
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 5
	[ "$status" -eq 3 ]
	[[ $output == *"gate: timedmunlock elapsed on labhost: inconclusive (3 runs, a change point needs 6; 3 more)"* ]]
	[[ $output != *"gate: pass"* ]]
	[ ! -e "$RES/history.sqlite" ]
	# --min-segment 2: 4 runs make two levels; the third run is one short
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 5 --min-segment 2
	[[ $output == *"(3 runs, a change point needs 4; 1 more)"* ]]
	# a regression elsewhere still fails (1 is worse than 3)
	fake_runs "$RES" 1 24 17 1.0 1.08 >/dev/null
	sed -i 's/^hostname: labhost$/hostname: other/' "$RES"/night-0[4-9]/meta "$RES"/night-[12]?/meta
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 5
	[ "$status" -eq 1 ]
	[[ $output == *"gate: timedmunlock elapsed on other: REGRESSION"* ]]
	[[ $output == *"gate: timedmunlock elapsed on labhost: inconclusive (3 runs"* ]]
}

@test "no alert for one level or a single spike" {
	fake_series "$RES" 30 15 1.0 1.0
	fake_runs "$RES" 15 15 0 1.3 1.3
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 1 --format json
	[ "$status" -eq 0 ]
	[ "$(jq '.changes | length' <<<"$output")" -eq 0 ]
	# the spike is listed, set aside, and is no alert
	jq -e '[.outliers[].run] == ["night-15"]' <<<"$output"
}

@test "one bad night does not hide a step: it is set aside and listed, the step found" {
	fake_series "$RES" 40 25 1.0 1.08
	fake_runs "$RES" 10 10 0 1.3 1.3	# night 10 alone 30% slow
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --format json
	[ "$status" -eq 0 ]
	jq -e '.changes | length == 1' <<<"$output"
	jq -e '.changes[0] | .last_before == "night-24" and .first_after == "night-25" and .regression
		and .runs_before == 23 and .runs_after == 16' <<<"$output"
	jq -e '.outliers | length == 1' <<<"$output"
	jq -e '.outliers[0] | .run == "night-10" and .metric == "elapsed" and .pct > 25 and .pct < 35' <<<"$output"
	# the level before the step is the mean of its runs but night 10
	want=$(for i in $(seq -w 1 24); do [ "$i" = 10 ] || awk -F'\t' '$1 == "elapsed" { s += $4; n++ } END { print s / n }' \
		"$RES/night-$i/timedmunlock/samples.tsv"; done | awk '{ s += $1 } END { printf "%.6f", s / NR }')
	[ "$(jq -r '.changes[0].before_mean' <<<"$output" | xargs printf '%.6f')" = "$want" ]
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 5
	[ "$status" -eq 1 ]
	[[ ${lines[2]} == "timedmunlock elapsed on labhost: night-10 set aside, an outlier: "*" s, +"*"% off its level ("*" s)" ]]
	[[ $output == *"history: 1 change point in 2 series over 40 runs; 1 outlier set aside"* ]]
}

@test "by default no single run is a level of its own: tonight's spike is no alert" {
	# three runs a side at least (--min-segment 3): a spike in the newest run
	# alone would be a change point and a regression at any gate
	fake_series "$RES" 30 99 1.0 1.0
	fake_runs "$RES" 30 30 0 1.3 1.3
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --gate 5 --format json
	[ "$status" -eq 0 ]
	[ "$(jq '.changes | length' <<<"$output")" -eq 0 ]
}

@test "by default a change point needs p <= 0.001 over all the places it could be" {
	# a 1% step after 12 of 24 runs: p = 2.6e-4 at the best place, of the
	# 19 with 3 runs a side, so 5e-3 for the search; kept at --pvalue 0.05
	fake_series "$RES" 24 13 1.0 1.010
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --format json
	[ "$status" -eq 0 ]
	[ "$(jq '.changes | length' <<<"$output")" -eq 0 ]
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --pvalue 0.05 --format json
	[ "$status" -eq 0 ]
	jq -e '.changes | length == 1 and (.[0] | .last_before == "night-12"
		and .p_value * 19 > 0.001 and .p_value * 19 < 0.05)' <<<"$output"
}

@test "runs of another config are another series, and the output says so" {
	fake_series "$RES" 12 99 1.0 1.0
	for i in 10 11 12; do sed -i 's/^SIZE=1G$/SIZE=2G/' "$RES/night-$i/timedmunlock/config"; done
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --metric elapsed --format json
	[ "$status" -eq 0 ]
	[[ $stderr == *"timedmunlock on labhost ran with 2 configs, kept as separate series (SIZE=1G | SIZE=2G)"* ]]
	[ "$(jq '.series' <<<"$output")" -eq 2 ]
}

@test "--order-by a meta key orders the runs by it, as versions" {
	# start times reversed: by time the step is a fall, by kernel a rise
	FAKE_DT=-86400 fake_series "$RES" 24 17 1.0 1.08
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --format json --order-by kernel_version
	[ "$status" -eq 0 ]
	jq -e '.changes[0] | .last_before == "night-16" and .first_after == "night-17" and .regression' <<<"$output"
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --format json
	jq -e '.changes[0] | .last_before == "night-17" and .first_after == "night-16" and (.regression | not)' <<<"$output"
}

@test "a change between two --kernel runs prints the bisect.sh command line" {
	fake_series "$RES" 12 7 1.0 1.02 /srv/kernels/vmlinuz
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "timedmunlock elapsed on icount, qemu 7.2.0: night-06 -> night-07: "* ]]
	[[ ${lines[1]} == "  bisect: ./bisect.sh timedmunlock /srv/kernels/vmlinuz-6 /srv/kernels/vmlinuz-7" ]]
	# icount runs are exact: the 2% step is certain
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes --format json
	jq -e '.changes[0] | .p_value == 0 and .bisect == "./bisect.sh timedmunlock /srv/kernels/vmlinuz-6 /srv/kernels/vmlinuz-7"' <<<"$output"
	"$ROOT/history.sh" -o "$RES" ingest 2>/dev/null
	[ "$(db "SELECT DISTINCT clock || ' ' || host || ' ' || qemu_version FROM runs")" = "icount builder 7.2.0" ]
}

@test "the bisect.sh command carries the series' --set values" {
	fake_series "$RES" 12 7 1.0 1.02 /srv/kernels/vmlinuz
	sed -i 's|^command: ./run.sh -n \(.*\) timedmunlock$|command: ./run.sh -n \1 --kernel /srv/kernels/vmlinuz --set SIZE=1G --set timedmunlock.THP=never timedmunlock|' "$RES"/night-*/meta
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes
	[ "$status" -eq 0 ]
	[[ ${lines[1]} == "  bisect: ./bisect.sh --set SIZE=1G --set timedmunlock.THP=never timedmunlock /srv/kernels/vmlinuz-6 /srv/kernels/vmlinuz-7" ]]
}

@test "bad input: one line and exit 2" {
	fake_series "$RES" 6 99 1.0 1.0
	"$ROOT/history.sh" -o "$RES" ingest 2>/dev/null
	for args in "changes --format xml" "changes --gate x" "changes --since nosuch" "changes --bench nosuch" \
		"changes --min-segment 1" "bogus" "rebuild extra" "html" "--bogus changes"; do
		# shellcheck disable=SC2086  # the words are the arguments
		run --separate-stderr "$ROOT/history.sh" -o "$RES" $args
		[ "$status" -eq 2 ] || { echo "$args: status $status"; return 1; }
		assert_one_line_error
	done
	run --separate-stderr "$ROOT/history.sh" -o "$RES/nosuch" changes
	assert_one_line_error
	[[ $stderr == "history: results directory $RES/nosuch does not exist (-o DIR or MMDELTA_RESULTS)" ]]
}

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

@test "a normal user reads root's history; a permission problem says permission, never rebuild" {
	[ "$(id -u)" -eq 0 ] || skip "needs root, to make the history nobody then reads"
	command -v setpriv >/dev/null || skip "no setpriv"
	as_nobody test -x "$ROOT/history.sh" || skip "nobody cannot read this tree ($ROOT)"
	chmod 755 "$RES"
	fake_series "$RES" 24 17 1.0 1.08
	"$ROOT/history.sh" -o "$RES" ingest 2>/dev/null
	want=$("$ROOT/history.sh" -o "$RES" changes --format json)
	sum=$(results_digest)
	# beside SQLite's -shm that root's reader left, and with none (as the
	# last writer leaves it), which nobody may not create
	run --separate-stderr as_nobody "$ROOT/history.sh" -o "$RES" changes --format json
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	rm -f "$RES"/history.sqlite-*
	sum=$(results_digest)
	run --separate-stderr as_nobody "$ROOT/history.sh" -o "$RES" changes --format json
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	[ "$(results_digest)" = "$sum" ]
	# writing is refused as what it is
	run --separate-stderr as_nobody "$ROOT/history.sh" -o "$RES" ingest night-01
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ $stderr == "history: $RES/history.sqlite: permission denied: this user may not write it"* ]]
	chmod 600 "$RES/history.sqlite"
	run --separate-stderr as_nobody "$ROOT/history.sh" -o "$RES" changes
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ $stderr == "history: $RES/history.sqlite: permission denied: this user may not read it"* ]]
	[ "$(results_digest)" = "$sum" ]
}

@test "ingest that could read no run ends non-zero, the database missing or not" {
	fake_series "$RES" 3 99 1.0 1.0
	for d in "$RES"/night-*; do sed -i '/^start_time: /d' "$d/meta"; done
	for _ in first again; do
		run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest
		[ "$status" -eq 2 ]
		[ "$(grep -c 'no start_time line; left out$' <<<"$stderr")" -eq 3 ]
		[[ $stderr == *"history: 0 runs of $RES recorded; 3 could not be read, left out"* ]]
	done
	[ "$(db 'SELECT count(*) FROM runs')" -eq 0 ]
}

@test "ingest as a user who may not read the runs: each is named, exit non-zero" {
	[ "$(id -u)" -eq 0 ] || skip "needs root, to make runs nobody cannot read"
	command -v setpriv >/dev/null || skip "no setpriv"
	as_nobody test -x "$ROOT/history.sh" || skip "nobody cannot read this tree ($ROOT)"
	chmod 777 "$RES"
	fake_series "$RES" 3 99 1.0 1.0
	chmod 600 "$RES"/night-*/timedmunlock/samples.tsv
	run --separate-stderr as_nobody "$ROOT/history.sh" -o "$RES" ingest
	[ "$status" -eq 2 ]
	[ "$(grep -c 'samples.tsv: Permission denied; left out$' <<<"$stderr")" -eq 3 ]
	[[ $stderr == *"0 runs of $RES recorded; 3 could not be read, left out"* ]]
}

# A lock held by another process (here the sqlite3 program, mid-transaction):
# the writer waits MMDELTA_HISTORY_WAIT seconds, then says busy, never damage.
@test "a database held by another process is waited for, then called busy, never damaged" {
	fake_series "$RES" 6 99 1.0 1.0
	"$ROOT/history.sh" -o "$RES" ingest 2>/dev/null
	fake_runs "$RES" 7 7 99 1.0 1.0
	mkfifo "$BATS_TEST_TMPDIR/held" "$BATS_TEST_TMPDIR/release"
	printf 'BEGIN IMMEDIATE;\n.print held\n.shell timeout 60 cat %s >/dev/null\nCOMMIT;\n' "$BATS_TEST_TMPDIR/release" |
		sqlite3 -batch "$RES/history.sqlite" >"$BATS_TEST_TMPDIR/held" &
	holder=$!
	read -r line <"$BATS_TEST_TMPDIR/held"
	[ "$line" = held ]
	run --separate-stderr env MMDELTA_HISTORY_WAIT=1 "$ROOT/history.sh" -o "$RES" ingest night-07
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ $stderr == "history: $RES/history.sqlite: busy: another process held it for more than 1 s (database is locked); nothing was changed, try again" ]]
	# a reader does not wait for the writer
	run --separate-stderr "$ROOT/history.sh" -o "$RES" changes
	[ "$status" -eq 0 ]
	echo go >"$BATS_TEST_TMPDIR/release"
	wait "$holder"
	[ "$(db 'SELECT count(*) FROM runs')" -eq 6 ]
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest night-07
	[ "$status" -eq 0 ]
	[ "$(db 'SELECT count(*) FROM runs')" -eq 7 ]
}
