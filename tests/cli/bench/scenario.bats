#!/usr/bin/env bats
# docs/adding-a-scenario.md, followed as a newcomer would: in a copy of the
# tree, write the files its code blocks name and run its commands in order;
# the new bench must then be a scenario like any other.

bats_require_minimum_version 1.5.0
load ../helpers

# A copy of the tree with its built binaries (timestamps kept, so make
# builds only what the doc adds); no results, no caches, no .git.
setup() {
	common_setup
	TREE=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-tree.XXXXXX")
	tar -C "$ROOT" --exclude=./.git --exclude=./results --exclude=./build \
		--exclude=./tests/cache -cf - . | tar -C "$TREE" -xf -
	DOC=$ROOT/docs/adding-a-scenario.md
}

teardown() {
	rm -rf "$TREE"
	common_teardown
}

# The doc's blocks: "```LANG file=PATH" is a file to write, "```sh run" a
# step to run; both in the doc's order, as "file PATH" / "run" headers.
doc_blocks() {
	awk -v dir="$1" '
		/^```[a-z]+ file=/ { n++; out = sprintf("%s/%02d.file", dir, n)
			sub(/^.*file=/, ""); print > (dir "/" sprintf("%02d", n) ".path"); next }
		/^```sh run$/ { n++; out = sprintf("%s/%02d.run", dir, n); next }
		/^```/ { out = ""; next }
		out != "" { print > out }' "$DOC"
}

@test "adding-a-scenario.md: its steps add a bench that runs and compares like the others" {
	local blocks=$BATS_TEST_TMPDIR/blocks f
	mkdir "$blocks"
	doc_blocks "$blocks"
	[ -f "$blocks/01.path" ] || { echo "no file= blocks in the doc"; return 1; }
	cd "$TREE"
	for f in "$blocks"/*; do
		case $f in
		*.path) mkdir -p "$(dirname "$(cat "$f")")"; cp "${f%.path}.file" "$(cat "$f")" ;;
		*.run) MMDELTA_RESULTS=$RES bash -euo pipefail "$f" >"$f.out" 2>&1 ||
			{ cat "$f.out"; echo "step $f failed"; return 1; } ;;
		esac
	done
	# The bench alone: every page faulted in costs more than nothing, and the
	# two metrics agree with each other and with the size (64M of 4K pages).
	run "$TREE/build/bin/pagefault" --size 64M
	[ "$status" -eq 0 ]
	awk -F'\t' -v pages=$((64 * 1048576 / $(getconf PAGESIZE))) '
		{ v[$1] = $2 } END { exit !(v["elapsed"] > 0 &&
			(v["ns_per_page"] * pages / 1e9 - v["elapsed"]) ^ 2 < (v["elapsed"] * 1e-6) ^ 2) }' <<<"$output"
	# Its keys came from its option table: ACCESS=read became --access read.
	grep -qx 'ACCESS=read' "$RES/read/pagefault/config"
	grep -q -- '--access read' "$RES/read/pagefault/config"
	[ "$(awk -F'\t' '$1 == "elapsed"' "$RES/write/pagefault/samples.tsv" | wc -l)" -eq 3 ]
	grep -q '^status: complete' "$RES/read/meta"
	grep -q '^pagefault' "$blocks"/*.run.out
}

@test "a bench/NAME.sh's driver_args replaces the generic mapping" {
	cd "$TREE"
	mkdir -p "$BATS_TEST_TMPDIR/cfg"
	printf 'BENCH=timedmunlock\nSIZE=8M\nLOCK=mlock\n' >"$BATS_TEST_TMPDIR/cfg/t"
	printf '%s\n' 'driver_args() { bench_args_generic; printf "%s\n" --madvise nohugepage; }' \
		>bench/timedmunlock.sh
	run --separate-stderr ./run.sh --dry-run "$BATS_TEST_TMPDIR/cfg/t"
	[ "$status" -eq 0 ]
	[[ $output == *$'\ncommand: bench/timedmunlock --size 8388608 --lock mlock --madvise nohugepage --cap-size\n'* ]]
	rm bench/timedmunlock.sh
	run --separate-stderr ./run.sh --dry-run "$BATS_TEST_TMPDIR/cfg/t"
	[[ $output == *$'\ncommand: bench/timedmunlock --size 8388608 --lock mlock --madvise none --cap-size\n'* ]]
}
