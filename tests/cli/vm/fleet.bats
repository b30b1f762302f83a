#!/usr/bin/env bats
# run.sh --slurm on a real Slurm cluster of four nodes on this machine
# (tests/fleet/cluster.sh: slurmctld, four slurmd, a munged of its own).
# node4 lacks a package (its slurmd sees a dpkg status without numactl).
# The slow cases (kernel matrix, a node dying, K-ary bisection) are in
# tests/fleet/, run by make test-fleet.

bats_require_minimum_version 1.5.0
load ../helpers

CLUSTER=$ROOT/tests/fleet/cluster.sh
SMALL=(-i 2 --set SIZE=64M --monitors none --ignore-load timedmunlock)

setup_file() {
	command -v slurmctld >/dev/null || skip "slurm-wlm is not installed (make deps)"
	CLUSTER_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-cluster.XXXXXX")
	export CLUSTER_DIR
	eval "$("$CLUSTER" start "$CLUSTER_DIR" --nodes 4 --lacking node4:numactl --owner $$)"
	export SLURM_CONF MMDELTA_FLEET_POLL=1
}

teardown_file() {
	[ -z "${CLUSTER_DIR:-}" ] || "$CLUSTER" stop "$CLUSTER_DIR"
	rm -rf "${CLUSTER_DIR:-}"
}

setup() { common_setup; }
teardown() { common_teardown; }

meta() { awk -v k="$2" 'index($0, k ": ") == 1 { print substr($0, length(k) + 3) }' "$1/meta"; }
alive() { local s; s=$(ps -o stat= -p "$1") && [[ $s != Z* ]]; }

