/*
 * timedmunlock - "Improving munlock() performance for large non-THP areas"
 * (linux-mm, 2013).  Map an area locked and populated, then time munlock()
 * of the whole of it.  The thread's figures, 56 GB: 3.39 s before the
 * 7-patch series, 1.92 s after; 0.01 s with THP.
 */
#include "harness.h"

#include <sys/mman.h>

static uint64_t size = 56ull << 30;
static int lock_mode;		/* 0: MAP_LOCKED|MAP_POPULATE, 1: mmap then mlock() */
static int advice;		/* 0: none, 1: MADV_HUGEPAGE, 2: MADV_NOHUGEPAGE */
static void *area;

static const struct bench_metric metrics[] = {
	{ "elapsed", "Elapsed", "s", LOWER_IS_BETTER },
	{ "ns_per_page", "ns/page", "ns", LOWER_IS_BETTER },
	{ "munlock_cpu", "Munlock CPU", "s", LOWER_IS_BETTER },
	{ "populate_elapsed", "Populate", "s", LOWER_IS_BETTER },
	{ "munmap_elapsed", "Munmap", "s", LOWER_IS_BETTER },
	{ "pages", "Pages", "count", NEITHER_BETTER },
	{ NULL, NULL, NULL, 0 },
};

static struct bench_opt opts[] = {
	{ "size", OPT_SIZE, &size, NULL, "bytes to lock and munlock (default 56G, the thread's)", 0 },
	{ "lock", OPT_CHOICE, &lock_mode, "map_locked|mlock", "how the area is locked", 0 },
	{ "madvise", OPT_CHOICE, &advice, "none|hugepage|nohugepage", "advice on the area before it is locked", 0 },
	{ NULL, 0, NULL, NULL, NULL, 0 },
};

static int check(void)
{
	size = bench_fit_pages("--size", size);
	if (size)
		size = bench_fit_memlock("--size", size);
	return size ? 0 : -1;
}

static int setup(void)
{
	int mflags = MAP_PRIVATE | MAP_ANONYMOUS;
	uint64_t t0;
	/* Advice must precede population to decide the page size of the fault-in. */
	if (lock_mode == 0 && advice == 0)
		mflags |= MAP_LOCKED | MAP_POPULATE;

	t0 = bench_now_ns();
	area = mmap(NULL, size, PROT_READ | PROT_WRITE, mflags, -1, 0);
	if (area == MAP_FAILED)
		return bench_fail("mmap of %llu bytes failed: %m", (unsigned long long)size);
	if (advice && madvise(area, size, advice == 1 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE))
		return bench_fail("madvise(%s) failed: %m", advice == 1 ? "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE");
	if ((lock_mode == 1 || advice) && mlock(area, size))
		return bench_fail("mlock of %llu bytes failed: %m", (unsigned long long)size);
	bench_report_ns("populate_elapsed", bench_now_ns() - t0);
	return 0;
}

/* The CPU clock, a system call, is read outside the wall-clock reads. */
static int measure(void)
{
	uint64_t t0, t1, cpu;
	int ret;

	cpu = bench_thread_cpu_ns();
	t0 = bench_region_start_ns();
	ret = munlock(area, size);
	t1 = bench_region_end_ns();
	cpu = bench_thread_cpu_ns() - cpu;
	if (ret)
		return bench_fail("munlock failed: %m");
	bench_report_ns("elapsed", t1 - t0);
	bench_report("ns_per_page", (double)(t1 - t0) / (double)(size / bench_page_size()));
	bench_report_ns("munlock_cpu", cpu);
	bench_report("pages", (double)(size / bench_page_size()));
	return 0;
}

static int teardown(void)
{
	uint64_t t0 = bench_now_ns();

	if (munmap(area, size))
		return bench_fail("munmap failed: %m");
	bench_report_ns("munmap_elapsed", bench_now_ns() - t0);
	return 0;
}

struct bench bench = {
	.name = "timedmunlock",
	.description = "munlock() of a MAP_LOCKED|MAP_POPULATE (or mlock()ed) anonymous area",
	.metrics = metrics,
	.opts = opts,
	/* unevictable_pgs_munlocked and the rest over the munlock alone */
	.monitors = "vmstat",
	.check = check,
	.setup = setup,
	.measure = measure,
	.teardown = teardown,
};
