#!/usr/bin/env bats
# How far heaprelease (2 threads, both patterns) and procmunmap repeat
# between the iterations of one boot under icount, and what an iteration no
# longer inherits from the one before (docs/measurement.md, "Exact under
# icount: what each iteration inherits").  One boot of Debian's 6.12.117,
# whose per-CPU page lists auto-tune their high mark (6.7 and later), at
# small sizes: two iterations after the warm-up, with the insns monitor,
# whose per-function counts are the kernel's own record of the work.

bats_require_minimum_version 1.5.0
load ../helpers

setup_file() {
	local img
	debian_kernels
	make -s -C "$ROOT" all static
	img=$(awk -F'\t' '$1 == "6.12.117+deb12-cloud-amd64" { print $2 }' <<<"$KERNELS")
	[ -n "$img" ] || skip "Debian's 6.12.117 cloud kernel is not in the list"
	E_RES=$BATS_FILE_TMPDIR/results
	export E_RES
	"$ROOT/run.sh" --kernel "$img" -o "$E_RES" -n exact -i 2 --monitors insns \
		--set heaprelease.OPS=2000 --set procmunmap.SIZE=64M heaprelease procmunmap \
		2>"$BATS_FILE_TMPDIR/run.err"
}

setup() { common_setup; }
teardown() { common_teardown; }

# BENCH's METRIC at PARAM in counted iteration N.
figure() {
	awk -F'\t' -v m="$2" -v p="$3" -v n="$4" '$1 == m && $2 == p && $3 == n { print $4 }' \
		"$E_RES/exact/$1/samples.tsv"
}

# The instructions FUNCTION took in BENCH's region of iteration N (0 if none).
insns() {
	awk -F'\t' -v f="$2" '$1 == f { n = $2 } END { print n + 0 }' "$E_RES/exact/$1/monitors/insns.$3.tsv"
}

# Whether A and B are within REL of each other, relative to the smaller.
within() {
	echo "$1 $2 within $3"
	awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { m = a < b ? a : b; d = a - b; if (d < 0) d = -d; exit !(m > 0 && d / m <= r) }'
}

@test "the boot completes: two counted iterations of each bench, each settled" {
	tail -n 3 "$BATS_FILE_TMPDIR/run.err"
	local b
	for b in heaprelease procmunmap; do
		grep -q '^command[^:]*: .* --settle$' "$E_RES/exact/$b/config"
	done
	[ "$(awk -F'\t' '$1 == "elapsed"' "$E_RES/exact/heaprelease/samples.tsv" | wc -l)" -eq 4 ]
	[ "$(awk -F'\t' '$1 == "elapsed"' "$E_RES/exact/procmunmap/samples.tsv" | wc -l)" -eq 2 ]
}

# Before the settle step decayed the lists, the munmap's frees met a high
# mark that the iteration before had left, tuned up to an eighth of the
# zone by its populate: every other munmap kept all its 16,384 pages on the
# list and freed none to the buddy lists (free_pcppages_bulk 0 against
# 0.5-0.8 M instructions in the others).
@test "procmunmap: each iteration's munmap frees past the same per-CPU list floor" {
	local a b
	a=$(insns procmunmap free_pcppages_bulk 1)
	b=$(insns procmunmap free_pcppages_bulk 2)
	[ "$a" -gt 0 ] && [ "$b" -gt 0 ]
	within "$a" "$b" 0.2
}

# The guest's CPU has RDRAND (drivers/vm/accel.sh), so the kernel seeds its
# CRNG at boot.  Without it the CRNG was seeded 8 to 30 s after /init, by
# interrupts, and until then every random draw hashed the whole input pool
# (extract_entropy): 4% of heaprelease's mprotect region at 100,000
# operations, varying with how many new slabs it shuffled.  Seeded, the
# CRNG still reseeds itself on a schedule, once (crng_reseed, about 10,000
# instructions of hashing), in whichever region the guest's clock puts it.
@test "the guest's CRNG is seeded before /init: no heaprelease region hashes the input pool" {
	local console=$E_RES/exact/vm-console.log f
	grep -n 'crng init done\|Run /init' "$console"
	[ "$(grep -n 'crng init done' "$console" | cut -d: -f1)" -lt "$(grep -n 'Run /init' "$console" | cut -d: -f1)" ]
	for f in "$E_RES"/exact/heaprelease/monitors/insns.PATTERN=*.tsv; do
		awk -F'\t' '$1 == "extract_entropy" || $1 ~ /^_*blake2s/ { n += $2 } END { print FILENAME ": " n + 0; exit !(n < 100000) }' "$f"
	done
}

# A tick that preempts a thread inside its madvise's TLB gather makes the
# other thread's madvises flush the whole TLB for a slice: at 2,000
# operations the two iterations were 1.2e-3 and 1.4e-3 apart in two boots.
@test "heaprelease madvise: elapsed within the spread its preempted TLB gathers leave" {
	within "$(figure heaprelease elapsed madvise 1)" "$(figure heaprelease elapsed madvise 2)" 5e-3
}

# The mprotect pattern's spread is the same mechanism with mmap_lock: a tick
# that preempts a thread holding it for writing blocks the other at once.
# At 2,000 operations 4.8e-4 and 5.6e-4 apart in two boots (before the
# guest's CRNG was seeded at boot, 2.3% over 4 iterations).
@test "heaprelease mprotect: elapsed within the spread its preempted lock holders leave" {
	within "$(figure heaprelease elapsed mprotect 1)" "$(figure heaprelease elapsed mprotect 2)" 5e-3
}

# procmunmap's primary metric, the mean of the reads during the munmap: at
# 64M about 100 reads, so one read the tick preempts moves it by a percent
# or two (14.800 and 15.046 us), where it sets the longest (20.5 and 46.2 us).
@test "procmunmap: the mean read within the spread one preempted read leaves" {
	within "$(figure procmunmap reader_mean - 1)" "$(figure procmunmap reader_mean - 2)" 5e-2
}

# The work itself repeats exactly: the functions each operation calls the
# same way take the same instructions in both iterations.  What differs
# is where the tick fell: the TLB flushes a preempted gather chose, the
# buddy merges the readers' turns moved (docs/vm.md, resolution).
@test "the syscalls' own work is exact: the same instructions in both iterations" {
	local f
	for f in do_madvise clear_page_rep do_anonymous_page; do
		echo "madvise $f: $(insns heaprelease "$f" PATTERN=madvise.1) $(insns heaprelease "$f" PATTERN=madvise.2)"
		[ "$(insns heaprelease "$f" PATTERN=madvise.1)" -gt 0 ]
		[ "$(insns heaprelease "$f" PATTERN=madvise.1)" = "$(insns heaprelease "$f" PATTERN=madvise.2)" ]
	done
	for f in do_mprotect_pkey change_protection __split_vma; do
		echo "mprotect $f: $(insns heaprelease "$f" PATTERN=mprotect.1) $(insns heaprelease "$f" PATTERN=mprotect.2)"
		[ "$(insns heaprelease "$f" PATTERN=mprotect.1)" -gt 0 ]
		[ "$(insns heaprelease "$f" PATTERN=mprotect.1)" = "$(insns heaprelease "$f" PATTERN=mprotect.2)" ]
	done
	for f in folio_remove_rmap_ptes lru_gen_del_folio __page_cache_release; do
		echo "procmunmap $f: $(insns procmunmap "$f" 1) $(insns procmunmap "$f" 2)"
		[ "$(insns procmunmap "$f" 1)" -gt 0 ]
		[ "$(insns procmunmap "$f" 1)" = "$(insns procmunmap "$f" 2)" ]
	done
}
