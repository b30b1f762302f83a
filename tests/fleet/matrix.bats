#!/usr/bin/env bats
# The kernel matrix on Slurm: two Debian kernels x one small config under
# icount, as two jobs placed anywhere, against the same two runs made
# without Slurm.  icount figures are exact, so they must be equal.

bats_require_minimum_version 1.5.0
load fleet

setup_file() {
	fleet_setup_file
	local t0=$SECONDS
	"$ROOT/run.sh" --slurm --wait --kernel "$A_IMG" --kernel "$B_IMG" -o "$RES/fleet" "${VM_ARGS[@]}" \
		>"$BATS_FILE_TMPDIR/out" 2>"$BATS_FILE_TMPDIR/err" || echo $? >"$BATS_FILE_TMPDIR/rc"
	FLEET_S=$((SECONDS - t0)) t0=$SECONDS
	"$ROOT/run.sh" --kernel "$A_IMG" -o "$RES/direct" "${VM_ARGS[@]}"
	"$ROOT/run.sh" --kernel "$B_IMG" -o "$RES/direct" "${VM_ARGS[@]}"
	echo "# matrix of 2 kernels: $FLEET_S s as Slurm jobs, $((SECONDS - t0)) s one after the other without" >&3
}

teardown_file() { fleet_teardown_file; }

@test "two complete runs named after the images' releases, each made by a job" {
	[ ! -e "$BATS_FILE_TMPDIR/rc" ]
	[ "$(cat "$BATS_FILE_TMPDIR/out")" = "$(printf '%s\n' "$RES/fleet/$A_REL" "$RES/fleet/$B_REL")" ]
	local r
	for r in "$A_REL" "$B_REL"; do
		[ "$(meta "$RES/fleet/$r" status)" = complete ]
		[ "$(meta "$RES/fleet/$r" kernel_release)" = "$r" ]
		[[ $(meta "$RES/fleet/$r" slurm_job_id) =~ ^[0-9]+$ ]]
		[[ $(meta "$RES/fleet/$r" slurm_node) == node[1-4] ]]
	done
	grep -q "jobs: 0 pending, 0 running, 2 done of 2" "$BATS_FILE_TMPDIR/err"
	grep -q "compare them: .*compare.sh -o $RES/fleet $A_REL $B_REL" "$BATS_FILE_TMPDIR/err"
	[ -z "$(find "$RES/fleet" -maxdepth 1 -name '.*.partial')" ]
}

@test "the figures equal those of the same runs made without Slurm" {
	local r
	for r in "$A_REL" "$B_REL"; do
		cmp "$RES/fleet/$r/timedmunlock/samples.tsv" "$RES/direct/$r/timedmunlock/samples.tsv"
		[ "$(awk -F'\t' '$1 == "elapsed"' "$RES/direct/$r/timedmunlock/samples.tsv" | wc -l)" = 3 ]
	done
	! cmp -s "$RES/fleet/$A_REL/timedmunlock/samples.tsv" "$RES/fleet/$B_REL/timedmunlock/samples.tsv"
}

@test "-n gives the runs a prefix; --dry-run prints the sbatch commands and submits nothing" {
	run --separate-stderr "$ROOT/run.sh" --slurm --dry-run -n nightly --kernel "$A_IMG" --kernel "$B_IMG" -o "$RES/dry" "${VM_ARGS[@]}"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^sbatch ' <<<"$output")" = 2 ]
	[[ $output == *"fleet-job.sh $RES/dry nightly-$A_REL vm --kernel $A_IMG "* ]]
	[[ $output == *"fleet-job.sh $RES/dry nightly-$B_REL vm --kernel $B_IMG "* ]]
	[ ! -e "$RES/dry/.fleet" ]
}
