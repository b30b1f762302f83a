#!/usr/bin/env bats
# run.sh --add N -n NAME: more counted iterations for a complete run, with
# the options it resolved, numbered on from its last; refused in one line
# when the kernel, its command line or the machine differ from meta's.

bats_require_minimum_version 1.5.0
load ../helpers

setup_file() {
	export BASE_RES
	BASE_RES=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-add.XXXXXX")
	"$ROOT/run.sh" -n base -o "$BASE_RES" -i 3 --set SIZE=8M --set WARMUP=0 timedmunlock >/dev/null 2>&1
}
teardown_file() { rm -rf "$BASE_RES"; }

setup() {
	common_setup
	cp -a "$BASE_RES/base" "$RES/base"
}
teardown() { common_teardown; }

iterations() { awk -F'\t' '$1 == "elapsed" { print $3 }' "$RES/base/timedmunlock/samples.tsv" | paste -sd' '; }

@test "--add appends counted iterations, numbered on, with the resolved options" {
	cmd=$(grep '^command: ' "$RES/base/timedmunlock/config")
	run --separate-stderr "$ROOT/run.sh" -n base -o "$RES" --add 2
	[ "$status" -eq 0 ]
	[ "$(iterations)" = "1 2 3 4 5" ]
	[ "$(grep '^command: ' "$RES/base/timedmunlock/config")" = "$cmd" ]
	grep -q '^added: 2 iterations on ' "$RES/base/timedmunlock/config"
	grep -q '^iterations_added: 2 on .*; $' "$RES/base/meta"
	grep -q '^status: complete$' "$RES/base/meta"
	[ ! -e "$RES/.base.partial" ]
	# every metric got its rows, and compare.sh reads the run as before
	[ "$(awk -F'\t' '$1 == "ns_per_page"' "$RES/base/timedmunlock/samples.tsv" | wc -l)" -eq 5 ]
	run --separate-stderr "$ROOT/compare.sh" -o "$RES" base base
	[ "$status" -eq 0 ]
}

@test "--add is refused when the kernel, command line or machine differ, and nothing changes" {
	before=$(results_digest)
	for key in kernel_version cmdline hostname cpu_model; do
		cp "$RES/base/meta" "$BATS_TEST_TMPDIR/meta"
		sed -i "s/^$key: .*/$key: elsewhere/" "$RES/base/meta"
		run --separate-stderr "$ROOT/run.sh" -n base -o "$RES" --add 2
		assert_one_line_error
		[[ $stderr == "mmdelta: --add: run 'base' was measured with $key 'elsewhere', this system has '"* ]]
		cp "$BATS_TEST_TMPDIR/meta" "$RES/base/meta"
	done
	[ "$(results_digest)" = "$before" ]
	[ ! -e "$RES/.base.partial" ]
}

@test "--add refuses what would change the run or its verdict" {
	run --separate-stderr "$ROOT/run.sh" -n base -o "$RES" --add 2 -i 3
	assert_one_line_error
	[ "$stderr" = "mmdelta: --add runs the run's own configs: no -i, --set, --monitors, --baseline, --gate or --kernel" ]
	run --separate-stderr "$ROOT/run.sh" -n nosuch -o "$RES" --add 2
	assert_one_line_error
	run --separate-stderr "$ROOT/run.sh" -n base -o "$RES" --add 0
	assert_one_line_error
	run --separate-stderr "$ROOT/run.sh" -n base -o "$RES" --add 2 heaprelease
	assert_one_line_error
	[ "$stderr" = "mmdelta: --add: run 'base' has no bench 'heaprelease'" ]
	echo 'sequential: max=30 alpha=0.05 baseline=x gate=5%' >>"$RES/base/timedmunlock/config"
	run --separate-stderr "$ROOT/run.sh" -n base -o "$RES" --add 2
	assert_one_line_error
	[[ $stderr == *"was gated sequentially (run.sh --baseline): more iterations would void its verdict" ]]
	sed -i 's/^status: complete$/status: interrupted/' "$RES/base/meta"
	run --separate-stderr "$ROOT/run.sh" -n base -o "$RES" --add 2
	assert_one_line_error
	[ "$stderr" = "mmdelta: --add: $RES/base is not a complete run (status: interrupted)" ]
}
