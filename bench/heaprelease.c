/*
 * heaprelease - "missing madvise functionality" (linux-mm, 2007).  glibc
 * released the free top of a thread's heap with mprotect(PROT_READ|PROT_WRITE)
 * on reuse and mmap(PROT_NONE, MAP_FIXED) on release: both take mmap_sem for
 * writing, so threads of one process serialise and sleep on it.  The fix was
 * madvise(MADV_DONTNEED), which takes it only for reading.  The thread's
 * test, 1M iterations: 2 threads 80 s and ~140,000 context switches/s (old)
 * against 8 s and < 100/s (new); 1 thread 9.88 s against 4.55 s.
 */
#include "harness.h"
#include "cpus.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define MAX_THREADS 1024

enum pattern { PAT_MPROTECT, PAT_MADVISE, PAT_MADVFREE };

static int pattern;
static uint64_t nthreads = 2;
static uint64_t ops = 100000;
static uint64_t heap_size = 4096;
static int pin;

static char *heap;
static uint64_t heap_span;	/* the whole reservation: parts, reserves and holes */
static pthread_t threads[MAX_THREADS];
/* Each thread's own figures over its loop, for --raw-times. */
static struct {
	uint64_t ns[MAX_THREADS], cpu_ns[MAX_THREADS], vcs[MAX_THREADS], ivcs[MAX_THREADS], minflt[MAX_THREADS];
} own;
static uint64_t started;
static pthread_barrier_t start;
static struct rusage ru0;

static const struct bench_metric metrics[] = {
	{ "elapsed", "Elapsed", "s", LOWER_IS_BETTER },
	{ "ops_per_sec", "Ops/sec", "ops/s", HIGHER_IS_BETTER },
	{ "voluntary_cs", "Voluntary CS", "count", NEITHER_BETTER },
	{ "involuntary_cs", "Involuntary CS", "count", NEITHER_BETTER },
	{ "cs_per_sec", "CS/sec", "count/s", NEITHER_BETTER },
	{ "cpu_time", "CPU", "s", LOWER_IS_BETTER },
	{ "minor_faults", "Minor faults", "count", NEITHER_BETTER },
	{ NULL, NULL, NULL, 0 },
};

static struct bench_opt opts[] = {
	{ "pattern", OPT_CHOICE, &pattern, "mprotect|madvise|madvfree",
	  "how a thread releases its heap (mprotect: old glibc, madvise: MADV_DONTNEED, madvfree: MADV_FREE)", 0 },
	{ "threads", OPT_U64, &nthreads, NULL, "threads, each looping on its own part of the heap (default 2)", 0 },
	{ "ops", OPT_U64, &ops, NULL, "iterations per thread (default 100000; the thread's was 1000000)", 0 },
	{ "heap-size", OPT_SIZE, &heap_size, NULL, "bytes of heap per thread, a multiple of the page size (default 4096)", 0 },
	{ "pin", OPT_FLAG, &pin, NULL, "bind thread i to the i-th CPU this process may run on", 0 },
	{ NULL, 0, NULL, NULL, NULL, 0 },
};

static void touch(char *p)
{
	for (uint64_t off = 0; off < heap_size; off += bench_page_size())
		((volatile char *)p)[off] = 1;
}

