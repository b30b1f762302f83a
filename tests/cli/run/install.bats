#!/usr/bin/env bats
# make install: a tree staged with DESTDIR and PREFIX runs from anywhere,
# through the links in PREFIX/bin and through a user's own link to them,
# with the binaries it carries: no sources, and make is never run.

bats_require_minimum_version 1.5.0
load ../helpers

setup_file() {
	STAGE=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-install.XXXXXX")
	export STAGE
	make -s -C "$ROOT" install DESTDIR="$STAGE/dest" PREFIX=/opt/mmd >&2
}

teardown_file() { rm -rf "$STAGE"; }

setup() {
	common_setup
	# The user's own bin: a link to the installed command, and a make that
	# records being called, ahead of the real one.
	UBIN=$BATS_TEST_TMPDIR/ubin
	mkdir -p "$UBIN" "$BATS_TEST_TMPDIR/elsewhere"
	ln -s "$STAGE/dest/opt/mmd/bin/mmdelta-run" "$UBIN/mmdelta"
	ln -s "$STAGE/dest/opt/mmd/bin/mmdelta-compare" "$UBIN/mmcompare"
	printf '#!/bin/sh\necho "make $*" >>"%s/make-called"\nexit 1\n' "$BATS_TEST_TMPDIR" >"$UBIN/make"
	chmod +x "$UBIN/make"
	export PATH="$UBIN:$PATH"
	cd "$BATS_TEST_TMPDIR/elsewhere" || return 1
}

teardown() { common_teardown; }

@test "install: the tree holds binaries, no sources or Makefile, a link per top-level script" {
	lib=$STAGE/dest/opt/mmd/lib/mmdelta
	for b in bin/timedmunlock bin/mmconfig bin/mmstat bin/mmci static/timedmunlock; do
		[ -x "$lib/$b" ] || { echo "missing $b"; return 1; }
	done
	[ -z "$(find "$STAGE/dest" -name '*.[cho]' -o -name Makefile -o -name '*.mk')" ]
	for s in "$ROOT"/{run,compare,bisect,history}.sh; do
		n=$(basename "$s" .sh)
		[ "$(readlink "$STAGE/dest/opt/mmd/bin/mmdelta-$n")" = "../lib/mmdelta/$n.sh" ]
	done
	# nothing in the text of the tree points back at the source tree
	run grep -rIl -- "$ROOT" "$STAGE/dest"
	[ "$status" -eq 1 ]
}

@test "install: --help through a user's link, from another directory" {
	run --separate-stderr mmdelta --help
	[ "$status" -eq 0 ]
	[[ $output == "usage: mmdelta "* ]]
	[[ $output == *"benches and configs: "*timedmunlock* ]]
	run --separate-stderr mmcompare --help
	[ "$status" -eq 0 ]
	[[ $output == "usage: mmcompare [options] RUN_A RUN_B"* ]]  # named as called
	run --separate-stderr "$STAGE/dest/opt/mmd/bin/mmdelta-compare" --help
	[[ $output == "usage: mmdelta-compare [options]"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/make-called" ]
}

@test "install: two real runs and a compare from another directory, make never called" {
	for n in base cand; do
		run --separate-stderr mmdelta -n "$n" -o "$RES" --ignore-load --monitors none \
			--set SIZE=8M --set WARMUP=0 -i 2 timedmunlock
		[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	done
	[ "$(awk -F'\t' '$1 == "pages" && $4 == 2048' "$RES/cand/timedmunlock/samples.tsv" | wc -l)" -eq 2 ]
	grep -qx "suite_version: $(cat "$STAGE/dest/opt/mmd/lib/mmdelta/VERSION")" "$RES/base/meta"
	run --separate-stderr mmcompare -o "$RES" base cand
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "Percentages: change against base, positive = better"* ]]
	[ "${lines[1]}" = timedmunlock ]
	[[ $output == *"Elapsed mean"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/make-called" ]
	[ ! -e results ]
}

@test "install: a broken installation names the missing binary in one line" {
	cp -R "$STAGE/dest/opt/mmd/lib/mmdelta" "$BATS_TEST_TMPDIR/broken"
	rm "$BATS_TEST_TMPDIR/broken/bin/timedmunlock"
	run --separate-stderr "$BATS_TEST_TMPDIR/broken/run.sh" -o "$RES" --set SIZE=8M timedmunlock
	assert_one_line_error
	[[ $stderr == *"bin/timedmunlock is missing from this installation"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/make-called" ]
}
