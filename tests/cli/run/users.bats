#!/usr/bin/env bats
# Root and a normal user on one machine: runs made with sudo are read by
# another user, the machine lock serves both, and what needs root is refused
# up front.  The second user is created for these tests and removed after.

bats_require_minimum_version 1.5.0
load ../helpers

setup_file() {
	[ "$EUID" -eq 0 ] || skip "needs root to create a second user"
	TUSER=mmdu$$
	export TUSER
	useradd --system --no-create-home --shell /usr/sbin/nologin "$TUSER"
}

teardown_file() {
	[ -z "${TUSER:-}" ] || userdel "$TUSER" 2>/dev/null || true
}

setup() {
	[ -n "${TUSER:-}" ] || skip "no second user"
	common_setup
	chmod 0755 "$RES"
}

teardown() {
	[ -z "${PARANOID:-}" ] || echo "$PARANOID" >/proc/sys/kernel/perf_event_paranoid
	common_teardown
}

# as_user CMD...: run CMD as the second user, from a directory it can read.
as_user() { (cd / && runuser -u "$TUSER" -- "$@"); }

@test "users: a run made by root is readable by another user, who can compare it" {
	umask 022
	for n in a b; do
		run --separate-stderr "$ROOT/run.sh" -n "$n" -o "$RES" --ignore-load --set SIZE=8M \
			--set WARMUP=0 -i 2 --monitors vmstat,perfstat,mmaplock,profile timedmunlock
		[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	done
	# every file, raw perf data included, has the umask's modes
	run find "$RES" ! -perm -0044
	[ -z "$output" ] || { echo "not readable by others: $output"; return 1; }
	run --separate-stderr as_user "$ROOT/compare.sh" --all-metrics -o "$RES" a b
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	# the summary, then the tables, each bench's under its name
	[[ ${lines[0]} == *" b against a "* ]]
	grep -q '^Percentages: change against a, positive = better' <<<"$output"
	grep -qx timedmunlock <<<"$output"
}

@test "users: with umask 077 the run's files are private to their owner" {
	umask 077
	run --separate-stderr "$ROOT/run.sh" -n p -o "$RES" --ignore-load --set SIZE=8M \
		--set WARMUP=0 -i 1 --monitors vmstat timedmunlock
	[ "$status" -eq 0 ]
	[ "$(stat -c %a "$RES/p/meta")" = 600 ]
	[ -z "$(find "$RES/p" -type f -perm /0077)" ]
}

@test "users: a results directory the user may not write is a permission, not a read-only one" {
	run --separate-stderr as_user "$ROOT/run.sh" -o "$RES" --set SIZE=4M --set THP=default timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: results directory $RES is not writable (permission: $TUSER may not write to $RES)" ]
}

@test "users: a config that changes THP is refused for a user in one line, before anything is written" {
	thp=/sys/kernel/mm/transparent_hugepage/enabled
	[ -e "$thp" ] || skip "no THP"
	mkdir "$RES/user" && chown "$TUSER" "$RES/user"
	run --separate-stderr as_user "$ROOT/run.sh" -o "$RES/user" --set SIZE=4M timedmunlock
	assert_one_line_error
	[[ $stderr == "mmdelta: timedmunlock: THP=never needs root (it writes $thp); run as root, or with --set THP=default" ]]
	# the dry run predicts it, the same line and a non-zero exit
	run --separate-stderr as_user "$ROOT/run.sh" --dry-run -o "$RES/user" --set SIZE=4M timedmunlock
	assert_one_line_error
	[[ $stderr == "mmdelta: timedmunlock: THP=never needs root (it writes $thp); run as root, or with --set THP=default" ]]
	run --separate-stderr as_user "$ROOT/run.sh" -o "$RES/user" --set SIZE=4M --set DROP_CACHES=yes \
		--set THP=default timedmunlock
	assert_one_line_error
	[[ $stderr == *"DROP_CACHES=yes needs root (it writes /proc/sys/vm/drop_caches)"* ]]
	[ -z "$(ls -A "$RES/user")" ]
}

@test "users: a user may dry-run and run what does not need root, after root held the lock" {
	# root runs first, so the lock file exists and is root's
	run --separate-stderr "$ROOT/run.sh" -n r -o "$RES" --ignore-load --set SIZE=4M -i 1 --monitors none timedmunlock
	[ "$status" -eq 0 ]
	# from a directory the user cannot write: a dry run writes nothing, and
	# refuses what the run would: the results root, what needs root
	run --separate-stderr as_user "$ROOT/run.sh" --dry-run --set THP=default timedmunlock
	assert_one_line_error
	[ "$stderr" = "mmdelta: results directory results is not writable (permission: $TUSER may not write to .)" ]
	mkdir "$RES/user" && chown "$TUSER" "$RES/user"
	run --separate-stderr as_user "$ROOT/run.sh" --dry-run -o "$RES/user" timedmunlock
	assert_one_line_error
	[[ $stderr == *"THP=never needs root"* ]]
	run --separate-stderr as_user "$ROOT/run.sh" --dry-run -o "$RES/user" --set THP=default timedmunlock
	[ "$status" -eq 0 ]
	[[ $output == *"bench/timedmunlock"* ]]
	run --separate-stderr as_user "$ROOT/run.sh" -n u -o "$RES/user" --ignore-load --set THP=default \
		--set SIZE=4M --set WARMUP=0 -i 2 --monitors vmstat timedmunlock
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(stat -c %U "$RES/user/u/meta")" = "$TUSER" ]
	[ "$(awk -F'\t' '$1 == "pages" && $4 == 1024' "$RES/user/u/timedmunlock/samples.tsv" | wc -l)" -eq 2 ]
	# and root compares the user's run with its own
	run --separate-stderr "$ROOT/compare.sh" "$RES/r" "$RES/user/u"
	[ "$status" -eq 0 ]
}

# user_run NAME ARGS...: a run of the user's into RES/user/NAME that needs no root.
user_run() {
	local name=$1; shift
	[ -d "$RES/user" ] || { mkdir "$RES/user" && chown "$TUSER" "$RES/user"; }
	run --separate-stderr as_user "$ROOT/run.sh" -n "$name" -o "$RES/user" --ignore-load --set THP=default \
		--set SIZE=4M --set WARMUP=0 -i 2 "$@" timedmunlock
}

@test "users: perfstat as a user records root's metric names, or nothing and says why" {
	command -v perf >/dev/null || skip "no perf"
	PARANOID=$(cat /proc/sys/kernel/perf_event_paranoid)
	echo 2 >/proc/sys/kernel/perf_event_paranoid
	# at 2 a user's perf counts user space only: 0 context switches, and
	# events named task-clock:u; nothing is recorded, once said
	user_run u2 --monitors perfstat,vmstat
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(grep -c 'monitor perfstat skipped: perf counts user space only for this user (kernel.perf_event_paranoid is 2)' <<<"$stderr")" -eq 1 ]
	d=$RES/user/u2/timedmunlock
	run ! grep -q '^perfstat_' "$d/metrics.tsv" "$d/samples.tsv"
	[ "$(cut -f1 "$d/monitors/skipped")" = perfstat ]
	# at 1 it counts the kernel's side of its own process: root's names, real counts
	echo 1 >/proc/sys/kernel/perf_event_paranoid
	user_run u1 --monitors perfstat
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	run --separate-stderr "$ROOT/run.sh" -n r -o "$RES" --ignore-load --set THP=default --set SIZE=4M \
		--set WARMUP=0 -i 2 --monitors perfstat timedmunlock
	[ "$status" -eq 0 ]
	diff <(grep '^perfstat_' "$RES/r/timedmunlock/metrics.tsv") <(grep '^perfstat_' "$RES/user/u1/timedmunlock/metrics.tsv")
	[ "$(awk -F'\t' '$1 == "perfstat_context_switches" && $4 >= 1' "$RES/user/u1/timedmunlock/samples.tsv" | wc -l)" -eq 2 ]
}
