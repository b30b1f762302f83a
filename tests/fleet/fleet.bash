# Shared set-up of the slow fleet tests: two Debian kernels from the cache
# (make test-kernels) and a four-node Slurm cluster on this machine for the
# whole file, stopped by pid in teardown_file, or by its watchdog when the
# test runner itself dies.
# shellcheck shell=bash

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
CLUSTER=$ROOT/tests/fleet/cluster.sh
export ROOT
# shellcheck source=tests/kernels/debian.bash
source "$ROOT/tests/kernels/debian.bash"  # debian_kernels

# A small icount run: exact figures, about 20 s per boot here.
VM_ARGS=(--vm-clock icount -i 3 --set SIZE=128M timedmunlock)

fleet_setup_file() {
	local kernels
	command -v slurmctld >/dev/null || skip "slurm-wlm is not installed (make deps)"
	debian_kernels
	# The oldest and newest Debian 6.1 builds the cache has.
	kernels=$(grep '^6\.1\.' <<<"$KERNELS")
	A_REL=$(sed -n 1p <<<"$kernels" | cut -f1) A_IMG=$(sed -n 1p <<<"$kernels" | cut -f2)
	B_REL=$(sed -n '$p' <<<"$kernels" | cut -f1) B_IMG=$(sed -n '$p' <<<"$kernels" | cut -f2)
	[ "$A_REL" != "$B_REL" ]
	make -s -C "$ROOT" all static
	CLUSTER_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-cluster.XXXXXX")
	eval "$("$CLUSTER" start "$CLUSTER_DIR" --nodes 4 --owner $$)"
	RES=$BATS_FILE_TMPDIR/results
	export A_REL A_IMG B_REL B_IMG CLUSTER_DIR SLURM_CONF RES MMDELTA_FLEET_POLL=1
}

fleet_teardown_file() {
	[ -z "${CLUSTER_DIR:-}" ] || "$CLUSTER" stop "$CLUSTER_DIR"
	rm -rf "${CLUSTER_DIR:-}"
}

meta() { awk -v k="$2" 'index($0, k ": ") == 1 { print substr($0, length(k) + 3) }' "$1/meta"; }
