#!/usr/bin/env bats
# Many writers and readers of one history database at once: 32 ingests
# (every fourth through `history.sh record`, as run.sh records a run it
# completed) and 4 `changes` readers, into a root whose database exists in
# half the rounds and must be created by the racing writers in the other
# half.  Nothing may be lost and no process may say anything but progress.
# HISTORY_RACE_ROUNDS rounds (make test: 2, one of each; make test-history-race: 20).

bats_require_minimum_version 1.5.0
load ../helpers
load history_runs

setup() { common_setup; }
teardown() { common_teardown; }

WRITERS=32 READERS=4

# The lines a writer or reader may print on stderr: progress, never an error.
progress='^(history: .* recorded|history: [0-9]+ runs? of .* recorded|history: no .*history\.sqlite yet; building it from the runs there|history: no .*history\.sqlite; reading the [0-9]+ runs? there \(\./history\.sh ingest records them\)|mmdelta: recorded in .*/history\.sqlite)$'

# One round in root $1: copies c1..cWRITERS of one run, every process at once.
race_round() {
	local r=$1 pre=$2 k pids=()
	fake_series "$r" 1 99 1.0 1.0
	[ "$pre" = 0 ] || "$ROOT/history.sh" -o "$r" ingest night-01 2>/dev/null
	for ((k = 1; k <= WRITERS; k++)); do
		cp -r "$r/night-01" "$r/c$k"
		sed -i "s/^name: night-01$/name: c$k/" "$r/c$k/meta"
	done
	[ "$pre" = 1 ] || rm -r "$r/night-01"
	mkdir "$r/.err"
	for ((k = 1; k <= WRITERS; k++)); do
		if ((k % 4)); then
			"$ROOT/history.sh" -o "$r" ingest "c$k" 2>"$r/.err/w$k" &
		else
			"$ROOT/history.sh" record "$r/c$k" 2>"$r/.err/w$k" &
		fi
		pids+=($!)
	done
	for ((k = 1; k <= READERS; k++)); do
		"$ROOT/history.sh" -o "$r" changes >/dev/null 2>"$r/.err/r$k" &
		pids+=($!)
	done
	for k in "${pids[@]}"; do wait "$k" || { echo "round $r: a process exited $?"; cat "$r"/.err/*; return 1; }; done
	if grep -hEv "$progress" "$r"/.err/*; then echo "round $r: the lines above are not progress"; return 1; fi
	[ "$(sqlite3 -batch "$r/history.sqlite" "SELECT count(*) FROM runs WHERE name LIKE 'c%'")" -eq "$WRITERS" ] ||
		{ echo "round $r: $(sqlite3 -batch "$r/history.sqlite" "SELECT count(*) FROM runs WHERE name LIKE 'c%'") of $WRITERS runs recorded"; return 1; }
	[ "$(sqlite3 -batch "$r/history.sqlite" 'PRAGMA integrity_check')" = ok ]
	[ -z "$(find "$r" -maxdepth 1 -name '.history.sqlite.*')" ]
}

@test "$WRITERS ingests and $READERS readers at once, ${HISTORY_RACE_ROUNDS:-2} rounds: nothing lost, no error line" {
	for ((round = 1; round <= ${HISTORY_RACE_ROUNDS:-2}; round++)); do
		race_round "$RES/round$round" $((round % 2))
		rm -rf "$RES/round$round"
	done
}
