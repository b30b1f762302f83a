# Shared set-up for the CLI tests: a private results root per test.
# shellcheck shell=bash

# The tree: two folders above this file (tests/cli/helpers.bash), whichever
# folder of tests/cli/ the test is in.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export ROOT

# The tests check behaviour, not timings: a machine kept busy by other work
# must not fail them through run.sh's busy-machine refusal.  noise.bats
# unsets this to test the refusal itself.
export MMDELTA_IGNORE_LOAD=1

# shellcheck source=tests/kernels/debian.bash
source "$ROOT/tests/kernels/debian.bash"  # debian_kernels

common_setup() {
	RES=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-res.XXXXXX")
	export RES
}

common_teardown() {
	rm -rf "$RES"
}

# A refused command exited 2 (bad input, or a run that could not complete:
# never a verdict's 1 or 3), said exactly one line on stderr and wrote
# nothing to stdout.  status, output and stderr_lines are set by bats' run
# --separate-stderr.
# shellcheck disable=SC2154
assert_one_line_error() {
	[ "$status" -eq 2 ] || { printf 'expected exit 2, got %s: %s\n' "$status" "$stderr"; return 1; }
	[ "${#stderr_lines[@]}" -eq 1 ] || { printf 'expected one line on stderr, got:\n%s\n' "$stderr"; return 1; }
	[ -z "$output" ] || { printf 'unexpected stdout: %s\n' "$output"; return 1; }
}

# A checksum of everything under the results root, to prove nothing changed.
results_digest() {
	(cd "$RES" && find . -type f -print0 | sort -z | xargs -0r sha256sum)
}

# Start a bench, "$@", with --trigger fifo and return once it says ready:
# set-up is done and the timed region not begun.  TRIG_PID is the bench,
# TRIG_STATE what it said ("ready PID"); its stdout goes to TRIG_DIR/out.
# bats keeps fd 3 for its own output; the FIFOs stay open at both ends.
# shellcheck disable=SC2034  # TRIG_STATE and TRIG_OUT are read by the tests
trigger_start() {
	TRIG_DIR=$(mktemp -d)
	mkfifo "$TRIG_DIR/ready" "$TRIG_DIR/go"
	exec {TRIG_RD}<>"$TRIG_DIR/ready" {TRIG_GO}<>"$TRIG_DIR/go"
	"$@" --trigger "fifo:$TRIG_DIR" >"$TRIG_DIR/out" 3>&- &
	TRIG_PID=$!
	read -r -t 30 TRIG_STATE <&"$TRIG_RD"
}

# Release a bench from trigger_start through its timed region and return
# once it says done (TRIG_STATE "done PID"), its teardown not begun.  One
# byte releases one wait: "go\n" would release the next one too.
trigger_region() {
	printf g >&"$TRIG_GO"
	read -r -t 30 TRIG_STATE <&"$TRIG_RD"
}

# Let a bench from trigger_start (through its timed region, if
# trigger_region has not) finish, and keep its stdout in TRIG_OUT.
# shellcheck disable=SC2034
trigger_finish() {
	[[ $TRIG_STATE == done* ]] || trigger_region
	printf g >&"$TRIG_GO"
	wait "$TRIG_PID"
	TRIG_OUT=$(cat "$TRIG_DIR/out")
	exec {TRIG_RD}>&- {TRIG_GO}>&-
	rm -r "$TRIG_DIR"
}

# Wait until PID sleeps (at a trigger's wait, its FIFO read): only then is
# what the kernel counts for it in /proc up to date, not a tick behind.
wait_asleep() {
	local state _i
	for _i in $(seq 300); do
		read -r _ _ state _ <"/proc/$1/stat" || return 1
		[ "$state" = S ] && return 0
		sleep 0.01
	done
	echo "pid $1 never slept"
	return 1
}

# The CPUs of a taskset list ("0-2,5") one per line.
cpus_of() {
	local part
	for part in ${1//,/ }; do
		seq "${part%-*}" "${part#*-}"
	done
}

# welch "A VALUES" "B VALUES": scipy's two-sided p of Welch's test, to 10
# digits; Debian's python3-scipy, not a pyenv shim's.
welch() {
	/usr/bin/python3 -c 'import sys; from scipy import stats
a, b = (list(map(float, s.split())) for s in sys.argv[1:3])
print("%.10g" % stats.ttest_ind(a, b, equal_var=False).pvalue)' "$1" "$2"
}
