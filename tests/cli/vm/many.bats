#!/usr/bin/env bats
# Several --kernel images without --slurm (drivers/vm/many.sh): one run per
# image, up to --jobs at once, each complete or failed on its own, and the
# compare.sh line for them in the order given.  Each image's run.sh is a
# stand-in (bisect_fake_run.bash, MMDELTA_VM_RUNNER), so nothing boots;
# the real images are make test-kernels' (tests/kernels/many.bats).

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	export MMDELTA_VM_RUNNER=$ROOT/tests/cli/vm/bisect_fake_run.bash MMDELTA_HISTORY=off
	export FAKE_FIGURES=$RES/figures FAKE_CALLS=$RES/calls
	: >"$FAKE_FIGURES"
	: >"$FAKE_CALLS"
	cd "$RES"
}
teardown() { common_teardown; }

fake_image() {
	head -c 1024 /dev/zero >"$1"
	printf HdrS | dd of="$1" bs=1 seek=514 conv=notrunc 2>/dev/null
	printf '\000\001' | dd of="$1" bs=1 seek=526 conv=notrunc 2>/dev/null
	printf '%s (fake) #1\000' "${2:-${1##*/}}" | dd of="$1" bs=1 seek=768 conv=notrunc 2>/dev/null
}

# images NAME=SPEC...: fake images of release NAME with those figures.
images() {
	local kv
	for kv in "$@"; do
		fake_image "$RES/${kv%%=*}"
		printf '%s\t%s\n' "${kv%%=*}" "${kv#*=}" >>"$FAKE_FIGURES"
	done
}

several() { run --separate-stderr "$ROOT/run.sh" -o "$RES/out" "$@"; }
max_overlap() { awk '$2 > m { m = $2 } END { print m + 0 }' "$FAKE_CALLS.overlap"; }

@test "three images, one failing: two runs complete, one partial with its reason, compare line in the order given" {
	images a=10 b=noboot c=12
	# c waits until a has started: they run side by side, or c fails.
	FAKE_WAIT_FOR=a several --jobs 2 -i 3 --kernel c --kernel a --kernel b timedmunlock
	[ "$status" -eq 2 ]
	[ -f out/c/meta ] && [ -f out/a/meta ] && [ ! -e out/b ]
	[ "$(sed -n 's/^status: //p' out/.b.partial/meta)" = failed ]
	# Each run's own output is kept in its directory.
	grep -q 'Kernel panic - not syncing: fake' out/.b.partial/run.log
	[ -f out/a/run.log ] && [ -f out/c/run.log ]
	grep -qx 'mmdelta: b failed: the guest kernel panicked: Kernel panic - not syncing: fake (b)' <<<"$stderr"
	[ "${stderr_lines[-2]}" = "mmdelta: 1 of 3 runs failed: b (each left partial, its output in run.log)" ]
	[ "${stderr_lines[-1]}" = "mmdelta: compare: $ROOT/compare.sh -o $RES/out c a" ]
	# Every image ran once with the iterations asked for, never more than 2 at once.
	[ "$(sort "$FAKE_CALLS")" = "$(printf 'a a 3\nb b 3\nc c 3')" ]
	[ "$(max_overlap)" -le 2 ]
	# The runs are ordinary run directories: compare.sh reads them.
	run "$ROOT/compare.sh" -o "$RES/out" c a
	[ "$status" -eq 0 ]
}

@test "-n names the runs PREFIX-RELEASE; all complete exits 0" {
	images a=10 b=11
	FAKE_WAIT_FOR=base-a several -n base --kernel a --kernel b timedmunlock
	[ "$status" -eq 0 ]
	[ -d out/base-a ] && [ -d out/base-b ]
	[ "${stderr_lines[-1]}" = "mmdelta: compare: $ROOT/compare.sh -o $RES/out base-a base-b" ]
}

@test "the default --jobs is what memory allows: room for one 2G guest boots them one at a time" {
	images a=10 b=11 c=12
	MMDELTA_MEMAVAILABLE_MB=4096 several --kernel a --kernel b --kernel c timedmunlock
	[ "$status" -eq 0 ]
	grep -qx 'mmdelta: 3 runs, up to 1 guests at once: a b c' <<<"$stderr"
	[ "$(max_overlap)" = 1 ]
	[ "$(wc -l <"$FAKE_CALLS")" = 3 ]
}

@test "refused up front in one line: guests that do not fit, --jobs with one image, two images of one release, a taken name" {
	images a=10 b=11
	MMDELTA_MEMAVAILABLE_MB=4096 several --jobs 2 --kernel a --kernel b timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --jobs 2: 2 guests of 2G need 5120 MiB (2G + 512M of qemu each), this machine has 3072 MiB to spare (MemAvailable less 1G); at most --jobs 1" ]
	MMDELTA_MEMAVAILABLE_MB=2048 several --kernel a --kernel b timedmunlock
	assert_one_line_error
	[[ $stderr == "mmdelta: one guest of 2G needs 2560 MiB, "* ]]
	several --jobs 2 --kernel a timedmunlock
	assert_one_line_error
	[[ $stderr == *"--jobs 2: goes with several --kernel images"* ]]
	cp a a2
	several --kernel a --kernel a2 timedmunlock
	assert_one_line_error
	[[ $stderr == *"run 'a' is named twice (two images of release a)" ]]
	mkdir -p out/b
	several --kernel a --kernel b timedmunlock
	assert_one_line_error
	[[ $stderr == *"run 'b' already exists in $RES/out"* ]]
	[ ! -s "$FAKE_CALLS" ]
}
