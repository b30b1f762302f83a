/*
 * procmunmap - "zap pages with read mmap_sem in munmap for large mapping"
 * (linux-mm, 2018).  munmap() of 80 GB took 2.49 s in unmap_region with
 * mmap_sem held for writing the whole time, so anything reading
 * /proc/PID/cmdline of the process (ps) blocked behind it: ps hung for more
 * than 120 s at 320 GB.  The series zapped the pages under the read lock
 * (mainline later downgrades the lock in munmap); the exclusive hold went
 * from seconds to microseconds.
 *
 * Here READERS processes loop reading /proc/PID/FILE of this process
 * (procmunmap-readers.c) through an idle window, then through the munmap.
 */
#include "harness.h"
#include "procmunmap-readers.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_FAULT_THREADS 64
#define FAULT_AREA (16ull << 20)	/* what each --fault-threads thread faults in */

static uint64_t size = 80ull << 30;
static uint64_t nreaders = 2;
static const char *proc_files = "cmdline";
static uint64_t chunk;
static uint64_t nfault = 0;
static uint64_t idle_ms = 200;
static int reader_cpus;		/* 0: any, 1: others */
static uint64_t gap_us;

static char *area;
static pthread_t fault_threads[MAX_FAULT_THREADS];
static pthread_barrier_t fault_start;
static _Atomic int faulting;
static _Atomic uint64_t fault_pages;
static uint64_t idle_win[2], munmap_win[2];

/*
 * The first metric is the thread's: what a /proc reader pays while the
 * munmap runs.  The mean of every read under way during it: a reader held
 * behind the lock moves it by its whole wait, while one read preempted on
 * the readers' CPU moves it by 1/N of that, where it sets reader_max.
 */
static const struct bench_metric metrics[] = {
	{ "reader_mean", "Read mean", "s", LOWER_IS_BETTER },
	{ "elapsed", "Elapsed", "s", LOWER_IS_BETTER },
	{ "ns_per_page", "ns/page", "ns", LOWER_IS_BETTER },
	{ "munmap_cpu", "Munmap CPU", "s", LOWER_IS_BETTER },
	{ "munmap_call_max", "Longest call", "s", LOWER_IS_BETTER },
	{ "populate_elapsed", "Populate", "s", LOWER_IS_BETTER },
	{ "pages", "Pages", "count", NEITHER_BETTER },
	{ "reader_max", "Read max", "s", LOWER_IS_BETTER },
	{ "reader_p99", "Read p99", "s", LOWER_IS_BETTER },
	{ "reader_p50", "Read p50", "s", LOWER_IS_BETTER },
	{ "reader_reads", "Reads", "count", HIGHER_IS_BETTER },
	{ "idle_reader_max", "Idle read max", "s", LOWER_IS_BETTER },
	{ "idle_reader_p50", "Idle read p50", "s", LOWER_IS_BETTER },
	{ "fault_pages", "Faulted pages", "count", HIGHER_IS_BETTER },
	{ NULL, NULL, NULL, 0 },
};

static struct bench_opt opts[] = {
	{ "size", OPT_SIZE, &size, NULL, "bytes to populate and munmap (default 80G, the thread's)", 0 },
	{ "readers", OPT_U64, &nreaders, NULL, "processes reading /proc/PID/FILE in a loop (default 2)", 0 },
	{ "proc-file", OPT_STRING, &proc_files, NULL,
	  "what they read: cmdline (what ps blocked in), maps, smaps, status, environ, or a comma list", 0 },
	{ "chunk", OPT_SIZE, &chunk, NULL, "munmap in calls of this many bytes instead of one (the thread's first mitigation)", 0 },
	{ "fault-threads", OPT_U64, &nfault, NULL, "threads faulting in their own 16M during the munmap (mmap_lock readers)", 0 },
	{ "idle-ms", OPT_U64, &idle_ms, NULL, "length of the idle window the readers are measured in first (default 200)", 0 },
	{ "reader-cpus", OPT_CHOICE, &reader_cpus, "any|others",
	  "any: readers run where the scheduler puts them; others: the munmap on one CPU, the readers on the rest", 0 },
	{ "read-gap-us", OPT_U64, &gap_us, NULL, "microseconds each reader sleeps between reads (default 0: back to back)", 0 },
	{ NULL, 0, NULL, NULL, NULL, 0 },
};

