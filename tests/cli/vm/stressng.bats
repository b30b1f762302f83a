#!/usr/bin/env bats
# A stress-ng stressor under icount: two boots of one Debian 6.12 cloud
# kernel, in parallel, each running mremap (4 MiB, 5 bogo-ops) twice.  The
# region is the stressor's run inside stress-ng (bench/stressng.c), so the
# same work in every boot: the two boots' figures, stress-ng's own rate
# included, are the same to the last digit, and the insns monitor's count
# of the region reconciles with its elapsed.  Measured here: 3331588.4 and
# 3301095 ns a bogo-op in both boots, 187 s a boot (two at once).

bats_require_minimum_version 1.5.0
load ../helpers

ARGS=(--vm-clock icount --vm-timeout 2400 -i 2 --set WARMUP=0 --set WORKERS=1 --set OPS=5
	--set OPTIONS=--mremap-bytes=4M --monitors insns stress-ng-mremap)

setup_file() {
	local img b
	command -v stress-ng >/dev/null || skip "no stress-ng (apt-get install stress-ng)"
	debian_kernels
	make -s -C "$ROOT" all static
	img=$(awk -F'\t' '$1 == "6.12.117+deb12-cloud-amd64" { print $2 }' <<<"$KERNELS")
	[ -n "$img" ] || img=$(grep '^6\.12\.' <<<"$KERNELS" | head -n 1 | cut -f2)
	S_RES=$BATS_FILE_TMPDIR/results
	export S_RES
	for b in a b; do
		"$ROOT/run.sh" --kernel "$img" -o "$S_RES" -n "$b" "${ARGS[@]}" 2>"$BATS_FILE_TMPDIR/$b.err" &
	done
	wait
}

setup() { common_setup; }
teardown() { common_teardown; }

figures() { awk -F'\t' -v m="$2" '$1 == m { print $4 }' "$S_RES/$1/stressng/samples.tsv"; }

@test "both boots ran stress-ng in the guest, its version in meta, the region counted by the insns monitor" {
	tail -n 3 "$BATS_FILE_TMPDIR"/*.err
	local b
	for b in a b; do
		[ "$(figures "$b" ns_per_bogo_op | wc -l)" -eq 2 ]
		[ "$(figures "$b" ops | sort -u)" = 5 ]
		grep -qx "wrapped_stress-ng: $(stress-ng --version | awk '{ print $3 }')" "$S_RES/$b/meta"
		[ "$(figures "$b" insns_total | wc -l)" -eq 2 ]
		grep -q 'insns: 2 processes profiled; 2 regions against their elapsed: all reconcile' "$BATS_FILE_TMPDIR/$b.err"
	done
}

@test "two boots give mremap's figures, and stress-ng's own, to the last digit" {
	local m
	for m in ns_per_bogo_op elapsed ops_per_sec wall_clock_time insns_total; do
		echo "$m: a $(figures a "$m" | paste -sd' '), b $(figures b "$m" | paste -sd' ')"
		[ "$(figures a "$m")" = "$(figures b "$m")" ]
	done
}
