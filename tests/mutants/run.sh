#!/bin/bash
# make test-mutants: the tests tried against small realistic bugs.  Each
# tests/mutants/NAME.patch is applied to a fresh copy of the tree, which is
# built (make rebuilds only what the patch touched: the copy keeps build/
# and its timestamps), and the tests that tests.map names for the touched
# files are run, fastest first, until one fails.  A table says which test
# caught each mutant; a mutant no test catches, a patch that no longer
# applies and one that does not build are failures of the corpus, and the
# exit status is 1.
#   tests/mutants/run.sh [NAME...]      (default: every patch; logs in build/mutants/)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
MAP=tests/mutants/tests.map
LOGS=build/mutants
TEST_TIMEOUT=${TEST_TIMEOUT:-600}	# a hung test is a failed one
mkdir -p "$LOGS"

# The tests tests.map names for FILE, in its order.
tests_for() {
	awk -v f="$1" '!/^#/ && $1 == f { for (i = 2; i <= NF; i++) print $i }' "$MAP"
}

# The files a patch changes, from its +++ lines.
touched() {
	sed -n 's|^+++ b/||p' "$1"
}

# A copy of the tree to break: sources, the build with its timestamps, the
# link to the kernel cache; not .git, results or other mutants' logs.
scratch_copy() {
	local dir
	dir=$(mktemp -d "${TMPDIR:-/tmp}/mmdelta-mutant.XXXXXX") || return 1
	tar -C "$ROOT" --exclude=./.git --exclude=./results --exclude=./build/mutants \
		--exclude=./build/fuzz -cf - . | tar -C "$dir" -xf - || return 1
	echo "$dir"
}

# run_bats DIR FILE LOG: FILE's tests in DIR, stopped at the first that
# fails (timeout runs them in a process group of their own, and passes its
# signal on to all of it).  Their temporary files are made in DIR.
run_bats() {
	local dir=$1 t=$2 log=$3 line pid tap rc failed=""
	mkdir -p "$dir/tmp"
	exec {tap}< <(cd "$dir" && TMPDIR=$dir/tmp exec timeout "$TEST_TIMEOUT" bats --tap "$t" 2>&1)
	pid=$!
	while IFS= read -r line <&"$tap"; do
		printf '%s\n' "$line" >>"$log"
		if [[ $line == "not ok "* ]]; then
			failed=${line#not ok * }
			kill -TERM "$pid" 2>/dev/null
			break
		fi
	done
	exec {tap}<&-
	wait "$pid"
	rc=$?
	if [ -n "$failed" ]; then
		echo "$t: $failed"
	elif [ "$rc" -eq 124 ]; then
		echo "$t: timed out after $TEST_TIMEOUT s"
	elif [ "$rc" -ne 0 ]; then
		echo "$t: bats failed (status $rc) without a failing test; see the log"
	else
		return 0
	fi
	return 1
}

# run_test DIR TEST LOG: 0 when TEST passes in DIR; else prints what failed.
run_test() {
	local dir=$1 t=$2 log=$3 out rc
	[[ $t == unit:* ]] || { run_bats "$@"; return; }
	out=$(cd "$dir" && timeout "$TEST_TIMEOUT" "build/san/${t#unit:}" 2>&1)
	rc=$?
	printf '%s\n' "$out" >>"$log"
	[ "$rc" -eq 0 ] && return 0
	if [ "$rc" -eq 124 ]; then
		echo "$t: timed out after $TEST_TIMEOUT s"
	else
		echo "$t: $(sed -n 's/^\[  FAILED  \] \([^ ]*\).*/\1/p' <<<"$out" | head -n 1)"
	fi
	return 1
}

# mutate DIR NAME LOG: NAME's patch applied in DIR, built, its tests run;
# prints its row's last column, returns 0 if a test caught it.
mutate() {
	local dir=$1 patch=$ROOT/tests/mutants/$2.patch log=$3 f t units=() tests=() verdict
	if ! (cd "$dir" && git apply "$patch") >>"$log" 2>&1; then
		echo "DOES NOT APPLY (the corpus needs this patch redone)"
		return 1
	fi
	for f in $(touched "$patch"); do
		while read -r t; do
			[[ " ${tests[*]} " == *" $t "* ]] || tests+=("$t")
			[[ $t == unit:* ]] && units+=("build/san/${t#unit:}")
		done < <(tests_for "$f")
	done
	if [ ${#tests[@]} -eq 0 ]; then
		echo "NO TESTS in $MAP for $(touched "$patch" | paste -sd' ')"
		return 1
	fi
	if ! make -C "$dir" -s -j2 all "${units[@]}" >>"$log" 2>&1; then
		echo "DOES NOT BUILD (the corpus needs this patch redone)"
		return 1
	fi
	for t in "${tests[@]}"; do
		if ! verdict=$(run_test "$dir" "$t" "$log"); then
			echo "$verdict"
			return 0
		fi
	done
	echo "NOT CAUGHT by ${tests[*]}"
	return 1
}

# try NAME: mutate a fresh copy of the tree, then remove it.
try() {
	local dir log=$ROOT/$LOGS/$1.log rc
	: >"$log"
	dir=$(scratch_copy) || { echo "SCRATCH COPY FAILED"; return 1; }
	mutate "$dir" "$1" "$log"
	rc=$?
	rm -rf "$dir"
	return "$rc"
}

main() {
	local names=("$@") name row bad=0 start=$SECONDS t0
	if [ ${#names[@]} -eq 0 ]; then
		for name in tests/mutants/*.patch; do names+=("$(basename "$name" .patch)"); done
	fi
	printf '%-34s %5s  %s\n' mutant secs "caught by"
	for name in "${names[@]}"; do
		[ -f "tests/mutants/$name.patch" ] || { printf '%-34s %5s  %s\n' "$name" - "NO SUCH PATCH"; bad=1; continue; }
		t0=$SECONDS
		row=$(try "$name") || bad=1
		printf '%-34s %5d  %s\n' "$name" $((SECONDS - t0)) "$row"
	done
	echo "${#names[@]} mutants in $((SECONDS - start)) s; $([ "$bad" -eq 0 ] && echo "every one caught" || echo "NOT ALL CAUGHT (logs in $LOGS/)")"
	return "$bad"
}

main "$@"
