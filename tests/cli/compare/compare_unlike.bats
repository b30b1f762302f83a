#!/usr/bin/env bats
# Runs that differ in more than the code under test: every format says what
# differs (resolved config keys, kernel command line, THP, machine) above its
# table, and the gate's line names it.

bats_require_minimum_version 1.5.0

setup() {
	FIX=$BATS_TEST_DIRNAME/../../fixtures/compare
	COMPARE=$BATS_TEST_DIRNAME/../../../compare.sh
	R=$BATS_TEST_TMPDIR/r
	mkdir -p "$R"
	# the baseline is the faster run, so that 'big' regresses by 76.59%
	cp -r "$FIX/3.11-rc3-1" "$R/base"
	cp -r "$FIX/3.11-rc3-0" "$R/big"
	rm -r "$R/base/heaprelease" "$R/big/heaprelease"
	config base 256M
	config big 512M
}

config() {	# config RUN SIZE: a resolved BENCH/config as run.sh writes it
	printf 'BENCH=timedmunlock\nITERATIONS=4\nSIZE=%s\nTHP=never\ncommand: bench/timedmunlock --size %s\n' \
		"$2" "$2" >"$R/$1/timedmunlock/config"
}

@test "--gate with SIZE 256M against 512M fails and says SIZE differs" {
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 --junit "$R/gate.xml" base big
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "Not the same in every run:" ]
	[ "${lines[1]}" = "  timedmunlock SIZE: 256M in base; 512M in big" ]
	[[ "${lines[-1]}" == "gate: timedmunlock elapsed big: REGRESSION (mean -76.59%, 95% CI ["*"], gate 5%, p="*"); differs from the baseline: SIZE 512M (baseline 256M)" ]]
	grep -q 'message="timedmunlock elapsed big: REGRESSION.*; differs from the baseline: SIZE 512M (baseline 256M)"' "$R/gate.xml"
}

@test "markdown, CSV and JSON say it too" {
	run --separate-stderr "$COMPARE" -o "$R" --format markdown base big
	[ "${lines[0]}" = "**Not the same in every run:**" ]
	[ "${lines[1]}" = "- timedmunlock SIZE: 256M in base; 512M in big" ]
	run --separate-stderr "$COMPARE" -o "$R" --format csv base big
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"mmstat: not the same in every run: timedmunlock SIZE: 256M in base; 512M in big"* ]]
	[[ "${lines[0]}" == bench,metric,* ]]
	run --separate-stderr "$COMPARE" -o "$R" --format json --gate 5 base big
	[ "$(jq -c '.differences' <<<"$output")" = '[{"bench":"timedmunlock","key":"SIZE","values":["256M","512M"]}]' ]
	[ "$(jq -r '.gate.results[0].differs' <<<"$output")" = "SIZE 512M (baseline 256M)" ]
}

@test "the kernel command line, THP and the machine are named; what is alike is not" {
	sed -i 's/^hostname: .*/hostname: other/' "$R/big/meta"
	printf 'cmdline: ro quiet mitigations=off\nthp_enabled: always\n' >>"$R/base/meta"
	printf 'cmdline: ro mitigations=auto\nthp_enabled: never\n' >>"$R/big/meta"
	config big 256M
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 base big
	[ "${lines[0]}" = "Not the same in every run:" ]
	[ "${lines[1]}" = "  cmdline: big adds mitigations=auto; drops quiet, mitigations=off" ]
	[ "${lines[2]}" = "  thp_enabled: always in base; never in big" ]
	[ "${lines[3]}" = "  hostname: fixture in base; other in big" ]
	[[ "${lines[4]}" == "What changed by 0.1% or more, big against base "* ]]
	[[ "${lines[-1]}" == *"; differs from the baseline: cmdline (adds mitigations=auto; drops quiet, mitigations=off), thp_enabled never (baseline always), hostname other (baseline fixture)" ]]
}

@test "runs alike in config and system get no such lines" {
	config big 256M
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 base big
	[[ "${lines[0]}" == "What changed by 0.1% or more, big against base "* ]]
	[[ "$output" != *"Not the same"* && "$output" != *"differs from the baseline"* ]]
}

@test "native runs of different machines are said on stderr; runs in a VM are not" {
	printf 'slurm_node: node1\n' >>"$R/base/meta"
	printf 'slurm_node: node2\n' >>"$R/big/meta"
	config big 256M
	run --separate-stderr "$COMPARE" -o "$R" base big
	[ "$status" -eq 0 ]
	[ "$stderr" = "mmstat: native runs of different machines (base: node1, big: node2): the differences include the machines', not only the kernels'" ]
	[ "${lines[1]}" = "  slurm_node: node1 in base; node2 in big" ]
	printf 'vm: qemu\n' >>"$R/big/meta"
	run --separate-stderr "$COMPARE" -o "$R" base big
	[ -z "$stderr" ]
}

@test "an icount run against a host run is refused naming each clock; --unlike-clocks says it first" {
	config big 256M
	printf 'vm: qemu\nvm_clock: icount\nclock: icount\n' >>"$R/big/meta"
	run --separate-stderr "$COMPARE" -o "$R" --gate 5 base big
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "mmstat: base and big: measured under different clocks (base: realtime, big: icount) do not compare; --unlike-clocks compares them anyway" ]
	run --separate-stderr "$COMPARE" -o "$R" --unlike-clocks base big
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "mmstat: comparing runs of different clocks (base: realtime, big: icount): their times and rates are not comparable" ]
	[ "${lines[0]}" = "Not the same in every run:" ]
	[ "${lines[1]}" = "  clock: realtime in base; icount in big" ]
	# a guest's wall clock is not the host's either
	sed -i '/clock: icount/d' "$R/big/meta"
	printf 'vm_clock: realtime\nclock: realtime\n' >>"$R/big/meta"
	run --separate-stderr "$COMPARE" -o "$R" base big
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"(base: realtime, big: realtime in a qemu guest)"* ]]
}
