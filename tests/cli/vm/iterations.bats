#!/usr/bin/env bats
# The count a --kernel run takes under icount (drivers/vm/resolution.sh):
# what the bench's spread in a resolution table needs to see 1%, at most
# the config's count, unless a count was asked for.  Nothing boots: --dry-run
# prints the resolved config and the rule, the image is a fake, and the
# table is the test's own (MMDELTA_RESOLUTION).  The counts are by hand from
# printed t tables: two runs of n at CV see t(0.975, 2n - 2) * CV * sqrt(2/n).

bats_require_minimum_version 1.5.0
load ../helpers

setup_file() {
	# the initramfs test stages the static builds
	make -s -C "$ROOT" static
}

setup() {
	common_setup
	fake_image "$RES/k"
	# timedmunlock exact; heaprelease spread (its primary metric, elapsed, at
	# 5e-3 in one pattern, a larger spread of another metric ignored);
	# procmunmap spread beyond its config's 5; sparsemunmap not measured.
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		timedmunlock elapsed - 2.32e-05 4e-05 identical k 5 \
		heaprelease elapsed madvise 1e-03 2e-03 identical k 5 \
		heaprelease elapsed mprotect 5e-03 9e-03 identical k 5 \
		heaprelease cs_per_sec mprotect 9e-02 2e-01 identical k 5 \
		procmunmap reader_mean - 1.74e-02 4e-02 identical k 5 >"$RES/resolution.tsv"
	export MMDELTA_RESOLUTION=$RES/resolution.tsv
}
teardown() { common_teardown; }

fake_image() {
	head -c 1024 /dev/zero >"$1"
	printf HdrS | dd of="$1" bs=1 seek=514 conv=notrunc 2>/dev/null
	printf '\000\001' | dd of="$1" bs=1 seek=526 conv=notrunc 2>/dev/null
	printf '%s (fake) #1\000' "${2:-6.12.0-fake}" | dd of="$1" bs=1 seek=768 conv=notrunc 2>/dev/null
}

dry() { run --separate-stderr "$ROOT/run.sh" --dry-run -o "$RES/out" "$@"; }
# The resolved ITERATIONS of config NAME in the dry run's output, and the rule line after it.
count() { awk -v c="# $1" '$0 ~ "^# configs/|^# /" { on = ($0 == c || $0 ~ "/" substr(c, 3) "$") } on && /^ITERATIONS=/ { print substr($0, 12) }' <<<"$output"; }
rule() { awk -v c="# $1" '$0 ~ "^# configs/|^# /" { on = ($0 == c || $0 ~ "/" substr(c, 3) "$") } on && /^# ITERATIONS=/ { print substr($0, 3) }' <<<"$output"; }

@test "an exact bench under icount: two iterations and the warm-up, the rule said" {
	dry --kernel "$RES/k" timedmunlock
	[ "$status" -eq 0 ]
	[ "$(count configs/timedmunlock)" = 2 ]
	[ "$(rule configs/timedmunlock)" = "ITERATIONS=2: exact under icount (spread 2.3e-05), the count resolution.tsv needs to see 1%" ]
	grep -qx '# 3 processes (1 warm-up + 2); .*' <<<"$output"
}

@test "a spread bench gets the longer count its primary metric's largest spread needs" {
	# n = 3: 2.776445 * 5e-3 * sqrt(2/3) = 1.133% > 1%; n = 4: 2.446912 * 5e-3 * sqrt(1/2) = 0.865%
	dry --kernel "$RES/k" heaprelease
	[ "$status" -eq 0 ]
	[ "$(count configs/heaprelease)" = 4 ]
	[ "$(rule configs/heaprelease)" = "ITERATIONS=4: spread under icount (5.0e-03 of elapsed), the count resolution.tsv needs to see 1% (4 see 0.865%)" ]
}

@test "a spread that needs more than the config's count keeps the config's, saying what it sees" {
	# 5: 2.306004 * 0.0174 * sqrt(2/5) = 2.54%; 25: 2.010635 * 0.0174 * sqrt(2/25) = 0.99%, 24: 1.011%
	dry --kernel "$RES/k" procmunmap
	[ "$status" -eq 0 ]
	[ "$(count configs/procmunmap)" = 5 ]
	[ "$(rule configs/procmunmap)" = "ITERATIONS=5: the config's; reader_mean spreads under icount (1.7e-02), so 5 see 2.54%, not 1% (25 would)" ]
}

@test "a KEY=VALUE line is its configs': stress-ng-mremap takes mremap's spread, the catalog its widest stressor's" {
	command -v stress-ng >/dev/null || skip "no stress-ng (apt-get install stress-ng)"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		stressng ns_per_bogo_op STRESSOR=mremap 2e-05 5e-05 identical k 3 \
		stressng ns_per_bogo_op STRESSOR=vm 2e-02 5e-02 identical k 3 >>"$RES/resolution.tsv"
	dry --kernel "$RES/k" stress-ng-mremap
	[ "$status" -eq 0 ]
	[ "$(count configs/stress-ng-mremap)" = 2 ]
	[ "$(rule configs/stress-ng-mremap)" = "ITERATIONS=2: exact under icount (spread 2.0e-05), the count resolution.tsv needs to see 1%" ]
	# the catalog holds vm: 3 see 2.776445 * 0.02 * sqrt(2/3) = 4.53%
	dry --kernel "$RES/k" stressng
	[ "$status" -eq 0 ]
	[ "$(count configs/stressng)" = 3 ]
	[[ "$(rule configs/stressng)" == "ITERATIONS=3: the config's; ns_per_bogo_op spreads under icount (2.0e-02), so 3 see 4.53%, not 1% "* ]]
}

