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

@test "install: the tree holds binaries, no sources or Makefile; every front door a command and a man page" {
	lib=$STAGE/dest/opt/mmd/lib/mmdelta
	for b in bin/timedmunlock bin/mmconfig bin/mmstat bin/mmci static/timedmunlock; do
		[ -x "$lib/$b" ] || { echo "missing $b"; return 1; }
	done
	[ -z "$(find "$STAGE/dest" -name '*.[cho]' -o -name Makefile -o -name '*.mk')" ]
	# every top-level script is a front door: a new one is installed or this fails
	for s in "$ROOT"/*.sh; do
		n=$(basename "$s" .sh)
		[ "$(readlink "$STAGE/dest/opt/mmd/bin/mmdelta-$n")" = "../lib/mmdelta/$n.sh" ] || { echo "no mmdelta-$n"; return 1; }
		[ -s "$STAGE/dest/opt/mmd/share/man/man1/mmdelta-$n.1" ] || { echo "no man page mmdelta-$n.1"; return 1; }
	done
	[ "$(ls "$ROOT"/*.sh | wc -l)" -eq 5 ]
	# nothing in the text of the tree points back at the source tree
	run grep -rIl -- "$ROOT" "$STAGE/dest"
	[ "$status" -eq 1 ]
}

@test "install: --help through a user's link, from another directory" {
	run --separate-stderr mmdelta --help
	[ "$status" -eq 0 ]
	[[ $output == "Usage: mmdelta "* ]]
	[[ $output == *"benches and configs: "*timedmunlock* ]]
	run --separate-stderr mmcompare --help
	[ "$status" -eq 0 ]
	[[ $output == "Usage: mmcompare [options] RUN_A RUN_B"* ]]  # named as called
	run --separate-stderr "$STAGE/dest/opt/mmd/bin/mmdelta-compare" --help
	[[ $output == "Usage: mmdelta-compare [options]"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/make-called" ]
}

@test "install: --version is the VERSION make install wrote; in a checkout, git describe" {
	local v
	v=$(cat "$STAGE/dest/opt/mmd/lib/mmdelta/VERSION")
	[ -n "$v" ] && [ "$v" != unknown ]
	run --separate-stderr mmdelta --version
	[ "$status" -eq 0 ]
	[ "$output" = "mmdelta (mmdelta) $v" ]
	for n in compare bisect series history; do
		run --separate-stderr "$STAGE/dest/opt/mmd/bin/mmdelta-$n" --version
		[ "$status" -eq 0 ] && [ "$output" = "mmdelta-$n (mmdelta) $v" ]
	done
	git -C "$ROOT" rev-parse 2>/dev/null || skip "not a git checkout"
	run --separate-stderr "$ROOT/series.sh" --version
	[ "$status" -eq 0 ]
	[ "$output" = "series.sh (mmdelta) $(git -C "$ROOT" describe --always --dirty)" ]
	[ ! -e "$BATS_TEST_TMPDIR/make-called" ]
}

# A man page read as man shows it: no hyphenation or justification, so an
# option is one word wherever it falls.
man_page() { MANWIDTH=200 man --no-hyphenation --no-justification -l "$STAGE/dest/opt/mmd/share/man/man1/mmdelta-$1.1"; }

@test "install: each man page has its sections, every option of --help, the exit status and the version" {
	command -v man >/dev/null || skip "no man (make deps installs man-db)"
	local n page v
	v=$(cat "$STAGE/dest/opt/mmd/lib/mmdelta/VERSION")
	for n in run compare bisect series history; do
		page=$(man_page "$n")
		[ "$(grep -E '^[A-Z][A-Z ]+$' <<<"$page" | paste -sd,)" = "NAME,SYNOPSIS,DESCRIPTION,EXIT STATUS,SEE ALSO" ] ||
			{ echo "mmdelta-$n.1: sections $(grep -E '^[A-Z][A-Z ]+$' <<<"$page" | paste -sd,)"; return 1; }
		grep -Eq "^ +mmdelta-$n - [a-z]" <<<"$page"
		grep -Eq "^ +mmdelta-$n \\[" <<<"$page"  # the synopsis, from Usage:
		# the options --help lists, each in the page
		run comm -23 <("$STAGE/dest/opt/mmd/bin/mmdelta-$n" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u) \
			<(grep -oE -- '--[a-z][a-z-]*' <<<"$page" | sort -u)
		[ -z "$output" ] || { echo "mmdelta-$n.1 lacks: $output"; return 1; }
		grep -Eq '^ +1 +REGRESSION' <<<"$page" && grep -Eq '^ +2 +bad input' <<<"$page"
		grep -Eq "^mmdelta $v " <<<"$page"
	done
}

@test "install: two real runs and a compare from another directory, make never called" {
	for n in base cand; do
		run --separate-stderr mmdelta -n "$n" -o "$RES" --ignore-load --monitors none \
			--set SIZE=8M --set WARMUP=0 -i 2 timedmunlock
		[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	done
	[ "$(awk -F'\t' '$1 == "pages" && $4 == 2048' "$RES/cand/timedmunlock/samples.tsv" | wc -l)" -eq 2 ]
	grep -qx "suite_version: $(cat "$STAGE/dest/opt/mmd/lib/mmdelta/VERSION")" "$RES/base/meta"
	run --separate-stderr mmcompare -o "$RES" --all-metrics base cand
	[ "$status" -eq 0 ]
	# what changed first (natively, by noise or not), then every table
	[[ ${lines[0]} == "What changed by 0.1% or more, cand against base "* || ${lines[0]} == "Nothing changed by 0.1% or more, cand against base "* ]]
	grep -qx timedmunlock <<<"$output"
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
