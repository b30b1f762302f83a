#!/usr/bin/env bats
# --vm-numa N: the qemu arguments that make N memory nodes (hand-computed
# sizes), and the refusals: NUMA=interleave where there are not two nodes
# (this host, or a guest without --vm-numa 2), nodes too small.  No VM
# boots here; tests/kernels/numa.bats boots one with two nodes.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	IMG=$(ls "$ROOT"/tests/cache/kernels/6.1.0-57-cloud-amd64/boot/vmlinuz-* 2>/dev/null | head -n 1) || true
}
teardown() { common_teardown; }

qemu_numa() {
	# shellcheck source=drivers/vm/qemu.sh
	source "$ROOT/drivers/vm/qemu.sh"
	VM_NUMA=$1 VM_MEM_MB=$2 VM_CPUS=1 vm_qemu_numa_args | tr '\n' ' '
}

@test "qemu gets one memory backend and node per node, the memory split evenly, the vCPU on node 0" {
	[ -z "$(qemu_numa 1 2048)" ]
	[ "$(qemu_numa 2 2048)" = "-object memory-backend-ram,id=mem0,size=1024M -numa node,nodeid=0,cpus=0-0,memdev=mem0 -object memory-backend-ram,id=mem1,size=1024M -numa node,nodeid=1,memdev=mem1 " ]
	# 1000M in three: 333 each, node 0 takes the one left over.
	[ "$(qemu_numa 3 1000)" = "-object memory-backend-ram,id=mem0,size=334M -numa node,nodeid=0,cpus=0-0,memdev=mem0 -object memory-backend-ram,id=mem1,size=333M -numa node,nodeid=1,memdev=mem1 -object memory-backend-ram,id=mem2,size=333M -numa node,nodeid=2,memdev=mem2 " ]
}

@test "NUMA=interleave is refused in one line where there are not two nodes to interleave over" {
	local nodes
	nodes=$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' | wc -l)
	if [ "$nodes" -lt 2 ]; then
		run --separate-stderr "$ROOT/run.sh" --dry-run timedmunlock-interleave
		assert_one_line_error
		[ "$stderr" = "mmdelta: configs/timedmunlock-interleave:7: NUMA=interleave: needs two NUMA nodes to interleave pages over, this machine has $nodes (under --kernel, --vm-numa 2 gives the guest two)" ]
	fi
	[ -n "$IMG" ] || skip "no Debian kernel in tests/cache (make test-kernels)"
	run --separate-stderr "$ROOT/run.sh" --dry-run --kernel "$IMG" timedmunlock-interleave
	assert_one_line_error
	[ "$stderr" = "mmdelta: configs/timedmunlock-interleave:7: NUMA=interleave: needs two NUMA nodes to interleave pages over, the guest has 1 (--vm-numa 2 gives it two)" ]
	run --separate-stderr "$ROOT/run.sh" --dry-run --kernel "$IMG" --vm-numa 2 timedmunlock-interleave
	[ "$status" -eq 0 ]
	grep -q '^command: numactl --interleave=all bench/timedmunlock ' <<<"$output"
}

@test "bad --vm-numa: not a number of nodes, nodes below 128M; one line each" {
	[ -n "$IMG" ] || skip "no Debian kernel in tests/cache (make test-kernels)"
	run --separate-stderr "$ROOT/run.sh" --dry-run --kernel "$IMG" --vm-numa 0 timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --vm-numa 0: must be a whole number of nodes > 0" ]
	run --separate-stderr "$ROOT/run.sh" --dry-run --kernel "$IMG" --vm-numa 64 timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --vm-numa 64: 2G leaves 32 MiB a node; give each at least 128M (--vm-mem)" ]
	run --separate-stderr "$ROOT/run.sh" --dry-run --vm-numa 2 timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --vm-* options need --kernel IMAGE" ]
}
