#!/usr/bin/env bats
# bench/stressng: stress-ng's stressors, each config at a small op count,
# the bogo-ops and figures against stress-ng's own table, the region
# against stress-ng's timing of the stressor, a failing stressor in a run
# of several, bad input, and runs of two stress-ng versions.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	command -v stress-ng >/dev/null || skip "no stress-ng (apt-get install stress-ng)"
}
teardown() { common_teardown; }

B=$ROOT/build/bin/stressng

sample() { awk -F'\t' -v m="$2" '$1 == m { print $4 }' "$1"; }

# A few bogo-ops of each stressor, and options that keep its bogo-op small
# (stress-ng's defaults map 256 MiB a bogo-op for some): seconds a config.
small() {
	case $1 in
	brk) echo 1000 ;;
	fork|mmapmany|tlb-shootdown) echo 20 ;;
	munmap|mprotect|mmapaddr) echo 50 ;;
	userfaultfd) echo 100 ;;
	msync) echo 10 ;;
	pagemove|remap|madvise) echo 5 ;;
	mmapfork) echo 1 ;;
	*) echo 2 ;;
	esac
}
small_options() {
	case $1 in
	mmap|mremap|vm|memfd) echo "--$1-bytes=4M" ;;
	mlockmany) echo "--mlockmany-procs=2" ;;
	*) echo "--metrics" ;;
	esac
}

# STRESSOR's line in stress-ng's own metrics table, in the bench's log:
# "stress-ng: metrc: [PID] STRESSOR BOGO-OPS REAL USR SYS OPS/S ...".
table() { awk -v s="$2" '$2 == "metrc:" && $4 == s && $5 ~ /^[0-9]+$/ { print $5, $9; exit }' "$1"; }