static int check_options(void)
{
	if (!nreaders || nreaders > READERS_MAX)
		return bench_fail("--readers %llu: must be between 1 and %d", (unsigned long long)nreaders, READERS_MAX);
	if (nfault > MAX_FAULT_THREADS)
		return bench_fail("--fault-threads %llu: at most %d", (unsigned long long)nfault, MAX_FAULT_THREADS);
	if (bench_opt_given("chunk") && bench_check_pages("chunk", chunk))
		return -1;
	if (!idle_ms)
		return bench_fail("--idle-ms 0: the idle window must not be empty");
	if (gap_us > 1000000)
		return bench_fail("--read-gap-us %llu: at most 1000000 (a second)", (unsigned long long)gap_us);
	return readers_parse_files(proc_files);
}

/* A competing mmap_lock reader: fault in its area, drop it, again. */
static void *fault_main(void *arg)
{
	char *p;

	(void)arg;
	p = mmap(NULL, FAULT_AREA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_barrier_wait(&fault_start);
	if (p == MAP_FAILED)
		return (void *)1;
	while (atomic_load(&faulting)) {
		for (uint64_t off = 0; off < FAULT_AREA; off += bench_page_size())
			((volatile char *)p)[off] = 1;
		atomic_fetch_add(&fault_pages, FAULT_AREA / bench_page_size());
		madvise(p, FAULT_AREA, MADV_DONTNEED);
	}
	munmap(p, FAULT_AREA);
	return NULL;
}

static int start_fault_threads(void)
{
	int err;

	if (!nfault)
		return 0;
	if (pthread_barrier_init(&fault_start, NULL, (unsigned)nfault + 1))
		return bench_fail("pthread_barrier_init failed: %m");
	atomic_store(&faulting, 1);
	for (uint64_t i = 0; i < nfault; i++)
		if ((err = pthread_create(&fault_threads[i], NULL, fault_main, NULL)))
			return bench_fail("creating fault thread %llu failed: %s", (unsigned long long)i, strerror(err));
	return 0;
}

static int populate(void)
{
	uint64_t t0 = bench_now_ns();

	area = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (area == MAP_FAILED)
		return bench_fail("mmap of %llu bytes failed: %m", (unsigned long long)size);
	bench_report_ns("populate_elapsed", bench_now_ns() - t0);
	return 0;
}

static void idle_window(void)
{
	readers_window_open();
	idle_win[0] = bench_now_ns();
	bench_sleep_ns(idle_ms * 1000000ull);
	idle_win[1] = bench_now_ns();
	readers_window_close();
}

/*
 * The readers' logs and the fault areas are small beside the margin
 * bench_fit_memory keeps free, so only --size is checked.
 */
static int check(void)
{
	if (check_options())
		return -1;
	size = bench_fit_pages("--size", size);
	return size ? 0 : -1;
}

/*
 * With --reader-cpus others the munmap gets a CPU of its own (the highest
 * this process may use) and the readers the rest, as on the thread's
 * machine, where they contended for the lock and not for the CPU.
 */
static int place(cpu_set_t *others)
{
	cpu_set_t allowed, mine;
	int last = -1;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return bench_fail("sched_getaffinity failed: %m");
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			last = c;
	if (CPU_COUNT(&allowed) < 2) {
		bench_note("--reader-cpus others: one CPU allowed, the readers share it with the munmap");
		return 1;
	}
	CPU_ZERO(&mine);
	CPU_SET(last, &mine);
	*others = allowed;
	CPU_CLR(last, others);
	if (sched_setaffinity(0, sizeof(mine), &mine))
		return bench_fail("binding the munmap to CPU %d failed: %m", last);
	return 0;
}

static int setup(void)
{
	cpu_set_t others;
	int placed = reader_cpus ? place(&others) : 1;

	if (placed < 0)
		return -1;
	if (readers_start(nreaders, gap_us * 1000, placed ? NULL : &others) || start_fault_threads() || populate())
		return -1;
	idle_window();
	return 0;
}

static int unmap_all(uint64_t *longest)
{
	uint64_t step = chunk ? chunk : size;

	*longest = 0;
	for (uint64_t off = 0; off < size; off += step) {
		uint64_t len = size - off < step ? size - off : step;
		uint64_t t0 = bench_now_ns(), dt;

		if (munmap(area + off, len))
			return bench_fail("munmap of %llu bytes failed: %m", (unsigned long long)len);
		dt = bench_now_ns() - t0;
		if (dt > *longest)
			*longest = dt;
	}
	return 0;
}

/*
 * The CPU clock is read outside the wall-clock reads: the munmap's own CPU
 * time, against its elapsed time, says how long it waited for a CPU or a
 * lock.  The reads the readers start meanwhile are task regions (those
 * under way at the start are not): the insns monitor's table of the
 * readers' work and wait.
 */
static int measure(void)
{
	uint64_t longest, cpu, pages = size / bench_page_size();
	int ret;

	if (nfault)
		pthread_barrier_wait(&fault_start);
	readers_window_open();
	cpu = bench_thread_cpu_ns();
	readers_mark(1);
	munmap_win[0] = bench_region_start_ns();
	ret = unmap_all(&longest);
	munmap_win[1] = bench_region_end_ns();
	readers_mark(0);
	cpu = bench_thread_cpu_ns() - cpu;
	atomic_store(&faulting, 0);
	readers_window_close();
	if (ret)
		return -1;
	bench_report_ns("elapsed", munmap_win[1] - munmap_win[0]);
	bench_report("ns_per_page", (double)(munmap_win[1] - munmap_win[0]) / (double)pages);
	bench_report_ns("munmap_cpu", cpu);
	bench_report_ns("munmap_call_max", longest);
	bench_report("pages", (double)pages);
	return 0;
}

static uint64_t mean_ns(const uint64_t *v, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return (sum + n / 2) / n;
}

static int report_readers(void)
{
	size_t n, in;
	uint64_t *idle = readers_latencies(idle_win, &n), *busy = readers_latencies(munmap_win, &in);
	int ret = 0;

	if (!idle || !busy)
		ret = bench_fail("out of memory sorting the reader logs");
	else if (!n || !in)
		ret = bench_fail("the readers logged no read in the %s window", n ? "munmap" : "idle");
	else {
		bench_raw("read", busy, in);
		bench_raw("idle_read", idle, n);
		bench_report_ns("reader_mean", mean_ns(busy, in));
		bench_report_ns("reader_max", bench_percentile(busy, in, 1.0));
		bench_report_ns("reader_p99", bench_percentile(busy, in, 0.99));
		bench_report_ns("reader_p50", bench_percentile(busy, in, 0.5));
		bench_report("reader_reads", (double)in);
		bench_report_ns("idle_reader_max", bench_percentile(idle, n, 1.0));
		bench_report_ns("idle_reader_p50", bench_percentile(idle, n, 0.5));
	}
	free(idle);
	free(busy);
	return ret;
}

static int teardown(void)
{
	int ret = readers_stop();

	for (uint64_t i = 0; i < nfault; i++) {
		void *r;

		pthread_join(fault_threads[i], &r);
		if (r)
			ret = bench_fail("a fault thread could not map its area");
	}
	if (nfault)
		bench_report("fault_pages", (double)atomic_load(&fault_pages));
	if (!ret)
		ret = report_readers();
	readers_free();
	return ret;
}

struct bench bench = {
	.name = "procmunmap",
	.description = "munmap() of a large populated anonymous area while other processes read /proc/PID files",
	.metrics = metrics,
	.opts = opts,
	/* the munmap's exclusive hold of the mmap lock (the headline) and its page counts */
	.monitors = "mmaplock,vmstat",
	.check = check,
	.setup = setup,
	.measure = measure,
	.teardown = teardown,
};
