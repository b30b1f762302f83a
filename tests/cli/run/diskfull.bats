#!/usr/bin/env bats
# A full disk: a results root that fills up while a run
# writes fails the run with a message that says so, and the runs already
# there are untouched.  The results root is a 200k tmpfs, mostly filled.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	mount -t tmpfs -o size=200k tmpfs "$RES"
	mkdir -p "$RES/keep/timedmunlock"
	echo "status: complete" >"$RES/keep/meta"
	echo precious >"$RES/keep/timedmunlock/samples.tsv"
	KEPT=$(results_digest)
	# What is left is enough to start a run (meta, config) but not to finish one.
	head -c 150k /dev/zero >"$RES/filler"
}
teardown() {
	umount "$RES"
	common_teardown
}

@test "a full disk while writing results fails the run, says so, and keeps earlier runs" {
	run --separate-stderr "$ROOT/run.sh" -o "$RES" -n full --ignore-load --set SIZE=4M -i 20 timedmunlock
	[ "$status" -eq 2 ]  # could not complete: never a verdict's 1
	# which directory is full, once; no shell's raw "printf: write error"
	[ "$(grep -cxF "mmdelta: results directory $RES is full (no space left on its filesystem); the run stays partial" <<<"$stderr")" = 1 ]
	! grep -q 'write error' <<<"$stderr" || false
	[ ! -e "$RES/full" ]
	rm "$RES/filler"
	[ "$(results_digest | grep -v ' ./.full.partial/')" = "$KEPT" ]
	# The partial run's meta is whatever was last written whole, never empty.
	[ -s "$RES/.full.partial/meta" ]
	grep -q '^name: full$' "$RES/.full.partial/meta"
	grep -q '^status: failed$' "$RES/.full.partial/meta"
}
