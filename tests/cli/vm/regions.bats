#!/usr/bin/env bats
# Every timed phase is a region the insns monitor counts (bench/lib/harness.h):
# one boot of the newest 6.12 cloud kernel under icount runs sparsemunmap
# (each munmap of its cycles a timed region), heaprelease's mprotect pattern
# (each thread's loop a task region) and procmunmap (each read the readers
# start during the munmap a task region), two iterations each, with the
# monitor on.

bats_require_minimum_version 1.5.0
load ../helpers

CYCLES=5

setup_file() {
	debian_kernels
	make -s -C "$ROOT" all static build/lib/insns-plugin.so build/bin/mmprofile
	local img
	img=$(grep '^6\.12\.' <<<"$KERNELS" | tail -n 1 | cut -f2)
	G_RES=$BATS_FILE_TMPDIR/results
	export G_RES
	"$ROOT/run.sh" --kernel "$img" -o "$G_RES" -n regions --vm-clock icount -i 2 --monitors vmstat,insns \
		--set WARMUP=0 --set sparsemunmap.SIZE=1T --set sparsemunmap.CYCLES=$CYCLES \
		--set heaprelease.PATTERN=mprotect --set heaprelease.OPS=2000 --set procmunmap.SIZE=64M \
		sparsemunmap heaprelease procmunmap 2>"$BATS_FILE_TMPDIR/run.err"
}

setup() { common_setup; }
teardown() { common_teardown; }

# insns.tsv's field $2 for bench $1's counted iterations, one a line.
field() { awk -F'\t' -v b="$1" -v f="$2" '$1 == b { print $f }' "$G_RES/regions/insns.tsv"; }
# The count of function $3 in bench $1's table $2 (insns or insns-tasks) of iteration 1.
count() { awk -F'\t' -v f="$3" '$1 == f { print $2 }' "$G_RES/regions/$1/monitors/$2.1.tsv"; }
table_sum() { awk -F'\t' '{ s += $2 } END { print s }' "$1"; }

@test "regions: every begin met its end, and each bench's processes were counted" {
	grep -qx 'unpaired_markers: 0' "$G_RES/regions/insns-plugin.summary"
	[ "$(awk -F'\t' 'NR > 1 && $3 > 0' "$G_RES/regions/insns.tsv" | wc -l)" -eq 6 ]
}

@test "regions: sparsemunmap's munmaps are its regions, one a cycle, and its table is the munmap walk" {
	[ "$(field sparsemunmap 3 | paste -sd ' ')" = "$CYCLES $CYCLES" ]
	# the page-table walk and the VMA tree of munmap, none of mmap's
	[ -n "$(count sparsemunmap insns unmap_page_range)" ]
	[ -n "$(count sparsemunmap insns free_pgd_range)" ]
	[ -n "$(count sparsemunmap insns do_vmi_align_munmap)" ]
	[ -z "$(count sparsemunmap insns mmap_region)$(count sparsemunmap insns __mmap_region)" ]
	# several regions: not reconciled against the median
	[ "$(field sparsemunmap 11 | paste -sd ' ')" = "- -" ]
}

@test "regions: heaprelease's two threads' loops are task regions inside its timed region" {
	[ "$(field heaprelease 12 | paste -sd ' ')" = "2 2" ]
	for it in 1 2; do
		t=$(table_sum "$G_RES/regions/heaprelease/monitors/insns-tasks.$it.tsv")
		r=$(table_sum "$G_RES/regions/heaprelease/monitors/insns.$it.tsv")
		echo "iteration $it: tasks $t, region $r"
		[ "$t" -gt 0 ] && [ "$t" -le "$r" ]
	done
	[ -n "$(count heaprelease insns-tasks do_mprotect_pkey)" ]
	# the timed region still reconciles with its elapsed
	[ "$(field heaprelease 11 | paste -sd ' ')" = "ok ok" ]
}

@test "regions: procmunmap's reads during the munmap are task regions, and their table is the readers' work" {
	local reads
	for it in 1 2; do
		reads=$(awk -F'\t' -v i="$it" '$1 == "reader_reads" && $3 == i { print $4 }' "$G_RES/regions/procmunmap/samples.tsv")
		n=$(field procmunmap 12 | sed -n "${it}p")
		echo "iteration $it: $n task regions, $reads reads in the window"
		# reader_reads also counts the read each of the 2 readers had under way at the start
		[ "$n" -gt 0 ] && [ "$n" -le "$reads" ] && [ "$reads" -le $((n + 2)) ]
	done
	[ -n "$(count procmunmap insns-tasks proc_pid_cmdline_read)" ]
	[ -n "$(count procmunmap insns-tasks __access_remote_vm)" ]
	[ "$(field procmunmap 11 | paste -sd ' ')" = "ok ok" ]
}
