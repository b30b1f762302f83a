#!/usr/bin/env bats
# Every option a front door's parser takes is in its --help: the labels of
# the parser's case arms (-x, --word; --vm-* stands for every --vm- option
# of drivers/vm/vm.sh), each found as a word of the --help text.  -h and
# --help themselves are not listed.

setup() { ROOT=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd); }

# The options SCRIPT's case arms name, one a line.
parser_options() {
	local arms
	arms=$(grep -oE '^\s*-[-a-z|* ]*\)' "$1" | tr -d ' \t)' | tr '|' '\n')
	grep -vxE -- '-h|--help|-\*|--|.*\*.*' <<<"$arms" | sort -u
	if grep -qx -- '--vm-\*' <<<"$arms"; then
		grep -oE '^\s*--vm-[a-z]+\)' "$ROOT/drivers/vm/vm.sh" | tr -d ' \t)'
	fi
}

# Every option of SCRIPT's parser is in its --help; names those that are not.
options_in_help() {
	local help opt missing=()
	help=$("$ROOT/$1" --help 2>&1)
	[ "$(parser_options "$ROOT/$1" | wc -l)" -ge 3 ] || { echo "no options found in $1's parser"; return 1; }
	while read -r opt; do
		grep -qE -- "(^|[^-a-z])$opt([^-a-z]|\$)" <<<"$help" || missing+=("$opt")
	done < <(parser_options "$ROOT/$1")
	[ ${#missing[@]} -eq 0 ] || { echo "$1 --help leaves out: ${missing[*]}"; return 1; }
}

@test "bisect.sh --help names every option its parser takes (--vm-numa among them)" {
	parser_options "$ROOT/bisect.sh" | grep -qx -- --vm-numa
	options_in_help bisect.sh
}

@test "series.sh --help names every option its parser takes" {
	options_in_help series.sh
}

@test "run.sh --help names every option its parser takes" {
	options_in_help run.sh
}

@test "compare.sh --help names every option its parser takes" {
	options_in_help compare.sh
}

@test "history.sh --help names every option its parser takes (--window among them)" {
	parser_options "$ROOT/history.sh" | grep -qx -- --window
	options_in_help history.sh
}
