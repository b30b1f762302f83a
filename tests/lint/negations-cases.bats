#!/usr/bin/env bats
# Cases for tests/lint/negations.py --self-test, never run by bats: the
# lint must name exactly the lines marked dead (the marker ends the line).

@test "a bare negation before another command checks nothing" {
	! grep -q x file # dead
	true
}

@test "after && or ; it is as dead" {
	true && ! grep -q x file # dead
	true; ! kill -0 1 # dead
	true
}

@test "a continued line is one command" {
	! grep -q \
		x file # dead
	true
}

@test "on the last line but followed by another command" {
	true
	! grep -q x file; true # dead
}

@test "quotes nested in a substitution end where the shell ends them" {
	[ "$(printf "%s" "a")" = a ]
	x=$(echo "$(echo ")")")
	! grep -q x <<<"$x" # dead
	true
}

@test "a pipeline continued on the next line" {
	! grep -q x file |
		cat # dead
	true
}

helper() {
	! cmp -s a b # dead
	echo "a function's last status is what its caller sees"
}

@test "the forms that can fail" {
	run ! grep -q x file
	! grep -q x file || false
	[ ! -e file ]
	[[ ! -e file ]]
	if ! grep -q x file; then echo ok; fi
	while ! test -e file; do sleep 1; done
	echo "! grep -q x file; in a string is not code"
	# ! grep -q x file in a comment is not code
	cat <<-END
	! grep -q x file in a here-document is not code
	END
	awk '
		! /x/ { n++ }
	' file
	! grep -q x file
}

helper_last() {
	true
	true && ! cmp -s a b
}