@test "a bench the table has not measured keeps its config's count" {
	dry --kernel "$RES/k" sparsemunmap timedmunlock
	[ "$status" -eq 0 ]
	[ "$(count configs/sparsemunmap)" = 10 ]
	[ "$(rule configs/sparsemunmap)" = "ITERATIONS=10: the config's; resolution.tsv has no icount spread of sparsemunmap elapsed" ]
	[ "$(count configs/timedmunlock)" = 2 ]
}

@test "-i, --set ITERATIONS and a user's config that sets ITERATIONS win over the table" {
	dry --kernel "$RES/k" -i 7 timedmunlock heaprelease
	[ "$(count configs/timedmunlock)" = 7 ] && [ "$(count configs/heaprelease)" = 7 ]
	[ "$(rule configs/heaprelease)" = "ITERATIONS=7: given with -i" ]
	dry --kernel "$RES/k" --set ITERATIONS=3 timedmunlock
	[ "$(count configs/timedmunlock)" = 3 ]
	[ "$(rule configs/timedmunlock)" = "ITERATIONS=3: given with --set" ]
	# BENCH.ITERATIONS is that bench's only
	dry --kernel "$RES/k" --set heaprelease.ITERATIONS=6 timedmunlock heaprelease
	[ "$(count configs/heaprelease)" = 6 ] && [ "$(count configs/timedmunlock)" = 2 ]
	printf 'BENCH=timedmunlock\nSIZE=64M\nITERATIONS=6\n' >"$RES/mine"
	printf 'BENCH=timedmunlock\nSIZE=64M\n' >"$RES/mine-nocount"
	dry --kernel "$RES/k" "$RES/mine"
	[ "$(count mine)" = 6 ]
	[ "$(rule mine)" = "ITERATIONS=6: set in $RES/mine" ]
	# one that leaves the count out gets the table's
	dry --kernel "$RES/k" "$RES/mine-nocount"
	[ "$(count mine-nocount)" = 2 ]
}

@test "ITERATIONS=auto is the config's to keep" {
	printf 'BENCH=timedmunlock\nSIZE=64M\nITERATIONS=auto\n' >"$RES/auto"
	dry --kernel "$RES/k" "$RES/auto"
	[ "$status" -eq 0 ]
	[ "$(count auto)" = auto ]
	[[ $(rule auto) == "ITERATIONS=auto: the config's"* ]]
}

@test "no rule on the host, nor in a guest with the realtime clock: the config's 10" {
	dry timedmunlock
	[ "$status" -eq 0 ]
	[ "$(count configs/timedmunlock)" = 10 ]
	[ -z "$(rule configs/timedmunlock)" ]
	dry --kernel "$RES/k" --vm-clock realtime timedmunlock
	[ "$status" -eq 0 ]
	[ "$(count configs/timedmunlock)" = 10 ]
	[ -z "$(rule configs/timedmunlock)" ]
}

@test "several kernels: each run takes the table's count" {
	fake_image "$RES/k2" 6.12.1-fake
	dry --kernel "$RES/k" --kernel "$RES/k2" timedmunlock
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ITERATIONS=2$' <<<"$output")" -eq 2 ]
}

@test "the staged config carries the resolved count as its one ITERATIONS line" {
	local d=$BATS_TEST_TMPDIR
	export XDG_CACHE_HOME=$d/cache
	(source "$ROOT/drivers/vm/vm.sh"
	 CONFIGS=("$ROOT/configs/timedmunlock" "$ROOT/configs/heaprelease") VM_KERNEL=$RES/k VM_CLOCK=icount
	 vm_initramfs_build "$d/initramfs" timedmunlock heaprelease)
	# the run's part: the plain archive after the kept one
	base=$(stat -c %s "$d"/cache/mmdelta/initramfs/*.cpio.gz)
	mkdir "$d/x"
	(cd "$d/x" && tail -c +$((base + (4 - base % 4) % 4 + 1)) "$d/initramfs" | cpio -i --quiet -d 'vm-configs/*')
	[ "$(grep -c '^ITERATIONS=' "$d/x/vm-configs/1/timedmunlock")" -eq 1 ]
	grep -qx 'ITERATIONS=2' "$d/x/vm-configs/1/timedmunlock"
	grep -qx 'ITERATIONS=4' "$d/x/vm-configs/2/heaprelease"
	# the rest of the config as it is
	[ "$(grep -v '^ITERATIONS=' "$d/x/vm-configs/1/timedmunlock")" = "$(grep -v '^ITERATIONS=' "$ROOT/configs/timedmunlock")" ]
}

@test "mmci --iterations: the count and what it sees; bad input in one line, exit 2" {
	run --separate-stderr "$ROOT/build/bin/mmci" --iterations 0.0174 1 10
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '10\t1.63')" ]
	run --separate-stderr "$ROOT/build/bin/mmci" --iterations 1.65e-3 1 10
	[ "$output" = "$(printf '2\t0.71')" ]
	for args in "x 1 10" "0.01 0 10" "0.01 1 1" "0.01 1 2.5" "-1 1 10"; do
		# shellcheck disable=SC2086  # three words
		run --separate-stderr "$ROOT/build/bin/mmci" --iterations $args
		assert_one_line_error
	done
}
