#!/usr/bin/env bats
# Dependencies by purpose: each command installs the package sets it needs
# and no others.  dpkg-query and apt-get are replaced on PATH by stand-ins
# that call every package missing and log what would be installed.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	chmod 755 "$RES"
	mkdir "$RES/bin"
	printf '#!/bin/sh\nexit 1\n' >"$RES/bin/dpkg-query"
	printf '#!/bin/sh\necho "$*" >>"%s"\n' "$RES/apt.log" >"$RES/bin/apt-get"
	chmod +x "$RES/bin/dpkg-query" "$RES/bin/apt-get"
	export PATH=$RES/bin:$PATH
}

teardown() {
	common_teardown
}

# The packages the stand-in apt-get was asked to install, sorted, one line.
installed() { awk '{ for (i = 1; i <= NF; i++) { if ($i == "-o") { i++; continue }; if ($i !~ /^-/ && $i != "install") print $i } }' "$RES/apt.log" | sort | paste -sd ' '; }

# The packages of SETs in deps.list, the same way.
set_packages() { awk -v want=" $* " '{ sub(/#.*/, "") } NF >= 2 && index(want, " " $1 " ") { print $2 }' "$ROOT/libexec/deps.list" | sort -u | paste -sd ' '; }

@test "run.sh installs the run set only: no browser, compiler for fuzzing or VM" {
	[ "$(id -u)" -eq 0 ] || skip "installing needs root"
	run "$ROOT/run.sh" --dry-run -o "$RES/r" timedmunlock
	[ "$status" -eq 0 ]
	[ "$(installed)" = "$(set_packages run)" ]
	[[ " $(installed) " != *" chromium "* && " $(installed) " != *" qemu-system-x86 "* ]]
	[[ " $(installed) " != *" clang "* && " $(installed) " != *" bats "* ]]
	[[ " $(installed) " == *" libgsl-dev "* && " $(installed) " == *" numactl "* ]]
}

@test "run.sh --kernel adds the vm set" {
	[ "$(id -u)" -eq 0 ] || skip "installing needs root"
	head -c 4096 /dev/zero >"$RES/bzImage"
	printf HdrS | dd of="$RES/bzImage" bs=1 seek=514 conv=notrunc 2>/dev/null
	run "$ROOT/run.sh" --dry-run -o "$RES/r" -n vm --kernel "$RES/bzImage" timedmunlock
	[ "$status" -eq 0 ]
	[ "$(installed)" = "$(set_packages run vm)" ]
}

@test "compare.sh --html installs the report set; text needs none" {
	[ "$(id -u)" -eq 0 ] || skip "installing needs root"
	local fx=$ROOT/tests/fixtures/compare
	run "$ROOT/compare.sh" -o "$fx" 3.11-rc3-0 3.11-rc3-1
	[ "$status" -eq 0 ]
	[ ! -e "$RES/apt.log" ]
	# The stand-in installs nothing, so the page itself may fail: only the
	# request is checked here (html.bats checks the page).
	run "$ROOT/compare.sh" -o "$fx" --html "$RES/html" 3.11-rc3-0 3.11-rc3-1
	[ "$(installed)" = "$(set_packages report)" ]
}

@test "make deps installs every set; an unknown set is refused" {
	[ "$(id -u)" -eq 0 ] || skip "installing needs root"
	run make -s -C "$ROOT" deps
	[ "$status" -eq 0 ]
	[ "$(installed)" = "$(set_packages run report vm insns fleet install test)" ]
	run --separate-stderr "$ROOT/libexec/deps.sh" nosuch
	[ "$status" -eq 2 ]
	[[ $stderr == "mmdelta: deps.sh: no package set 'nosuch' in "*"/deps.list" ]]
}

@test "a non-root user missing packages is told the apt-get line, nothing else" {
	command -v setpriv >/dev/null || skip "no setpriv"
	[ "$(id -u)" -eq 0 ] || skip "needs root to become another user"
	setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$ROOT/libexec/deps.list" ||
		skip "nobody cannot read this tree ($ROOT)"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		env PATH="$PATH" "$ROOT/libexec/deps.sh" vm
	[ "$status" -eq 1 ]
	[ "$stderr" = "mmdelta: missing packages and not root: apt-get install $(awk '{ sub(/#.*/, "") } $1 == "vm" { print $2 }' "$ROOT/libexec/deps.list" | paste -sd ' ')" ]
	[ ! -e "$RES/apt.log" ]
}