@test "every stress-ng config runs, with the bogo-ops asked for, as stress-ng's own table counts them" {
	local c s n=0 dir ops t_ops t_rate
	for c in "$ROOT"/configs/stress-ng-*; do
		s=${c##*stress-ng-}
		run --separate-stderr "$ROOT/run.sh" -n "$s" -o "$RES" -i 1 --set WARMUP=0 --set WORKERS=1 \
			--set OPS="$(small "$s")" --set OPTIONS="$(small_options "$s")" --monitors none "$c"
		[ "$status" -eq 0 ] || { echo "$s: $stderr"; false; }
		dir=$RES/$s/stressng
		grep -q "^command: bench/stressng --stressor $s --workers 1 --ops $(small "$s") " "$dir/config"
		ops=$(sample "$dir/samples.tsv" ops)
		read -r t_ops t_rate <<<"$(table "$dir/log" "$s")"
		echo "$s: asked $(small "$s"), YAML $ops, table $t_ops at $t_rate/s; ops_per_sec $(sample "$dir/samples.tsv" ops_per_sec)"
		[ "$ops" = "$t_ops" ]
		# a stressor stops at its count; tlb-shootdown counts a round of several
		if [ "$s" = tlb-shootdown ]; then [ "$ops" -ge "$(small "$s")" ]; else [ "$ops" -eq "$(small "$s")" ]; fi
		# the robot's ops_per_sec is the table's real-time rate (2 decimals there)
		awk -v r="$(sample "$dir/samples.tsv" ops_per_sec)" -v t="$t_rate" 'BEGIN { exit !(r - t < 0.006 && t - r < 0.006) }'
		# the figure: the region over the bogo-ops, one worker
		awk -v n="$(sample "$dir/samples.tsv" ns_per_bogo_op)" -v e="$(sample "$dir/samples.tsv" elapsed)" -v o="$ops" \
			'BEGIN { exit !(e > 0 && n * o > e * 1e9 * 0.999999 && n * o < e * 1e9 * 1.000001) }'
		n=$((n + 1))
	done
	[ "$n" -eq 19 ]
}

@test "the region is the stressor's run as stress-ng times it, not stress-ng's start-up and exit" {
	local before after
	before=$(date +%s%N)
	run --separate-stderr "$B" --stressor brk --ops 20000
	after=$(date +%s%N)
	[ "$status" -eq 0 ]
	local e w
	e=$(awk -F'\t' '$1 == "elapsed" { print $2 }' <<<"$output")
	w=$(awk -F'\t' '$1 == "wall_clock_time" { print $2 }' <<<"$output")
	echo "region $e s, stress-ng's own $w s, the bench process $(((after - before) / 1000)) us"
	# inside stress-ng's own clock reads, but for their few instructions
	# (its YAML keeps 6 decimals), which also hold its idle 0 us backoff
	awk -v e="$e" -v w="$w" 'BEGIN { exit !(e > 0 && e <= w + 0.000002) }'
	# and well short of the whole process: exec, 25 libraries, stress-ng's set-up
	awk -v e="$e" -v t=$((after - before)) 'BEGIN { exit !(e * 1e9 < t - 5e6) }'
}

@test "a stressor's own figures are metrics under the robot's names, as stress-ng's own table prints them" {
	run --separate-stderr "$B" --stressor pagemove --ops 5
	[ "$status" -eq 0 ]
	local ours table
	ours=$(awk -F'\t' '$1 == "page_remaps_per_sec" { print $2 }' <<<"$output")
	# "stress-ng: metrc: [PID] pagemove 468252.05 page remaps per sec (geometic mean ...)"
	table=$(awk '$2 == "metrc:" && $4 == "pagemove" && $6 == "page" && $7 == "remaps" { print $5 }' <<<"$stderr")
	echo "bench $ours, stress-ng's table $table"
	[ -n "$table" ]
	awk -v o="$ours" -v t="$table" 'BEGIN { exit !(o - t < 0.006 && t - o < 0.006) }'
	# declared, so compare.sh labels it; one stress-ng has not printed stays in the log
	"$B" --describe | grep -qx $'page_remaps_per_sec\tPage remaps/s\tops/s\thigher'
	"$B" --describe | grep -q '^nanosecs_per_mremap_call'
}

@test "stress-ng runs without CAP_SYS_ADMIN, so madvise does not poison pages, unless --hwpoison" {
	[ "$(id -u)" -eq 0 ] || skip "a user has no CAP_SYS_ADMIN to drop"
	# stress-ng, saying what it may do (CAP_SYS_ADMIN is bit 21); with
	# NO_RUN it stops there, so that no page of this machine is poisoned
	cat >"$BATS_TEST_TMPDIR/stress-ng" <<-'EOF'
	#!/bin/bash
	for a; do
		[ "$a" = --madvise ] || continue
		awk '$1 == "CapEff:" { print "caps", $2 }' /proc/self/status >&2
		[ -z "$NO_RUN" ] || exit 1
	done
	exec stress-ng "$@"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/stress-ng"
	local caps
	run --separate-stderr "$B" --stressor madvise --ops 5 --stress-ng "$BATS_TEST_TMPDIR/stress-ng"
	[ "$status" -eq 0 ]
	caps=$(awk '$1 == "caps" { print $2 }' <<<"$stderr")
	echo "without: $caps"
	[ $((0x$caps >> 21 & 1)) -eq 0 ]
	[ $((0x$caps >> 12 & 1)) -eq 1 ] # CAP_NET_ADMIN and the rest stay
	NO_RUN=1 run --separate-stderr "$B" --stressor madvise --ops 5 --hwpoison --stress-ng "$BATS_TEST_TMPDIR/stress-ng"
	caps=$(awk '$1 == "caps" { print $2 }' <<<"$stderr")
	echo "with --hwpoison: $caps"
	[ $((0x$caps >> 21 & 1)) -eq 1 ]
}

@test "WORKERS share the bogo-ops; 50% and 100% are shares of the CPUs" {
	local n
	n=$(nproc)
	run --separate-stderr "$B" --workers 100% --check
	[ "$(sed -n '/^--workers$/{n;p}' <<<"$output")" -eq "$n" ]
	run --separate-stderr taskset -c 0 "$B" --workers 50% --check
	[ "$(sed -n '/^--workers$/{n;p}' <<<"$output")" -eq 1 ]
	run --separate-stderr "$B" --stressor brk --workers 2 --ops 1000
	[ "$status" -eq 0 ]
	# stress-ng gives each of 2 workers 500 of the 1000
	[ "$(awk -F'\t' '$1 == "ops" { print $2 }' <<<"$output")" -eq 1000 ]
	[ "$(awk -F'\t' '$1 == "workers" { print $2 }' <<<"$output")" -eq 2 ]
}

@test "a stressor that fails says so in one line naming it, and the rest of the run goes on" {
	# stress-ng, but with a mremap stressor that fails as a broken one would
	cat >"$BATS_TEST_TMPDIR/stress-ng" <<-'EOF'
	#!/bin/bash
	for a; do [ "$a" != --mremap ] || { echo "stress-ng: fail: mremap: broken" >&2; exit 2; }; done
	exec stress-ng "$@"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/stress-ng"
	printf '%s\n' BENCH=stressng "STRESSOR=mremap brk" "STRESS_NG=$BATS_TEST_TMPDIR/stress-ng" OPS=100 \
		ITERATIONS=1 WARMUP=0 >"$BATS_TEST_TMPDIR/sng"
	printf '%s\n' BENCH=willitscale TEST=brk1 LOOPS=100 ITERATIONS=1 WARMUP=0 >"$BATS_TEST_TMPDIR/wis"
	run --separate-stderr "$ROOT/run.sh" -n two -o "$RES" --monitors none "$BATS_TEST_TMPDIR/sng" "$BATS_TEST_TMPDIR/wis"
	echo "$stderr"
	[ "$status" -eq 2 ]
	[ "$(grep -c 'mremap' <<<"$stderr")" -eq 1 ]
	grep -qx 'mmdelta: stressng STRESSOR=mremap: bench failed in iteration 1: stressng: stressor mremap failed: stress-ng [0-9.]* exited with 2 (its lines are above)' <<<"$stderr"
	# brk after it, and the next bench, ran
	[ "$(awk -F'\t' '$1 == "ops" && $2 == "brk"' "$RES/.two.partial/stressng/samples.tsv" | wc -l)" -eq 1 ]
	[ "$(awk -F'\t' '$1 == "ns_per_op"' "$RES/.two.partial/willitscale/samples.tsv" | wc -l)" -eq 1 ]
	grep -q 'failed: sng$' <<<"$stderr"
}

@test "a stressor stress-ng lacks is left out in one line naming it, and the rest of the run goes on" {
	printf '%s\n' BENCH=stressng STRESSOR=mseal OPS=100 ITERATIONS=1 WARMUP=0 >"$BATS_TEST_TMPDIR/mseal"
	printf '%s\n' BENCH=willitscale TEST=brk1 LOOPS=100 ITERATIONS=1 WARMUP=0 >"$BATS_TEST_TMPDIR/wis"
	run --separate-stderr "$ROOT/run.sh" -n two -o "$RES" --monitors none "$BATS_TEST_TMPDIR/mseal" "$BATS_TEST_TMPDIR/wis"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(grep -c mseal <<<"$stderr")" -eq 1 ]
	grep -q 'mseal: --stressor mseal: stress-ng [0-9.]* has no such stressor .*; left out$' <<<"$stderr"
	[ ! -e "$RES/two/stressng" ]
	[ "$(awk -F'\t' '$1 == "ns_per_op"' "$RES/two/willitscale/samples.tsv" | wc -l)" -eq 1 ]
	# in a sweep, the stressors around it run
	printf '%s\n' BENCH=stressng "STRESSOR=brk mseal fork" OPS=100 ITERATIONS=1 WARMUP=0 >"$BATS_TEST_TMPDIR/sweep"
	run --separate-stderr "$ROOT/run.sh" -n sweep -o "$RES" --monitors none "$BATS_TEST_TMPDIR/sweep"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(grep -c mseal <<<"$stderr")" -eq 1 ]
	[ "$(awk -F'\t' '$1 == "ops" { print $2 }' "$RES/sweep/stressng/samples.tsv" | paste -sd' ')" = "brk fork" ]
}

@test "a stressor stress-ng lacks, bad workers and ops, no stress-ng: one line, no run directory" {
	local set
	for set in STRESSOR=nosuch STRESSOR=mmap_ WORKERS=0 WORKERS=4097 OPS=0 STRESS_NG=/nonexistent/stress-ng \
		OPTIONS=mremap-bytes=4M; do
		run --separate-stderr "$ROOT/run.sh" -n bad -o "$RES" --set "$set" stress-ng-mremap
		echo "$set: $stderr"
		assert_one_line_error
		[ ! -e "$RES/bad" ] && [ ! -e "$RES/.bad.partial" ]
	done
	run --separate-stderr "$ROOT/run.sh" -n bad -o "$RES" --set STRESSOR=nosuch stress-ng-mremap
	[[ $stderr == *"nosuch: stress-ng $(stress-ng --version | awk '{ print $3 }') has no such stressor"* ]]
	# a guest gets the host's stress-ng: none on the host, none in the guest, refused before a boot
	local img
	img=$(find "$ROOT/tests/cache/kernels/" -name 'vmlinuz-*' 2>/dev/null | head -n 1)
	[ -n "$img" ] || skip "no cached kernel (tests/kernels/fetch-debian-kernels.sh)"
	run --separate-stderr "$ROOT/run.sh" -n bad -o "$RES" --kernel "$img" --set STRESS_NG=/nonexistent/stress-ng \
		stress-ng-mremap
	assert_one_line_error
	[[ $stderr == *"stress-ng not found (/nonexistent/stress-ng)"* ]]
	[ ! -e "$RES/bad" ] && [ ! -e "$RES/.bad.partial" ]
}

@test "meta records stress-ng's version, and compare.sh refuses runs of two versions" {
	run --separate-stderr "$ROOT/run.sh" -n a -o "$RES" -i 2 --set WARMUP=0 --set WORKERS=1 --set OPS=200 \
		--monitors none stress-ng-brk
	[ "$status" -eq 0 ]
	grep -qx "wrapped_stress-ng: $(stress-ng --version | awk '{ print $3 }')" "$RES/a/meta"
	cp -a "$RES/a" "$RES/b"
	run --separate-stderr "$ROOT/compare.sh" -o "$RES" a b
	[ "$status" -eq 0 ]
	sed -i 's/^wrapped_stress-ng: .*/wrapped_stress-ng: 0.99.01/' "$RES/b/meta"
	run --separate-stderr "$ROOT/compare.sh" -o "$RES" a b
	assert_one_line_error
	[[ $stderr == *"two stress-ng versions ($(stress-ng --version | awk '{ print $3 }'), 0.99.01) do not compare"* ]]
}
