#!/usr/bin/env bats
# The history of real runs: run.sh records every run it completes (a plain
# one, a sweep, one with the vmstat monitor), exactly as its files say, and
# rebuild gives the same database.  Read back with the sqlite3 program.

bats_require_minimum_version 1.5.0
load ../helpers

setup_file() {
	RES=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-hist.XXXXXX")
	export RES
	"$ROOT/run.sh" -n plain -o "$RES" --set SIZE=16M -i 3 timedmunlock 2>"$RES/plain.err"
	"$ROOT/run.sh" -n sweep -o "$RES" --set 'SIZE=8M 16M' -i 2 timedmunlock 2>"$RES/sweep.err"
	"$ROOT/run.sh" -n mon -o "$RES" --set SIZE=16M -i 2 --monitors vmstat,perfstat timedmunlock 2>"$RES/mon.err"
	MMDELTA_HISTORY=off "$ROOT/run.sh" -n off -o "$RES" --set SIZE=8M -i 2 timedmunlock 2>"$RES/off.err"
}

teardown_file() {
	rm -rf "$RES"
}

db() { sqlite3 -batch "$RES/history.sqlite" "$@"; }

# RUN's samples in the database are its samples.tsv's, row for row, as
# numbers: to a relative 1e-12, far finer than any figure and far coarser
# than the 16 significant digits SQLite's printf gives.  Printed to fewer
# digits, a sample on a rounding tie (274.3203125 to 9) is rounded one way
# by SQLite's printf and the other by awk's, and two equal values differ.
samples_agree() {
	db "SELECT m.name, s.param, s.iteration, printf('%.17g', s.value) FROM samples s JOIN runs r ON r.id = s.run_id
	    JOIN metrics m ON m.id = s.metric_id WHERE r.name = '$1'" | tr '|' '\t' |
		awk -F'\t' 'function abs(x) { return x < 0 ? -x : x }
			NR == FNR { db[$1 FS $2 FS $3] = $4; next }
			FNR == 1 { next }
			!(($1 FS $2 FS $3) in db) { print "not in the database: " $1, $2, $3; bad = 1; next }
			{ k = $1 FS $2 FS $3 }
			abs(db[k] - $4) > 1e-12 * abs($4) { print k ": " db[k] " in the database, " $4 " in the file"; bad = 1 }
			{ delete db[k] }
			END { for (k in db) { print "only in the database: " k; bad = 1 }; exit bad }' \
			- "$RES/$1/timedmunlock/samples.tsv"
}

@test "run.sh records each run it completes, and says so" {
	for r in plain sweep mon; do
		grep -q "^mmdelta: recorded in $RES/history.sqlite\$" "$RES/$r.err"
	done
	[ "$(db 'SELECT group_concat(name) FROM (SELECT name FROM runs ORDER BY name)')" = "mon,plain,sweep" ]
	[ "$(db "SELECT DISTINCT clock || ' ' || host || ' ' || kernel_release || ' ' || status FROM runs")" = \
		"realtime $(uname -n) $(uname -r) complete" ]
	[ "$(db "SELECT start_time FROM runs WHERE name = 'plain'")" = "$(awk '/^start_time: / { print $2 }' "$RES/plain/meta")" ]
}

