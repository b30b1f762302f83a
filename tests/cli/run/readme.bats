#!/usr/bin/env bats
# The README is the front door: short, and every docs/ file is reachable
# from it through a link that exists.

setup() { ROOT=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd); }

@test "the README is at most 250 lines" {
	[ "$(wc -l <"$ROOT/README.md")" -le 250 ]
}

@test "every docs/ file is linked from the README, and every link it makes exists" {
	local f missing=()
	for f in "$ROOT"/docs/*.md; do
		grep -qF "](docs/${f##*/})" "$ROOT/README.md" || missing+=("${f##*/}")
	done
	[ ${#missing[@]} -eq 0 ] || { echo "not linked: ${missing[*]}"; return 1; }
	while IFS= read -r f; do
		[ -e "$ROOT/$f" ] || { echo "README links $f, which does not exist"; return 1; }
	done < <(grep -o '](docs/[^)#]*' "$ROOT/README.md" | cut -c3-)
}

@test "the README's commands name options the tools accept" {
	# each option after ./run.sh, ./compare.sh, ./bisect.sh or ./history.sh in a
	# code line appears in that tool's --help
	local tool opt
	while read -r tool opt; do
		"$ROOT/$tool" --help 2>&1 | grep -q -- "$opt" || { echo "$tool: $opt is not in its --help"; return 1; }
	done < <(awk '/^```/ { code = !code; next } code' "$ROOT/README.md" |
		grep -oE '\./(run|compare|bisect|history)\.sh( [^#]*)?' |
		awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^--[a-z]/) { sub(/=.*/, "", $i); print substr($1, 3), $i } }' | sort -u)
}

# The run names that run.sh lines on stdin give twice with -n: run.sh
# refuses a name already taken unless --add or --force says otherwise.
named_twice() {
	grep -E '\./run\.sh' | grep -vE -- '--(add|force)' | grep -oE -- '-n ("[^"]*"|[^ ]+)' | sort | uniq -d
}

@test "the README's run.sh commands, followed in order, never name a run twice" {
	local dup
	dup=$(awk '/^```/ { code = !code; next } code' "$ROOT/README.md" | named_twice)
	[ -z "$dup" ] || { echo "named twice: $dup"; return 1; }
	# the README as it was, its VM block reusing the native block's name
	dup=$(printf '%s\n' './run.sh -n base timedmunlock' './run.sh --kernel base/bzImage -n base timedmunlock' | named_twice)
	[ "$dup" = "-n base" ]
}
