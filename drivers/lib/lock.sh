# One run.sh at a time per machine: two runs would each size their mappings
# against the same MemAvailable and together wake the OOM killer, and would
# fight over the THP settings.  A later run waits for the earlier one.
# shellcheck shell=bash

machine_lock() {
	local dir=${MMDELTA_STATE:-/run/mmdelta}
	mkdir -p "$dir" || die "cannot create $dir"
	exec {MACHINE_LOCK_FD}>"$dir/lock"
	if ! flock -n "$MACHINE_LOCK_FD"; then
		say "waiting for another run.sh on this machine to finish"
		flock "$MACHINE_LOCK_FD"
	fi
}