@test "every sample, metric description and swept value is in the database as in the files" {
	for r in plain sweep mon; do
		samples_agree "$r"
		diff <(db "SELECT m.name, m.label, m.unit, m.direction FROM metrics m WHERE m.id IN
		            (SELECT metric_id FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = '$r')
		           ORDER BY m.position" | tr '|' '\t') \
			<(awk -F'\t' -v OFS='\t' 'NR == FNR { if (FNR > 1) seen[$1] = 1; next }
			      $1 in seen { print $1, $2, $3, $4 }' \
				"$RES/$r/timedmunlock/samples.tsv" "$RES/$r/timedmunlock/metrics.tsv")
	done
	# the monitor's counters came along
	[ "$(db "SELECT count(DISTINCT m.name) FROM samples s JOIN metrics m ON m.id = s.metric_id
	         JOIN runs r ON r.id = s.run_id WHERE r.name = 'mon' AND m.name LIKE 'vmstat_%'")" -gt 0 ]
}

@test "a sweep's values are separate points, each with its own resolved config" {
	[ "$(db "SELECT group_concat(param) FROM (SELECT p.param FROM points p JOIN runs r ON r.id = p.run_id
	         WHERE r.name = 'sweep' ORDER BY p.param)")" = "16M,8M" ]
	cfg=$(db "SELECT c.text FROM points p JOIN runs r ON r.id = p.run_id JOIN configs c ON c.id = p.config_id
	          WHERE r.name = 'sweep' AND p.param = '8M'")
	grep -q '^SIZE=8M$' <<<"$cfg"
	grep -q -- '^command: .*--size 8388608 ' <<<"$cfg"
	run ! grep -q '^ITERATIONS=' <<<"$cfg"
	# the 16M point of the sweep and the plain 16M run are one series
	[ "$(db "SELECT count(DISTINCT p.config_id) FROM points p JOIN runs r ON r.id = p.run_id
	         WHERE (r.name = 'sweep' AND p.param = '16M') OR r.name = 'plain'")" -eq 1 ]
}

@test "MMDELTA_HISTORY=off: the run is not recorded; ingest records it later" {
	grep -q '^status: complete$' "$RES/off/meta"
	run ! grep -q 'recorded in' "$RES/off.err"
	[ "$(db "SELECT count(*) FROM runs WHERE name = 'off'")" -eq 0 ]
	# a sample on a rounding tie at 9 digits, as real ns/page samples are
	# one time in a few runs (a count of ns over 2^k pages)
	sed -i '0,/^ns_per_page\t/s/^\(ns_per_page\t[^\t]*\t[^\t]*\t\).*/\1274.3203125/' "$RES/off/timedmunlock/samples.tsv"
	grep -q $'\t274.3203125$' "$RES/off/timedmunlock/samples.tsv"
	run --separate-stderr "$ROOT/history.sh" -o "$RES" ingest off
	[ "$status" -eq 0 ]
	samples_agree off
}

@test "rebuild from the run directories gives what the ingests gave" {
	dump() {
		db "SELECT name, host, start_time, clock, digest FROM runs ORDER BY name;
		    SELECT r.name, m.name, s.param, s.iteration, s.value FROM samples s JOIN runs r ON r.id = s.run_id
		      JOIN metrics m ON m.id = s.metric_id ORDER BY 1, 2, 3, 4"
	}
	"$ROOT/history.sh" -o "$RES" ingest off 2>/dev/null
	before=$(dump)
	run --separate-stderr "$ROOT/history.sh" -o "$RES" rebuild
	[ "$status" -eq 0 ]
	[ "$(dump)" = "$before" ]
}

@test "a run completes even when its history cannot be written, and says why" {
	cp "$RES/history.sqlite" "$RES/saved.sqlite"
	printf 'not a database' >"$RES/history.sqlite"
	run --separate-stderr "$ROOT/run.sh" -n late -o "$RES" --set SIZE=8M -i 1 timedmunlock
	mv "$RES/saved.sqlite" "$RES/history.sqlite"
	[ "$status" -eq 0 ]
	grep -q '^status: complete$' "$RES/late/meta"
	[[ $stderr == *"mmdelta: history not updated: "*"not a usable history database"*"(./history.sh ingest records the run later)"* ]]
}

# run.sh ... 2>&1 | head: the reader gone before run.sh says "complete".
# MMDELTA_STOP_AT stops run.sh as it starts writing results, so the pipe is
# closed at exactly that point.
@test "a run whose output pipe closes as it completes is complete, recorded, and exits 0" {
	local fifo=$BATS_TEST_TMPDIR/out pid state i rc=0
	mkfifo "$fifo"
	MMDELTA_STOP_AT='writing results' "$ROOT/run.sh" -n piped -o "$RES" --monitors none --set SIZE=8M -i 2 \
		timedmunlock >"$fifo" 2>&1 3>&- &
	pid=$!
	exec {rd}<"$fifo"
	# as long as another session's run holds the machine lock (15 min at most)
	for ((i = 0; i < 4500; i++)); do
		state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) || break
		[ "$state" != T ] || break
		sleep 0.2
	done
	[ "$state" = T ]
	exec {rd}<&-
	kill -CONT "$pid"
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ]
	grep -qx 'status: complete' "$RES/piped/meta"
	[ "$(db "SELECT count(*) FROM runs WHERE name = 'piped'")" -eq 1 ]
	# every sample of its samples.tsv, by count: their values are the other tests'
	[ "$(db "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'piped'")" -eq \
		"$(($(wc -l <"$RES/piped/timedmunlock/samples.tsv") - 1))" ]
}
