# One run.sh at a time per machine: two runs would each size their mappings
# against the same MemAvailable and together wake the OOM killer, and would
# fight over the THP settings.  A later run waits for the earlier one.
#
# Root and normal users share the lock: it lives in /run/lock, where any user
# may create a lock file (MMDELTA_STATE moves it, for tests), whoever creates
# it leaves it readable by all, and everyone locks a read-only descriptor,
# which flock allows.  Only run.sh holds the descriptor: benches and monitors
# are started without it (lock_fd_close), so a bench orphaned by a killed
# run.sh cannot keep the next run waiting.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_SYSTEM_LOCK:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_SYSTEM_LOCK=1

source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say

MACHINE_LOCK_FD=""

machine_lock_path() {
	if [ -n "${MMDELTA_STATE:-}" ]; then echo "$MMDELTA_STATE/lock"; else echo /run/lock/mmdelta.lock; fi
}

machine_lock() {
	local lock holder
	lock=$(machine_lock_path)
	if [ ! -e "$lock" ]; then
		mkdir -p "$(dirname "$lock")" 2>/dev/null || true
		# noclobber: of two runs creating it at once, one does, both use it.
		(umask 022 && set -C && : >"$lock") 2>/dev/null || true
	fi
	if [ ! -f "$lock" ] || [ ! -r "$lock" ]; then
		die "cannot use the machine lock $lock (it must be a file every user can read; remove it, or set MMDELTA_STATE to another directory)"
	fi
	exec {MACHINE_LOCK_FD}<"$lock"
	if ! flock -n "$MACHINE_LOCK_FD"; then
		holder=$(lock_holder "$lock")
		say "waiting for another run.sh${holder:+ (pid $holder)} on this machine to finish"
		flock "$MACHINE_LOCK_FD"
	fi
}

# The pid holding a flock on FILE, from /proc/locks, if one does.
lock_holder() {
	local ino
	ino=$(stat -c %i "$1" 2>/dev/null) || return 0
	awk -v i="$ino" '$2 == "FLOCK" { n = split($6, f, ":"); if (f[n] == i) { print $5; exit } }' /proc/locks 2>/dev/null
}

# In a child that will live on (a bench, a perf session): drop the lock's
# descriptor, which bash cannot mark close-on-exec.
lock_fd_close() {
	[ -z "$MACHINE_LOCK_FD" ] || exec {MACHINE_LOCK_FD}<&-
}
