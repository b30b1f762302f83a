# Shared set-up for the CLI tests: a private results root per test.
# shellcheck shell=bash

# shellcheck disable=SC2154  # set by bats
ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
export ROOT

common_setup() {
	RES=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-res.XXXXXX")
	export RES
}

common_teardown() {
	rm -rf "$RES"
}

# A failed command said exactly one line on stderr and wrote nothing to stdout.
# status, output and stderr_lines are set by bats' run --separate-stderr.
# shellcheck disable=SC2154
assert_one_line_error() {
	[ "$status" -ne 0 ] || { echo "expected failure, got status 0"; return 1; }
	[ "${#stderr_lines[@]}" -eq 1 ] || { printf 'expected one line on stderr, got:\n%s\n' "$stderr"; return 1; }
	[ -z "$output" ] || { printf 'unexpected stdout: %s\n' "$output"; return 1; }
}

# A checksum of everything under the results root, to prove nothing changed.
results_digest() {
	(cd "$RES" && find . -type f -print0 | sort -z | xargs -0r sha256sum)
}
