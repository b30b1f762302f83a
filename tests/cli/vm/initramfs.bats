#!/usr/bin/env bats
# A --kernel guest's initramfs (drivers/vm/initramfs.sh): the gzipped
# archive of the userland and the suite is built once and kept by its
# contents' hash (XDG_CACHE_HOME), a changed staged file builds another, and
# perf goes in only when a monitor of the run runs it.  The run's configs and
# arguments follow in a plain archive.  Nothing boots.

bats_require_minimum_version 1.5.0
load ../helpers

setup_file() {
	make -s -C "$ROOT" static
}

setup() {
	common_setup
	export XDG_CACHE_HOME=$RES/cache
	KEPT=$RES/cache/mmdelta/initramfs
}
teardown() { common_teardown; }

# build OUT MONITORS [VAR=VALUE...]: the initramfs of a timedmunlock run.
build() {
	local out=$1 monitors=$2; shift 2
	env "$@" bash -c 'source "$1/drivers/vm/vm.sh"
		CONFIGS=("$1/configs/timedmunlock") SETS=("MONITORS=$2") VM_KERNEL=k VM_CLOCK=icount
		vm_initramfs_build "$3" timedmunlock
		echo "$VM_INITRAMFS_HOW $VM_INITRAMFS_BASE"' _ "$ROOT" "$monitors" "$out"
}

# The files of the gzipped archive at PATH.
listing() { gzip -dc <"$1" | cpio -it --quiet; }

@test "a second run reuses the kept archive; a changed staged file builds another" {
	run build "$RES/a" vmstat
	[ "$status" -eq 0 ]
	[[ $output == "built $KEPT/"*.cpio.gz ]]
	first=${output#built }
	[ "$(find "$KEPT" -name '*.cpio.gz' | wc -l)" -eq 1 ]
	run build "$RES/b" vmstat
	[ "$output" = "kept $first" ]
	# the same bytes: the guest unpacks the same work
	cmp "$RES/a" "$RES/b"
	# a staged file that changed (here bash-static, one byte longer)
	cp /bin/bash-static "$RES/bash-static"
	printf x >>"$RES/bash-static"
	run build "$RES/c" vmstat MMDELTA_BASH_STATIC="$RES/bash-static"
	[[ $output == "built $KEPT/"*.cpio.gz ]]
	[ "${output#built }" != "$first" ]
	[ "$(find "$KEPT" -name '*.cpio.gz' | wc -l)" -eq 2 ]
	run cmp "$RES/a" "$RES/c"
	[ "$status" -ne 0 ]
}

@test "perf is staged only for a monitor that runs it" {
	command -v perf >/dev/null || skip "no perf on this host to stage"
	run build "$RES/a" vmstat
	listing "${output#* }" >"$RES/without"
	run build "$RES/b" vmstat,perfstat
	listing "${output#* }" >"$RES/with"
	perf=$(command -v perf)
	grep -qx "${perf#/}" "$RES/with"
	run grep -qx "${perf#/}" "$RES/without"
	[ "$status" -ne 0 ]
	# the rest of the userland is the same
	[ "$(grep -c . "$RES/with")" -gt "$(grep -c . "$RES/without")" ]
	grep -qx usr/bin/awk "$RES/without"
}

@test "the run's configs and arguments follow the kept archive, which holds none" {
	run build "$RES/a" vmstat
	base=${output#* }
	size=$(stat -c %s "$base")
	# the kept archive is the initramfs's start, byte for byte
	cmp -n "$size" "$base" "$RES/a"
	run listing "$base"
	[[ $output != *vm-args* ]] && [[ $output != *vm-configs* ]]
	mkdir "$RES/x"
	(cd "$RES/x" && tail -c +$((size + (4 - size % 4) % 4 + 1)) "$RES/a" | cpio -i --quiet -d)
	[ -f "$RES/x/mmdelta/vm-args" ]
	[ -f "$RES/x/vm-configs/1/timedmunlock" ]
}
