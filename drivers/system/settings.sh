# System settings that a run changes (THP, defrag, ...): each is recorded
# before it is first written and restored at exit, on failure and on
# interrupt.  The record is kept on disk so that the next run.sh can restore
# what a SIGKILLed run left behind.
# shellcheck shell=bash
[ -z "${MMDELTA_SOURCED_SYSTEM_SETTINGS:-}" ] || return 0  # sourced once, however often asked for
MMDELTA_SOURCED_SYSTEM_SETTINGS=1

source "${BASH_SOURCE[0]%/*}/../core/log.sh"  # die, say

SETTINGS_DIR=${MMDELTA_STATE:-/run/mmdelta}
SETTINGS_FILE=$SETTINGS_DIR/saved-settings

# A run that changes nothing on this machine (a --kernel run: the guest has
# its own settings) keeps no record and restores nothing, so its exit trap
# can never restore what another run.sh saved.  Under /proc nothing can be
# written by mistake.
settings_off() {
	SETTINGS_DIR=/proc/mmdelta-vm-run SETTINGS_FILE=/proc/mmdelta-vm-run/saved-settings
}

# The selected value of a sysfs file such as "always [madvise] never".
setting_read() {
	local v
	v=$(<"$1")
	if [[ $v =~ \[([^]]+)\] ]]; then v=${BASH_REMATCH[1]}; fi
	printf '%s\n' "$v"
}

# setting_set PATH VALUE: save PATH's value once, then write VALUE.
setting_set() {
	local path=$1 value=$2 old
	[ -w "$path" ] || die "cannot change $path: not writable (run as root)"
	old=$(setting_read "$path")
	mkdir -p "$SETTINGS_DIR"
	if ! grep -q "^${path}	" "$SETTINGS_FILE" 2>/dev/null; then
		[ -s "$SETTINGS_FILE" ] || printf 'pid\t%s\n' "$$" >"$SETTINGS_FILE"
		printf '%s\t%s\n' "$path" "$old" >>"$SETTINGS_FILE"
	fi
	printf '%s\n' "$value" >"$path" || die "cannot write '$value' to $path"
}

# setting_mount FSTYPE DIR: mount FSTYPE on DIR unless something is mounted
# there, and unmount it at restore (the mmaplock monitor needs tracefs).
setting_mount() {
	local fstype=$1 dir=$2
	! awk -v d="$dir" '$2 == d { found = 1 } END { exit !found }' /proc/mounts || return 0
	mount -t "$fstype" nodev "$dir" 2>/dev/null || return 1
	mkdir -p "$SETTINGS_DIR"
	[ -s "$SETTINGS_FILE" ] || printf 'pid\t%s\n' "$$" >"$SETTINGS_FILE"
	printf 'mount:%s\t%s\n' "$dir" "$fstype" >>"$SETTINGS_FILE"
}

# Put back everything recorded in the settings file, then forget it.
settings_restore() {
	local path value
	[ -s "$SETTINGS_FILE" ] || return 0
	while IFS=$'\t' read -r path value; do
		[ "$path" = pid ] && continue
		if [[ $path == mount:* ]]; then
			umount "${path#mount:}" 2>/dev/null || say "could not unmount $value from ${path#mount:}"
			continue
		fi
		printf '%s\n' "$value" >"$path" 2>/dev/null || say "could not restore $path to $value"
	done <"$SETTINGS_FILE"
	rm -f "$SETTINGS_FILE"
}

# At start: a settings file whose run is gone means that run was killed
# before it could restore; restore for it and say what happened.
settings_recover() {
	local pid
	[ -s "$SETTINGS_FILE" ] || return 0
	pid=$(awk -F'\t' '$1 == "pid" { print $2 }' "$SETTINGS_FILE")
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		die "another run.sh (pid $pid) is running and owns the system settings"
	fi
	say "restoring settings left by a killed run (pid ${pid:-unknown}): $(awk -F'\t' '$1 != "pid" { printf "%s=%s ", $1, $2 }' "$SETTINGS_FILE")"
	settings_restore
}
