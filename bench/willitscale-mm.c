/*
 * will-it-scale's memory-management tests, the ones the kernel test robot
 * reports on for mm/: each loop as will-it-scale's tests/NAME.c does it.
 */
#include "harness.h"
#include "tasks.h"
#include "willitscale-tests.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)

WIS_TEST(page_fault1, .description = "Anonymous memory page fault",
	 .map = ANON, .pages = PAGES_WRITE, .loops = 1);
WIS_TEST(page_fault2, .description = "Separate file private mapping page fault",
	 .map = MAP_PRIVATE, .file = 1, .pages = PAGES_WRITE, .loops = 1);
WIS_TEST(page_fault3, .description = "Separate file shared mapping page fault",
	 .map = MAP_SHARED, .file = 1, .pages = PAGES_WRITE, .loops = 1);
WIS_TEST(mmap1, .description = "Anonymous memory mmap/munmap of 128MB",
	 .map = ANON, .loops = 10000);
WIS_TEST(mmap2, .description = "Separate file mmap/munmap of 128MB",
	 .map = MAP_PRIVATE, .file = 1, .loops = 10000);
WIS_TEST(tlb_flush1, .description = "TLB flush of separate file private mapping",
	 .map = MAP_PRIVATE, .file = 1, .pages = PAGES_DONTNEED, .loops = 1);
WIS_TEST(tlb_flush2, .description = "TLB flush of anonymous memory private mapping",
	 .map = ANON, .size = 1 << 20, .pages = PAGES_DONTNEED, .loops = 100);
WIS_TEST(tlb_flush3, .description = "TLB flush of separate file shared mapping",
	 .map = MAP_SHARED, .file = 1, .pages = PAGES_DONTNEED, .loops = 1);

/* Each task moves its break up a page and back: two operations a loop. */
static int brk_prepare(struct wis_task *t)
{
	t->brk = sbrk(0);
	return t->brk == (void *)-1 ? task_fail("sbrk(0) failed: %m") : 0;
}

static int brk_loop(struct wis_task *t)
{
	if (brk(t->brk + bench_page_size()))
		return task_fail("brk up a page failed: %m");
	return brk(t->brk) ? task_fail("brk back down failed: %m") : 0;
}

WIS_TEST(brk1, .description = "brk increase/decrease of one page",
	 .prepare = brk_prepare, .loop = brk_loop, .ops_per_loop = 2, .loops = 20000);

/*
 * glibc serves 128 MiB with mmap and munmap.  The empty asm uses the pointer,
 * so the compiler cannot drop a malloc whose memory is never touched.
 */
static int malloc_loop(struct wis_task *t)
{
	void *p = malloc(WIS_MEMSIZE);

	(void)t;
	if (!p)
		return task_fail("malloc of 128 MiB failed: %m");
	__asm__ volatile("" : : "r"(p) : "memory");
	free(p);
	return 0;
}

/* The robot runs malloc1 as processes only (its will-it-scale jobs). */
WIS_TEST(malloc1, .description = "malloc/free of 128MB", .process_only = 1,
	 .loop = malloc_loop, .ops_per_loop = 1, .loops = 1000);

static void write_pages(volatile char *p, uint64_t size, uint64_t page)
{
	for (uint64_t off = 0; off < size; off += page)
		p[off] = 0;
}

/*
 * tlb_flush1-3: each page written, zapped, and read back, which faults it
 * in again: 0 from a private mapping (a fresh zero page, the file unwritten),
 * 1 from a shared one (the file's page kept its byte).
 */
static int dontneed_pages(volatile char *p, uint64_t size, uint64_t page, char expect)
{
	for (uint64_t off = 0; off < size; off += page) {
		p[off] = 1;
		if (madvise((char *)p + off, page, MADV_DONTNEED))
			return task_fail("madvise(MADV_DONTNEED) failed: %m");
		if (p[off] != expect)
			return task_fail("the page at +%llu read %d after MADV_DONTNEED, not %d",
					 (unsigned long long)off, p[off], expect);
	}
	return 0;
}

int wis_map_loop(const struct wis_test *w, struct wis_task *t)
{
	uint64_t size = w->size ? w->size : WIS_MEMSIZE, page = bench_page_size();
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, w->map, t->fd, 0);
	int rc = 0;

	if (p == MAP_FAILED)
		return task_fail("mmap of %llu bytes failed: %m", (unsigned long long)size);
	if (w->pages == PAGES_WRITE)
		write_pages(p, size, page);
	else if (w->pages == PAGES_DONTNEED)
		rc = dontneed_pages(p, size, page, (w->map & MAP_SHARED) ? 1 : 0);
	if (munmap(p, size))
		return task_fail("munmap of %llu bytes failed: %m", (unsigned long long)size);
	return rc;
}