@test "the test cluster: every node runs jobs; stop ends every daemon it started, so does its owner's death" {
	run sinfo -h -p all -o '%D %t'
	[ "$output" = "4 idle" ]
	local id
	id=$(sbatch --parsable -p all --array=1-8 -o "$RES/%a.out" --wrap 'echo $SLURMD_NODENAME')
	for _ in $(seq 1 60); do [ -z "$(squeue -h -j "$id")" ] && break; sleep 0.5; done
	[ "$(cat "$RES"/*.out | sort -u | tr '\n' ' ')" = "node1 node2 node3 node4 " ]
	# A second cluster beside the first, stopped by pid, then one whose owner dies.
	local dir=$RES/c2 pids
	"$CLUSTER" start "$dir" --nodes 1 >/dev/null
	pids=$(cat "$dir"/run/*.pid)
	[ "$(wc -w <<<"$pids")" = 3 ]
	for p in $pids; do alive "$p"; done
	"$CLUSTER" stop "$dir"
	for p in $pids; do ! alive "$p"; done
	sleep 60 & local owner=$!
	dir=$RES/c3
	"$CLUSTER" start "$dir" --nodes 1 --owner "$owner" >/dev/null
	pids=$(cat "$dir"/run/slurmctld.pid "$dir"/run/munged.pid)
	kill "$owner"
	for _ in $(seq 1 40); do alive "${pids%%$'\n'*}" || break; sleep 0.25; done
	for p in $pids; do ! alive "$p"; done
	# The first cluster is untouched.
	run sinfo -h -p all -o '%D %t'
	[ "$output" = "4 idle" ]
}

@test "--each-node: one exclusive native run per node, named NAME-NODE; --slurm-wait follows them" {
	run --separate-stderr "$ROOT/run.sh" --slurm --each-node -o "$RES" -n nat "${SMALL[@]}"
	[ "$status" -eq 0 ]
	[ "$(cut -f2,3 <<<"$output" | tr '\t\n' ': ')" = "nat-node1:node1 nat-node2:node2 nat-node3:node3 " ]
	[[ $stderr == *"follow the jobs with: $ROOT/run.sh -o $RES --slurm-wait "* ]]
	local first
	first=$(head -n 1 <<<"$output" | cut -f1)
	run --separate-stderr "$ROOT/run.sh" -o "$RES" --slurm-wait "$first"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' "$RES/nat-node1" "$RES/nat-node2" "$RES/nat-node3")" ]
	local n id
	for n in 1 2 3; do
		[ "$(meta "$RES/nat-node$n" status)" = complete ]
		[ "$(meta "$RES/nat-node$n" slurm_node)" = "node$n" ]
		id=$(meta "$RES/nat-node$n" slurm_job_id)
		[ "$(squeue -h -t all -j "$id" -o '%N %T')" = "node$n COMPLETED" ]
		[ "$(awk -F'\t' '$1 == "elapsed"' "$RES/nat-node$n/timedmunlock/samples.tsv" | wc -l)" = 2 ]
	done
	[ -z "$(find "$RES" -maxdepth 1 -name '.*.partial')" ]
	# Native runs of different machines: compare.sh says so.
	run --separate-stderr "$ROOT/compare.sh" -o "$RES" nat-node1 nat-node2
	[ "$status" -eq 0 ]
	[[ $stderr == *"native runs of different machines"*"nat-node1: node1"*"nat-node2: node2"* ]]
}

@test "--wait: a node lacking a package and a run that fails are each named with node and log; the others finish" {
	# Without -n the runs are named after each node's release, known only
	# there: a partial run left under node2's name refuses that job only.
	local r
	r=$(uname -r)
	mkdir -p "$RES/.$r-node2.partial"
	printf 'status: interrupted\n' >"$RES/.$r-node2.partial/meta"
	run --separate-stderr "$ROOT/run.sh" --slurm --each-node --wait --slurm-opt --partition=all -o "$RES" "${SMALL[@]}"
	[ "$status" -eq 2 ]
	[ "$output" = "$(printf '%s\n' "$RES/$r-node1" "$RES/$r-node3")" ]
	grep -Eq "^mmdelta: job [0-9]+ \\($r-node2\\) failed on node node2: $RES/.$r-node2.partial is left from an unfinished run .*; log: $RES/.fleet/[0-9]+.log$" <<<"$stderr"
	grep -Eq "^mmdelta: job [0-9]+ \\($r-node4\\) failed on node node4: node node4 cannot run it: missing packages: numactl .*; log: $RES/.fleet/[0-9]+.log$" <<<"$stderr"
	local log
	log=$(grep "node4) failed" <<<"$stderr" | sed 's/.*log: //')
	grep -q 'missing packages: numactl' "$log"
	[ "$(meta "$RES/$r-node3" status)" = complete ]
	[ ! -e "$RES/$r-node4" ] && [ ! -e "$RES/.$r-node4.partial" ]
}

@test "bad input: no cluster reachable is one line naming sinfo's error (run.sh, bisect.sh), nothing written" {
	sed 's/^SlurmctldPort=.*/SlurmctldPort=1/' "$SLURM_CONF" >"$RES/dead.conf"
	SLURM_CONF=$RES/dead.conf run --separate-stderr "$ROOT/run.sh" --slurm --each-node -o "$RES/r" "${SMALL[@]}"
	assert_one_line_error
	[ "$stderr" = "mmdelta: no Slurm cluster reachable: slurm_load_partitions: Unable to contact slurm controller (connect failure)" ]
	[ ! -e "$RES/r" ]
	# the same missing cluster, the same exit: 2, a run that cannot be made
	SLURM_CONF=$RES/dead.conf run --separate-stderr "$ROOT/bisect.sh" --slurm --jobs 3 -o "$RES/r" timedmunlock a b c
	assert_one_line_error
	[ "$stderr" = "mmdelta: no Slurm cluster reachable: slurm_load_partitions: Unable to contact slurm controller (connect failure)" ]
	[ ! -e "$RES/r" ]
}

@test "bad input: --kernel twice without --slurm (runs here, each image checked), --each-node without --slurm or on an empty partition" {
	run --separate-stderr "$ROOT/run.sh" --kernel a --kernel b -o "$RES/r" timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --kernel a: no such file" ]
	run --separate-stderr "$ROOT/run.sh" --each-node -o "$RES/r" timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --each-node needs --slurm" ]
	run --separate-stderr "$ROOT/run.sh" --slurm -o "$RES/r" timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: --slurm needs --kernel IMAGE (one job per image) or --each-node (one job per node)" ]
	run --separate-stderr "$ROOT/run.sh" --slurm --each-node --slurm-opt -pempty -o "$RES/r" timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: partition 'empty' has no node that can take a job: --each-node needs at least one" ]
	run --separate-stderr "$ROOT/run.sh" -o "$RES/r" --slurm-wait 999999
	assert_one_line_error
	[[ $stderr == "mmdelta: no submission 999999 in $RES/r/.fleet "* ]]
	[ ! -e "$RES/r/.fleet" ]
}
