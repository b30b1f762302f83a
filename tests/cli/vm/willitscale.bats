#!/usr/bin/env bats
# A will-it-scale test under icount: two boots of one Debian 6.12 cloud
# kernel, in parallel (icount figures do not depend on host load), each
# running page_fault1 twice in one process at a time.  A fixed number of
# loops in a region from the tasks' release to the end of their work is
# the same work in every boot, so the two boots' figures are the same to
# the last digit; the insns monitor counts the region and accounts for it.
# Within one boot the iterations differ by the kernel's own state (the
# allocator's lists, the tick's phase: docs/vm.md), about 1e-4 here.

bats_require_minimum_version 1.5.0
load ../helpers

# A generous timeout: two boots at once on a machine busy with other work
# took longer than the default (420 s) here.
ARGS=(--vm-clock icount --vm-timeout 2400 -i 2 --set WARMUP=0 --set TASKS=1 --set LOOPS=1 --monitors insns will-it-scale-page_fault1)

setup_file() {
	local img b
	debian_kernels
	make -s -C "$ROOT" all static
	img=$(awk -F'\t' '$1 == "6.12.117+deb12-cloud-amd64" { print $2 }' <<<"$KERNELS")
	[ -n "$img" ] || img=$(grep '^6\.12\.' <<<"$KERNELS" | head -n 1 | cut -f2)
	W_RES=$BATS_FILE_TMPDIR/results
	export W_RES
	for b in a b; do
		"$ROOT/run.sh" --kernel "$img" -o "$W_RES" -n "$b" "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/$b.err" &
	done
	wait
}

setup() { common_setup; }
teardown() { common_teardown; }

# Boot B's values of METRIC, one per iteration.
figures() { awk -F'\t' -v m="$2" '$1 == m { print $4 }' "$W_RES/$1/willitscale/samples.tsv"; }

@test "both boots complete, the bench settled, the region counted by the insns monitor" {
	tail -n 3 "$BATS_FILE_TMPDIR"/*.err
	local b
	for b in a b; do
		[ "$(figures "$b" ns_per_op | wc -l)" -eq 2 ]
		grep -q '^command: .* --settle$' "$W_RES/$b/willitscale/config"
		[ "$(figures "$b" insns_total | wc -l)" -eq 2 ]
		grep -q 'insns: 2 processes profiled; 2 regions against their elapsed: all reconcile' "$BATS_FILE_TMPDIR/$b.err"
	done
}

@test "two boots give page_fault1's figures to the last digit" {
	local m
	for m in ns_per_op per_process_ops elapsed insns_total minor_faults; do
		echo "$m: a $(figures a "$m" | paste -sd' '), b $(figures b "$m" | paste -sd' ')"
		[ "$(figures a "$m")" = "$(figures b "$m")" ]
	done
	# one loop of 128 MiB: 32768 pages a task, whatever the page size faulted
	awk -v r="$(figures a per_process_ops | head -n 1)" -v e="$(figures a elapsed | head -n 1)" \
		'BEGIN { exit !(r * e > 32767.99 && r * e < 32768.01) }'
}