/* The old glibc pattern: both calls take mmap_sem (mmap_lock) for writing. */
static int release_mprotect(char *p)
{
	if (mprotect(p, heap_size, PROT_READ | PROT_WRITE))
		return -1;
	touch(p);
	return mmap(p, heap_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED ? -1 : 0;
}

/* The fix: MADV_DONTNEED zaps the pages under mmap_lock held for reading. */
static int release_madvise(char *p)
{
	touch(p);
	return madvise(p, heap_size, MADV_DONTNEED);
}

/* MADV_FREE (4.5) frees lazily: a page written again before reclaim is kept. */
static int release_madvfree(char *p)
{
	touch(p);
	return madvise(p, heap_size, MADV_FREE);
}

static int (*const release[])(char *) = { release_mprotect, release_madvise, release_madvfree };

/*
 * Thread t's part of the heap.  Each part is followed by a page of its own
 * reserve, mapped as the part starts, and an unmapped hole, so that a
 * thread's VMAs split from and merge with its own reserve only, as
 * glibc's per-thread heap does with its PROT_NONE top.  Adjacent parts
 * split and merged with each other's VMAs as the threads happened to
 * interleave: the same operations cost different work from one iteration
 * to the next (1.3% of the region under icount on 6.12).
 */
static uint64_t part_stride(void)
{
	return heap_size + 2 * bench_page_size();
}

static char *part(uint64_t t)
{
	return heap + bench_page_size() + t * part_stride();
}

static uint64_t rusage_cpu_ns(const struct rusage *r)
{
	return (uint64_t)(r->ru_utime.tv_sec + r->ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(r->ru_utime.tv_usec + r->ru_stime.tv_usec) * 1000ull;
}

static void keep_own(uint64_t t, uint64_t ns, const struct rusage *r0, const struct rusage *r1)
{
	own.ns[t] = ns;
	own.cpu_ns[t] = rusage_cpu_ns(r1) - rusage_cpu_ns(r0);
	own.vcs[t] = (uint64_t)(r1->ru_nvcsw - r0->ru_nvcsw);
	own.ivcs[t] = (uint64_t)(r1->ru_nivcsw - r0->ru_nivcsw);
	own.minflt[t] = (uint64_t)(r1->ru_minflt - r0->ru_minflt);
}

/*
 * A thread's result: 0, or the errno of the call that failed.  Its loop is
 * a task region, and its own figures over the loop are kept.
 */
static void *worker(void *arg)
{
	uint64_t t = (uintptr_t)arg, i, t0, t1;
	char *p = part(t);
	int (*op)(char *) = release[pattern];
	struct rusage r0, r1;
	int err;

	pthread_barrier_wait(&start);
	getrusage(RUSAGE_THREAD, &r0);
	t0 = bench_now_ns();
	bench_task_begin();
	for (i = 0; i < ops && !op(p); i++)
		;
	bench_task_end();
	t1 = bench_now_ns();
	err = errno;
	getrusage(RUSAGE_THREAD, &r1);
	keep_own(t, t1 - t0, &r0, &r1);
	return i < ops ? (void *)(intptr_t)err : NULL;
}

static int check_options(void)
{
	if (!nthreads || nthreads > MAX_THREADS)
		return bench_fail("--threads %llu: must be between 1 and %d", (unsigned long long)nthreads, MAX_THREADS);
	if (!ops)
		return bench_fail("--ops 0: at least one iteration is needed");
	return bench_check_pages("heap-size", heap_size);
}

static int pin_attr(pthread_attr_t *attr, uint64_t i)
{
	cpu_set_t one;
	int cpu = cpus_nth_set(i, &one);

	if (cpu < 0)
		return bench_fail("sched_getaffinity failed: %m");
	errno = pthread_attr_setaffinity_np(attr, sizeof(one), &one);
	return errno ? bench_fail("pinning thread %llu to CPU %d failed: %m", (unsigned long long)i, cpu) : 0;
}

static int start_threads(void)
{
	pthread_attr_t attr;
	int err;

	if (pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1))
		return bench_fail("pthread_barrier_init failed: %m");
	for (; started < nthreads; started++) {
		pthread_attr_init(&attr);
		if (pin && pin_attr(&attr, started))
			return -1;
		err = pthread_create(&threads[started], &attr, worker, (void *)(uintptr_t)started);
		pthread_attr_destroy(&attr);
		if (err)
			return bench_fail("creating thread %llu failed: %s", (unsigned long long)started, strerror(err));
	}
	return 0;
}

/*
 * The old pattern starts from a PROT_NONE heap (glibc's reserved, released
 * top); the new ones from a read-write heap, as in the thread's test.
 */
static int check(void)
{
	if (check_options())
		return -1;
	/* With --cap-size an oversized heap shrinks per thread, in whole pages. */
	heap_size = bench_fit_pages("--threads x --heap-size", nthreads * heap_size) / nthreads;
	heap_size -= heap_size % bench_page_size();
	return heap_size ? 0 : -1;
}

static int setup(void)
{
	int prot = pattern == PAT_MPROTECT ? PROT_NONE : PROT_READ | PROT_WRITE;

	heap_span = bench_page_size() + nthreads * part_stride();
	heap = mmap(NULL, heap_span, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (heap == MAP_FAILED)
		return bench_fail("mmap of the %llu-byte heap failed: %m", (unsigned long long)heap_span);
	for (uint64_t t = 0; t <= nthreads; t++)
		if (munmap(t ? part(t - 1) + heap_size + bench_page_size() : heap, bench_page_size()))
			return bench_fail("munmap of a hole between the heap's parts failed: %m");
	if (nthreads > (uint64_t)sysconf(_SC_NPROCESSORS_ONLN))
		bench_note("%llu threads on %ld CPUs: they will also contend for the CPUs",
			   (unsigned long long)nthreads, sysconf(_SC_NPROCESSORS_ONLN));
	return start_threads();
}

static int join_threads(void)
{
	int failed = 0;

	for (uint64_t i = 0; i < started; i++) {
		void *ret;

		pthread_join(threads[i], &ret);
		if (ret && !failed) {
			failed = 1;
			errno = (int)(intptr_t)ret;
			bench_fail("thread %llu: %s failed: %m", (unsigned long long)i,
				   pattern == PAT_MPROTECT ? "mprotect/mmap(MAP_FIXED)" : "madvise");
		}
	}
	started = 0;
	return failed ? -1 : 0;
}

static double delta(long after, long before)
{
	return (double)(after - before);
}

static double seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* User and system time of every thread over the region. */
static double cpu_delta(const struct rusage *r1)
{
	return seconds(&r1->ru_utime) + seconds(&r1->ru_stime) - seconds(&ru0.ru_utime) - seconds(&ru0.ru_stime);
}

static void report(uint64_t ns, const struct rusage *r1)
{
	double s = (double)ns / 1e9;
	double cs = delta(r1->ru_nvcsw, ru0.ru_nvcsw) + delta(r1->ru_nivcsw, ru0.ru_nivcsw);

	bench_report("elapsed", s);
	bench_report("ops_per_sec", (double)(nthreads * ops) / s);
	bench_report("voluntary_cs", delta(r1->ru_nvcsw, ru0.ru_nvcsw));
	bench_report("involuntary_cs", delta(r1->ru_nivcsw, ru0.ru_nivcsw));
	bench_report("cs_per_sec", cs / s);
	bench_report("cpu_time", cpu_delta(r1));
	bench_report("minor_faults", delta(r1->ru_minflt, ru0.ru_minflt));
}

/*
 * The region starts before the barrier releases the threads: with a CPU
 * each, a thread starts its loop before this thread returns from the
 * barrier, and a clock read after it missed up to 2% of the loop (a
 * thread's own loop outlasted the region).
 * RUSAGE_SELF sums every thread, the exited ones included.  The barrier
 * itself costs at most one voluntary switch per thread.  The threads' own
 * figures (--raw-times) cover their loops alone: their sums are at most
 * the process's.
 */
static int measure(void)
{
	struct rusage r1;
	uint64_t t0, t1;

	getrusage(RUSAGE_SELF, &ru0);
	t0 = bench_region_start_ns();
	pthread_barrier_wait(&start);
	if (join_threads())
		return -1;
	t1 = bench_region_end_ns();
	getrusage(RUSAGE_SELF, &r1);
	report(t1 - t0, &r1);
	bench_raw("thread_elapsed", own.ns, nthreads);
	bench_raw("thread_cpu", own.cpu_ns, nthreads);
	bench_raw("thread_voluntary_cs", own.vcs, nthreads);
	bench_raw("thread_involuntary_cs", own.ivcs, nthreads);
	bench_raw("thread_minor_faults", own.minflt, nthreads);
	return 0;
}

static int teardown(void)
{
	if (munmap(heap, heap_span))
		return bench_fail("munmap of the heap failed: %m");
	return 0;
}

struct bench bench = {
	.name = "heaprelease",
	.description = "threads releasing their heap: mprotect + mmap(MAP_FIXED) against madvise(MADV_DONTNEED/MADV_FREE)",
	.metrics = metrics,
	.opts = opts,
	/* context switches and faults, the figures the thread argued with */
	.monitors = "perfstat",
	.check = check,
	.setup = setup,
	.measure = measure,
	.teardown = teardown,
};
