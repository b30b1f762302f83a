#!/usr/bin/env bats
# Under icount nothing of the suite runs in a bench's timed region (bench
# --settle, bench/lib/settle.h): a Debian 6.1 cloud kernel runs
# timedmunlock at 64M four times, in parallel (icount figures do not
# depend on host load): without monitors, with the default vmstat monitor,
# and without monitors from two copies of the suite with more under
# drivers/, which the guest carries in its initramfs.  Before the settle
# step the monitor put its driver's work into the region (+0.16%), and a
# larger tree moved an iteration by 2.1e-4.

bats_require_minimum_version 1.5.0
load ../helpers

ARGS=(--vm-clock icount -i 5 --set SIZE=64M --set WARMUP=0 timedmunlock)

# A copy of the suite as installed (no Makefile: the binaries at its top)
# with a file of SIZE bytes of comment that the guest unpacks and no bench
# reads.
padded_tree() {
	local tree=$BATS_FILE_TMPDIR/tree-$1
	mkdir -p "$tree/drivers/padding"
	cp -r "$ROOT"/{run.sh,libexec,configs,bench} "$tree/"
	cp -r "$ROOT"/drivers/* "$tree/drivers/"
	cp -r "$ROOT/build/bin" "$ROOT/build/static" "$tree/"
	head -c "$1" /dev/zero | tr '\0' '#' >"$tree/drivers/padding/padding.sh"
	echo "$tree"
}

setup_file() {
	local img size
	debian_kernels
	make -s -C "$ROOT" all static
	# 6.1.0-54, where the settle step was measured, or the oldest 6.1
	img=$(awk -F'\t' '$1 == "6.1.0-54-cloud-amd64" { print $2 }' <<<"$KERNELS")
	[ -n "$img" ] || img=$(grep '^6\.1\.0-' <<<"$KERNELS" | head -n 1 | cut -f2)
	S_RES=$BATS_FILE_TMPDIR/results
	export S_RES
	"$ROOT/run.sh" --kernel "$img" -o "$S_RES" -n none --monitors none "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/none.err" &
	"$ROOT/run.sh" --kernel "$img" -o "$S_RES" -n vmstat --monitors vmstat "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/vmstat.err" &
	# On 6.1.0-54 without the settle step, either size moved one
	# iteration's figure by 2.1e-4 (300000: the 4th, 1012345: the 3rd).
	for size in 300000 1012345; do
		"$(padded_tree "$size")/run.sh" --kernel "$img" -o "$S_RES" -n "padded-$size" --monitors none "${ARGS[@]}" \
			2>"$BATS_FILE_TMPDIR/padded-$size.err" &
	done
	wait
}

setup() { common_setup; }
teardown() { common_teardown; }

# A run's elapsed figures, sorted.
figures() { awk -F'\t' '$1 == "elapsed" { print $4 }' "$S_RES/$1/timedmunlock/samples.tsv" | sort -g; }

# Whether runs A and B have the same median and the same fastest iteration,
# to within 2e-5 (236 instructions at 64M).  Not bit for bit: the kernel's
# per-CPU counters fold at batch boundaries that follow from all the work
# before, the monitor's own included, which moves a figure by up to about a
# hundred instructions either way; and a periodic timer or kernel thread
# that falls in one iteration's region adds microseconds to that iteration
# alone, which neither the median nor the fastest sees.  Without the settle
# step the tree's size decided whether an iteration's region missed 2.5 µs
# of work that the others' had: that shows in the fastest.
same_figures() {
	echo "$1: $(figures "$1" | tr '\n' ' ')"
	echo "$2: $(figures "$2" | tr '\n' ' ')"
	paste <(figures "$1") <(figures "$2") | awk '
		function near(a, b) { return (a - b) / b < 2e-5 && (b - a) / b < 2e-5 }
		{ a[NR] = $1; b[NR] = $2 }
		END { m = (NR + 1) / 2; exit !(NR == 5 && near(a[1], b[1]) && near(a[m], b[m])) }'
}

@test "the four boots complete, five iterations each, every bench settled" {
	tail -n 3 "$BATS_FILE_TMPDIR"/*.err
	local r
	for r in none vmstat padded-300000 padded-1012345; do
		[ "$(awk -F'\t' '$1 == "elapsed"' "$S_RES/$r/timedmunlock/samples.tsv" | wc -l)" -eq 5 ]
		grep -q '^command: .* --settle$' "$S_RES/$r/timedmunlock/config"
	done
	grep -q '^vmstat_unevictable_pgs_munlocked' "$S_RES/vmstat/timedmunlock/samples.tsv"
}

@test "the default monitor adds nothing to the icount figure" {
	same_figures vmstat none
}

@test "files the bench does not use do not move the icount figure" {
	same_figures padded-300000 none
	same_figures padded-1012345 none
}
