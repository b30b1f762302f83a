# The run directory: written as RESULTS/.NAME.partial and renamed to
# RESULTS/NAME only when complete, so a run's files appear whole or not at
# all, and an existing run is replaced (with --force) only by a complete one.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_RUN_RUNDIR:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_RUN_RUNDIR=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"
source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say
source "${BASH_SOURCE[0]%/*}/../system/facts.sh"  # fleet_meta, meta_line

# A run name becomes a directory name: no paths, no hidden names, no blanks.
# At most 200 characters, so that ".NAME.partial" and ".replaced.*" fit NAME_MAX.
rundir_check_name() {
	[[ $1 =~ ^[A-Za-z0-9_+][A-Za-z0-9._+-]*$ ]] ||
		die "run name '${1//[[:cntrl:]]/?}' is not usable: letters, digits and ._+- only, not starting with '.' or '-'"
	[ ${#1} -le 200 ] || die "run name '${1:0:20}...' is ${#1} characters long; at most 200"
	# "cand-$CI_PIPELINE_ID" with the variable unset
	[[ $1 != *- ]] || die "run name '$1' ends in '-': it looks truncated (an empty variable?)"
}

# A write under the run directory DIR failed: when its filesystem is full,
# say which directory that is, once, and return 0; else return 1.
rundir_full() {
	local root
	root=$(dirname "$1")
	[[ $(df -P -k "$1" 2>/dev/null | awk 'NR == 2 { print $4 }') == 0 ]] || return 1
	[ -n "${RUNDIR_FULL_SAID:-}" ] || say "results directory $root is full (no space left on its filesystem); the run stays partial"
	RUNDIR_FULL_SAID=1
}

# Why directory DIR, which exists, is not writable: its filesystem, or its
# permissions (a normal user's usual case).
unwritable_why() {
	if [[ ,$(findmnt -n -o OPTIONS -T "$1" 2>/dev/null), == *,ro,* ]]; then
		echo "$1 is on a read-only filesystem"
	else
		echo "permission: $(id -un) may not write to $1"
	fi
}

# Refuse a results root that cannot hold a run before any work, without
# creating it: it, or the nearest part of its path that exists, must be a
# writable directory.
rundir_check_root() {
	local dir=$1
	[ -n "$dir" ] || die "results directory is empty (-o DIR or MMDELTA_RESULTS)"
	while [ ! -e "$dir" ] && [ "$dir" != "$(dirname "$dir")" ]; do dir=$(dirname "$dir"); done
	[ -d "$dir" ] || die "results directory $1 cannot be created: $dir is not a directory"
	[ -w "$dir" ] || die "results directory $1 is not writable ($(unwritable_why "$dir"))"
}

# Refuse a results root or run name that cannot be used, before run.sh
# waits for the machine or touches anything.
rundir_check() {
	local root=$1 name=$2 force=$3
	mkdir -p "$root" 2>/dev/null || die "results directory $root cannot be created"
	[ -w "$root" ] || die "results directory $root is not writable"
	rundir_check_free "$root" "$name" "$force"
}

# The name is free in ROOT, or FORCE (1) replaces it, and no unfinished run
# of that name is in the way.  Writes nothing: --dry-run refuses with it
# what the run would.
rundir_check_free() {
	local root=$1 name=$2 force=$3
	if [ -e "$root/$name" ] && [ "$force" != 1 ]; then
		die "run '$name' already exists in $root (use --force to replace it once the new run completes, or -n NAME)"
	fi
	rundir_check_leftover "$root/.$name.partial" "$force"
}

# A partial run left by an unfinished run.sh is replaced only with --force,
# and never while that run.sh is alive: it is being written.
rundir_check_leftover() {
	[ -e "$1" ] || return 0
	! run_alive "$1" ||
		die "$1 is being written by a run.sh that is still running (pid $(meta_get "$1" pid)); wait for it, or name this run with -n NAME"
	[ "$2" = 1 ] ||
		die "$1 is left from an unfinished run (status: $(meta_get "$1" status)); remove it or use --force"
}

# Set RUN_DIR (partial) and FINAL_DIR; refuse to clobber anything.
rundir_create() {
	local root=$1 name=$2 force=$3
	rundir_check "$root" "$name" "$force"
	local partial=$root/.$name.partial
	FINAL_DIR=$root/$name
	# RUN_DIR is set only once it is this run's: the exit trap marks RUN_DIR
	# failed, and a leftover partial run must keep its own status.
	if [ -e "$partial" ]; then
		rundir_check_leftover "$partial" "$force"
		rm -rf "$partial"
	fi
	mkdir "$partial" || die "cannot create $partial"
	# A Slurm job's partial run names the job from its first moment, so a
	# requeued attempt can tell its own leftover from anyone else's.
	[ -z "${SLURM_JOB_ID:-}" ] || fleet_meta >"$partial/meta"
	RUN_DIR=$partial
}

# A temporary meta in DIR, with the run's file mode (mktemp's is 0600).
meta_tmpfile() {
	local tmp
	tmp=$(mktemp "$1/.meta.XXXXXX") && chmod "$RUN_FILE_MODE" "$tmp" && printf '%s\n' "$tmp"
}

# meta is "key: value" lines; set replaces a key in place.
# The old meta is replaced only by a complete new one: on a full disk the
# write fails and meta keeps what it had, rather than becoming empty.
meta_set() {
	local dir=$1 key=$2 value=$3 tmp old=$1/meta err content
	[ -e "$old" ] || old=/dev/null
	content=$(awk -v k="$key" -v v="$value" 'BEGIN { done = 0 }
		index($0, k ": ") == 1 { if (!done) print k ": " v; done = 1; next }
		{ print } END { if (!done) print k ": " v }' "$old")
	if tmp=$(meta_tmpfile "$dir" 2>/dev/null) &&
		err=$(printf '%s\n' "$content" 2>&1 >"$tmp"); then
		mv "$tmp" "$dir/meta"
		# "return 0", not "return": run.sh's exit trap calls this, and a bare
		# return in a trap handler returns the status from before the trap.
		return 0
	fi
	[ -z "$tmp" ] || rm -f "$tmp"
	# A full disk: rewritten in place, meta reuses its own blocks, so a
	# failed run can still say so.
	if [ "$old" != /dev/null ] && printf '%s\n' "$content" 2>/dev/null >"$dir/meta"; then
		return 0
	fi
	say "cannot update $dir/meta (${err:-write failed}; is the disk full?)"
	return 1
}

meta_get() {
	awk -v k="$2" 'index($0, k ": ") == 1 { print substr($0, length(k) + 3); exit }' "$1/meta" 2>/dev/null
}

# Make the partial run the named one.  With --force the old run is moved
# aside first and deleted only after the new one is in place.
rundir_finish() {
	local old=""
	sync -f "$RUN_DIR" 2>/dev/null || true
	if [ -e "$FINAL_DIR" ]; then
		old=$(mktemp -d "$(dirname "$FINAL_DIR")/.replaced.XXXXXX")
		mv "$FINAL_DIR" "$old/" || die "cannot move the old $FINAL_DIR aside"
	fi
	if ! mv "$RUN_DIR" "$FINAL_DIR"; then
		[ -z "$old" ] || mv "$old/$(basename "$FINAL_DIR")" "$FINAL_DIR"
		die "cannot rename $RUN_DIR to $FINAL_DIR"
	fi
	# shellcheck disable=SC2034  # read by run.sh's on_signal and record_history
	RUN_COMPLETE=1
	[ -z "$old" ] || rm -rf "$old"
}

# A process's start time (clock ticks after boot), which, with its pid,
# names it: a pid alone may have been reused since.
proc_start() {
	local stat
	# 2> first: a process gone since is no error to show
	read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
	stat=${stat##*) }
	# shellcheck disable=SC2086  # the fields, split on blanks
	set -- $stat
	printf '%s\n' "${20}"
}

# Is the run.sh that writes run directory DIR still running?
run_alive() {
	local pid start
	pid=$(meta_get "$1" pid)
	[ -n "$pid" ] && [ -d "/proc/$pid" ] || return 1
	start=$(meta_get "$1" pid_start)
	[ -z "$start" ] || [ "$(proc_start "$pid")" = "$start" ]
}

# The lines every run's meta starts with, host or VM: ARGS are run.sh's.
run_meta_head() {
	meta_line name "$NAME"
	meta_line status running
	meta_line pid $$
	meta_line pid_start "$(proc_start $$)"
	meta_line start_time "$(date -Is)"
	meta_line command "./run.sh $*"
	meta_line configs "$(printf '%s ' "${CONFIGS[@]##*/}")"
	[ -z "${SLURM_JOB_ID:-}" ] || fleet_meta
}
