#!/usr/bin/env bats
# A node dies while its job runs: its slurmd and every process of the job
# are killed (SIGKILL), as a power loss would.  Slurm marks the node down,
# requeues the job, and it runs again on another node; the dead attempt's
# partial run is recognised by its job id and replaced.  The job is an
# icount run, so the figures prove the rerun measured what a run without
# Slurm measures.

bats_require_minimum_version 1.5.0
load fleet

setup_file() {
	fleet_setup_file
	"$ROOT/run.sh" --kernel "$A_IMG" -n direct -o "$RES" "${VM_ARGS[@]}"
	local out
	out=$("$ROOT/run.sh" --slurm --kernel "$A_IMG" -n fault -o "$RES" "${VM_ARGS[@]}")
	JOB=$(cut -f1 <<<"$out")
	# Wait until the guest is booting in the job's partial run, then kill its node.
	for _ in $(seq 1 240); do
		[ ! -e "$RES/.fault.partial/vm-console.log" ] || break
		sleep 0.25
	done
	DEAD=$(squeue -h -j "$JOB" -o '%N')
	"$CLUSTER" kill-node "$CLUSTER_DIR" "$DEAD"
	local t0=$SECONDS
	"$ROOT/run.sh" -o "$RES" --slurm-wait "$JOB" >"$BATS_FILE_TMPDIR/out" 2>"$BATS_FILE_TMPDIR/err" ||
		echo $? >"$BATS_FILE_TMPDIR/rc"
	echo "# node $DEAD killed; the job was requeued and done $((SECONDS - t0)) s later:" >&3
	grep -E "job $JOB (running|requeued|ended)|completed on attempt" "$BATS_FILE_TMPDIR/err" |
		sed 's/^mmdelta: /#   /' >&3 || true
	export JOB DEAD
}

teardown_file() { fleet_teardown_file; }

@test "the job is requeued, runs again on another node and completes: one run, no partial left" {
	[ ! -e "$BATS_FILE_TMPDIR/rc" ]
	[ "$(cat "$BATS_FILE_TMPDIR/out")" = "$RES/fault" ]
	grep -q "job $JOB requeued" "$BATS_FILE_TMPDIR/err"
	grep -q "job $JOB: run fault completed on attempt 2, on node" "$BATS_FILE_TMPDIR/err"
	[ "$(meta "$RES/fault" status)" = complete ]
	[ "$(meta "$RES/fault" slurm_job_id)" = "$JOB" ]
	[ "$(meta "$RES/fault" slurm_attempt)" = 1 ]
	[ "$(meta "$RES/fault" slurm_node)" != "$DEAD" ]
	[ "$(find "$RES" -mindepth 1 -maxdepth 1 -name '*fault*' | wc -l)" = 1 ]
	grep -q "replacing $RES/.fault.partial, left by attempt 0 of this job on node $DEAD" "$RES/.fleet/$JOB.log"
}

@test "the rerun measured exactly what a run without Slurm measures" {
	cmp "$RES/fault/timedmunlock/samples.tsv" "$RES/direct/timedmunlock/samples.tsv"
}

@test "the dead node comes back and takes jobs again" {
	"$CLUSTER" start-node "$CLUSTER_DIR" "$DEAD"
	for _ in $(seq 1 60); do
		[ "$(sinfo -h -n "$DEAD" -o '%t')" != idle ] || break
		sleep 0.5
	done
	[ "$(sinfo -h -n "$DEAD" -o '%t')" = idle ]
}
