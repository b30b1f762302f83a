#!/usr/bin/env bats
# The end of a run: the bench's own metrics as reports/mmstat sums them up,
# one line for the monitors, and the next step.

bats_require_minimum_version 1.5.0
load ../helpers

setup() { common_setup; }
teardown() { common_teardown; }

# value LABEL: the mean a summary line prints for LABEL, in the metric's SI unit.
mean_of() {
	awk -v l="$1" '$2 == "timedmunlock" && $3 == l && $4 == "mean" {
		f["ns"] = 1e-9; f["µs"] = 1e-6; f["ms"] = 1e-3; f["s"] = 1
		u = $6; sub(/,$/, "", u); print $5 * (u in f ? f[u] : 1); exit }' <<<"$stderr"
}

@test "the end of a run: the bench's metrics, one line for monitors, the next step, ten lines at most" {
	run --separate-stderr "$ROOT/run.sh" -n s -o "$RES" -i 2 --set SIZE=256M timedmunlock
	[ "$status" -eq 0 ]
	after=$(awk '/timedmunlock \[2\/2\]/ { on = 1; next } on' <<<"$stderr")
	[ -n "$after" ] && [ "$(wc -l <<<"$after")" -le 10 ]
	run ! grep -Eq '[0-9][eE][-+]?[0-9]' <<<"$after"
	d=$RES/s/timedmunlock
	# the means are the samples' means, to the two decimals shown
	for m in elapsed:Elapsed populate_elapsed:Populate; do
		want=$(awk -F'\t' -v m="${m%%:*}" '$1 == m { s += $4; n++ } END { print s / n }' "$d/samples.tsv")
		got=$(mean_of "${m#*:}")
		awk -v w="$want" -v g="$got" 'BEGIN { exit !(g > 0 && (g - w) / w < 0.01 && (w - g) / w < 0.01) }' ||
			{ echo "${m#*:}: printed $got, samples say $want"; return 1; }
	done
	# a counter gets its mean, no spread; a time its stddev and CoeffVar
	grep -Eq '^mmdelta: timedmunlock Pages +mean 65536 \(n=2\)$' <<<"$after"
	grep -Eq '^mmdelta: timedmunlock Elapsed +mean [0-9.]+ (ns|µs|ms|s), stddev [0-9.]+ (ns|µs|ms|s), CoeffVar [0-9.]+% \(n=2\)$' <<<"$after"
	changed=$(awk -F'\t' '$1 ~ /^vmstat_/ && $4 != 0 { c[$1] = 1 } END { print length(c) }' "$d/samples.tsv")
	grep -qx "mmdelta: timedmunlock vmstat: $(wc -l </proc/vmstat) counters in samples.tsv ($changed not zero)" <<<"$after"
	grep -qx "mmdelta: complete: $RES/s" <<<"$after"
	# the next step last, after the history's line
	[ "$(tail -n 1 <<<"$after")" = "mmdelta: compare: $ROOT/compare.sh -o $RES s OTHER, once there is a run named OTHER" ]
}

@test "the next step names the latest other complete run as the baseline" {
	for n in old new; do
		run --separate-stderr "$ROOT/run.sh" -n "$n" -o "$RES" -i 1 --set WARMUP=0 --set SIZE=8M --monitors none timedmunlock
		[ "$status" -eq 0 ]
	done
	[ "$(tail -n 1 <<<"$stderr")" = "mmdelta: compare: $ROOT/compare.sh -o $RES old new" ]
}

@test "the next step names only a comparable run, the baseline first" {
	tiny=(-o "$RES" -i 1 --set WARMUP=0 --set SIZE=8M --monitors none timedmunlock)
	run --separate-stderr "$ROOT/run.sh" -n old "${tiny[@]}"
	[ "$status" -eq 0 ]
	# newer, but a guest's clock, and another bench
	cp -r "$RES/old" "$RES/vbase"
	sed -i 's/^clock: .*/clock: icount/' "$RES/vbase/meta"
	echo "vm_clock: icount" >>"$RES/vbase/meta"
	cp -r "$RES/old" "$RES/heap"
	mv "$RES/heap/timedmunlock" "$RES/heap/heaprelease"
	run --separate-stderr "$ROOT/run.sh" -n new "${tiny[@]}"
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 <<<"$stderr")" = "mmdelta: compare: $ROOT/compare.sh -o $RES old new" ]
	# after --add the extended run is the baseline
	run --separate-stderr "$ROOT/run.sh" -o "$RES" --add 1 -n old
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 <<<"$stderr")" = "mmdelta: compare: $ROOT/compare.sh -o $RES old new" ]
}

# functions FILE...: the function rows of profile tables (no # notes, no
# [user] or [unknown] pseudo-rows), their mean per file, rounded.
functions() { awk '!/^[#[]/ && NF { n++ } END { printf "%d\n", n / (ARGC - 1) + 0.5 }' "$@"; }

@test "a profiled run ends with a line per profile monitor: iterations, functions each, and compare --profile" {
	command -v perf >/dev/null || skip "no perf"
	for n in a b; do
		run --separate-stderr "$ROOT/run.sh" -n "$n" -o "$RES" -i 2 --monitors profile --set SIZE=32M timedmunlock
		[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	done
	[ -s "$RES/b/timedmunlock/monitors/profile.warmup1.self.tsv" ]  # a warm-up, not counted
	want=$(functions "$RES"/b/timedmunlock/monitors/profile.{1,2}.self.tsv)
	grep -qx "mmdelta: timedmunlock profile: 2 iterations profiled, about $want functions each (monitors/profile.TAG.self.tsv); compare.sh --profile shows where they changed" <<<"$stderr"
	[ "${stderr_lines[-1]}" = "mmdelta: compare: $ROOT/compare.sh -o $RES --profile a b" ]
	# and the command it names reads them (profile.bats checks what it shows)
	run --separate-stderr "$ROOT/compare.sh" -o "$RES" --profile a b
	[ "$status" -eq 0 ]
	[[ $stderr != *"no profile in these runs"* && $output != *"no profile in these runs"* ]]
}

@test "the insns line, the host's after a --kernel run: counted iterations, each sweep point, warm-ups left out" {
	source "$ROOT/drivers/run/result.sh"
	local d=$RES/r/timedmunlock
	mkdir -p "$d/monitors"
	cp "$ROOT"/tests/fixtures/profile/base/timedmunlock/monitors/insns.* "$d/monitors/"
	want=$(functions "$d"/monitors/insns.[12].tsv)
	[ "$(profile_recorded "$d" insns)" = "timedmunlock insns: 2 iterations profiled, about $want functions each (monitors/insns.TAG.tsv); compare.sh --profile shows where they changed" ]
	run ! profile_recorded "$d" profile
	# a sweep of two points, an --add iteration (+N), gzipped addresses beside
	rm "$d"/monitors/*
	for t in SIZE=1G.1 SIZE=1G.2 SIZE=2G.1 SIZE=2G.2 SIZE=2G.3+2 SIZE=1G.warmup1; do
		printf 'f\t10\ng\t5\n[user]\t3\n' >"$d/monitors/insns.$t.tsv"
		: >"$d/monitors/insns.$t.addr.tsv.gz"
	done
	[ "$(profile_recorded "$d" insns)" = "timedmunlock insns: 5 iterations profiled over 2 sweep points, about 2 functions each (monitors/insns.TAG.tsv); compare.sh --profile shows where they changed" ]
	run --separate-stderr profiles_said "$RES/r" insns
	[ "$stderr" = "mmdelta: $(profile_recorded "$d" insns)" ]
}
