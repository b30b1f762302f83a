#!/usr/bin/env bats
# Configs, run names, paths and samples are data.  Shell
# code in any of them creates nothing and runs nothing; temporary files come
# from mktemp.  Each hostile value tries to create a file under $IN; the
# check is that no such file ever appears.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	common_setup
	IN=$(mktemp -d "${BATS_TMPDIR:-/tmp}/mmdelta-in.XXXXXX")
	# Each hostile string in three shell forms: $(), backquotes, ; and &&.
	HOSTILE="\$(touch $IN/pwned-dollar)\`touch $IN/pwned-backquote\`;touch $IN/pwned-semi&&id"
}
teardown() { rm -rf "$IN"; common_teardown; }

nothing_ran() {
	[ -z "$(find "$IN" -maxdepth 1 -name 'pwned*')" ] || { ls "$IN"; return 1; }
}

@test "hostile config values are refused where checked, kept literally where free text" {
	# No blanks: a DESCRIPTION with blanks is taken for a sweep (see docs/configs.md).
	local desc='$(id)`id`;id'
	printf 'BENCH=timedmunlock\nDESCRIPTION=%s\nSIZE=4M\nITERATIONS=1\nWARMUP=0\n' "$desc" >"$IN/cfg"
	# --dry-run: config_load, the driver and the bench's --check, without
	# waiting for another run.sh's machine lock.
	run --separate-stderr "$ROOT/run.sh" --dry-run -o "$IN/results \$(touch $IN/pwned-dir)" -n literal "$IN/cfg"
	[ "$status" -eq 0 ]
	nothing_ran
	grep -qxF "DESCRIPTION=$desc" <<<"$output"
	for key in LOCK MADVISE SIZE ITERATIONS THP NUMA MONITORS; do
		printf 'BENCH=timedmunlock\n%s=%s\n' "$key" "$HOSTILE" >"$IN/cfg"
		run --separate-stderr "$ROOT/run.sh" -o "$RES" "$IN/cfg"
		assert_one_line_error
		nothing_ran
	done
}

@test "hostile --set values and a hostile BENCH are refused and run nothing" {
	run --separate-stderr "$ROOT/run.sh" -o "$RES" --set "LOCK=$HOSTILE" timedmunlock
	assert_one_line_error
	printf 'BENCH=%s\n' "$HOSTILE" >"$IN/cfg"
	run --separate-stderr "$ROOT/run.sh" -o "$RES" "$IN/cfg"
	assert_one_line_error
	nothing_ran
}

@test "a hostile run name or config name is refused and runs nothing" {
	run --separate-stderr "$ROOT/run.sh" -o "$RES" -n "a$HOSTILE" timedmunlock
	assert_one_line_error
	run --separate-stderr "$ROOT/run.sh" -o "$RES" "$HOSTILE"
	assert_one_line_error
	nothing_ran
}

@test "hostile samples.tsv, metrics.tsv and meta are printed, never run, in every format" {
	local r f s
	for r in base new; do
		cp -r "$ROOT/tests/fixtures/compare/3.11-rc3-0" "$IN/$r"
		s=$IN/$r/timedmunlock/samples.tsv
		awk -F'\t' -v OFS='\t' -v p="$HOSTILE" 'NR > 1 { $2 = p } { print }' "$s" >"$s.new"
		mv "$s.new" "$s"
		awk -F'\t' -v OFS='\t' -v l="$HOSTILE" 'NR == 1 { $2 = l } { print }' \
			"$IN/$r/timedmunlock/metrics.tsv" >"$IN/m" && mv "$IN/m" "$IN/$r/timedmunlock/metrics.tsv"
		printf 'hostname: %s\n' "$HOSTILE" >>"$IN/$r/meta"
	done
	sed -i '2s/3.38$/3.18/' "$IN/new/timedmunlock/samples.tsv"
	for f in text markdown csv json; do
		run --separate-stderr "$ROOT/compare.sh" -o "$IN" --format "$f" base new
		[ "$status" -eq 0 ]
		[[ $output == *"touch $IN/pwned-backquote"* ]]
	done
	run --separate-stderr "$ROOT/compare.sh" -o "$IN" --html "$IN/html" base new
	[ "$status" -eq 0 ]
	[ -s "$IN/html/index.html" ]
	nothing_ran
}

@test "shell code makes temporary files with mktemp, never with fixed names" {
	cd "$ROOT"
	local -a files
	# guest-init.sh runs as the guest's init, alone in its own initramfs.
	mapfile -t files < <(ls run.sh compare.sh history.sh bisect.sh drivers/*/*.sh libexec/*.sh \
		reports/*/*.sh tools/*.sh tests/fuzz/*.sh 2>/dev/null | grep -v '^libexec/guest-init.sh$')
	run grep -nE '(^|[^$({A-Za-z_])/tmp/[A-Za-z]|\.tmp\b|\$\$\.' "${files[@]}"
	[ "$status" -eq 1 ] || { echo "$output"; return 1; }
}
