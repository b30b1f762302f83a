#!/usr/bin/env bats
# --vm-numa 2 for real: a Debian 6.1 guest with two memory nodes, where
# timedmunlock-interleave interleaves (numactl from the initramfs) and costs
# more munlock work than timedmunlock's local node (icount: +4.7% at 256M,
# docs/vm.md), and meta says the guest had two nodes.

bats_require_minimum_version 1.5.0
load ../cli/helpers

setup_file() {
	debian_kernels
	make -s -C "$ROOT" all static
	grep '^6\.1\.0-' <<<"$KERNELS" | cut -f2 | tail -n 1 >"$BATS_FILE_TMPDIR/image"
}

setup() { common_setup; IMAGE=$(<"$BATS_FILE_TMPDIR/image"); }
teardown() { common_teardown; }

@test "two guest nodes: meta says so, and interleaving costs munlock work" {
	local args=(--kernel "$IMAGE" --vm-numa 2 -o "$RES/r" -i 2 --set SIZE=64M --set WARMUP=0 --monitors none)
	"$ROOT/run.sh" "${args[@]}" -n local timedmunlock &
	"$ROOT/run.sh" "${args[@]}" -n interleave timedmunlock-interleave
	wait $!
	[ "$(sed -n 's/^numa_nodes: //p' "$RES/r/interleave/meta")" = 2 ]
	[ "$(sed -n 's/^vm_numa: //p' "$RES/r/interleave/meta")" = 2 ]
	grep -q '^available: 2 nodes (0-1)$' "$RES/r/interleave/topology.txt"
	grep -q '^command: numactl --interleave=all ' "$RES/r/interleave/timedmunlock/config"
	run "$ROOT/compare.sh" -o "$RES/r" local interleave
	[ "$status" -eq 0 ]
	echo "# $(grep '^ns/page interleave:' <<<"$output")" >&3
	# Worse by a few percent, and significant.
	grep -Eq '^ns/page mean .* \* +-[3-6]\.[0-9]+%\*$' <<<"$output"
}
