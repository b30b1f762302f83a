# A run.sh killed outright (SIGKILL, the OOM killer) writes nothing more: its
# partial run still says "running", a bench it started may still be
# populating or measuring, its fifo directory stays.  The next run.sh,
# before it measures, finishes that: the dead run's processes are
# killed (they carry MMDELTA_RUN in their environment), the fifo directory
# its meta names is removed, and its meta says "status: killed".
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_SYSTEM_DEADRUN:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_SYSTEM_DEADRUN=1

source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # say
source "${BASH_SOURCE[0]%/*}/../run/rundir.sh"  # meta_get, meta_set, proc_start, run_alive

# The marker this run's children carry: run.sh's pid and start time, and
# the run directory.
deadrun_mark() {
	MMDELTA_RUN="$$ $(proc_start $$)"
	MMDELTA_RUN_DIR=$(readlink -f "$1")
	export MMDELTA_RUN MMDELTA_RUN_DIR
}

# Kill every process whose run.sh is gone; print the run directories they
# belonged to.
deadrun_kill_orphans() {
	local f e run dir pid start killed=()
	local -a env
	while IFS= read -r -d '' f; do
		mapfile -d '' env 2>/dev/null <"$f" || continue
		run="" dir=""
		for e in "${env[@]}"; do
			case $e in MMDELTA_RUN=*) run=${e#*=} ;; MMDELTA_RUN_DIR=*) dir=${e#*=} ;; esac
		done
		read -r pid start <<<"$run"
		if [ -z "$pid" ] || [ "$(proc_start "$pid")" = "$start" ]; then continue; fi
		f=${f%/environ}
		kill -KILL "${f#/proc/}" 2>/dev/null && killed+=("${f#/proc/}")
		[ -z "$dir" ] || printf '%s\n' "$dir"
	done < <(grep -alzZ '^MMDELTA_RUN=' /proc/[0-9]*/environ 2>/dev/null)
	[ ${#killed[@]} -eq 0 ] || deadrun_wait "${killed[@]}"
}

# Wait until the killed processes are gone (their memory is freed only
# then), at most 30 s.
deadrun_wait() {
	local p i
	say "stopped $# process(es) left by a killed run.sh (pid $*)"
	for p in "$@"; do
		for ((i = 0; i < 300; i++)); do [ -d "/proc/$p" ] || continue 2; sleep 0.1; done
		say "process $p left by a killed run.sh is still exiting"
	done
}

# Mark a dead run's directory and remove its fifos.
deadrun_close() {
	local dir=$1 fifo
	[ -f "$dir/meta" ] && [ -w "$dir/meta" ] || return 0
	[ "$(meta_get "$dir" status)" = running ] && ! run_alive "$dir" || return 0
	fifo=$(meta_get "$dir" fifo_dir)
	if [[ $fifo == */mmdelta-fifo.* ]] && [ -d "$fifo" ]; then rm -rf "$fifo"; fi
	meta_set "$dir" status killed
	meta_set "$dir" end_time "$(date -Is)"
	say "$dir: its run.sh (pid $(meta_get "$dir" pid)) was killed; status set to killed"
}

# Before measuring: whatever dead runs left on the machine, and the partial
# runs under RESULTS that a dead run.sh left saying "running".
deadrun_reap() {
	local results=$1 dir
	while IFS= read -r dir; do deadrun_close "$dir"; done < <(deadrun_kill_orphans | sort -u)
	for dir in "$results"/.*.partial; do
		[ ! -d "$dir" ] || deadrun_close "$dir"
	done
}
