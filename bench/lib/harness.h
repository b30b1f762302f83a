/*
 * The shared bench harness.  A bench file declares its metrics, its options
 * and three functions; main(), option parsing, the start trigger, timing and
 * output live here once (will-it-scale / perf bench style).
 *
 * Life of one iteration (one process):
 *   parse options -> check() -> setup() -> [trigger: ready, wait]
 *   -> [--settle: settle.h] -> measure() -> [trigger: done, wait]
 *   -> teardown() -> print every reported value.
 * With --check the bench stops after check(): run.sh uses that to refuse a
 * bad option or an impossible size before it writes anything.
 * Values are buffered and printed at exit, so nothing but the bench's own
 * code runs between the two clock reads of a timed region.
 */
#ifndef MMDELTA_HARNESS_H
#define MMDELTA_HARNESS_H

#include <stdint.h>
#include <stddef.h>
#include <errno.h>
#include <time.h>

/*
 * Which way a metric is better, as --describe prints it (lower, higher,
 * none).  A count of what was done (pages, faults, context switches) is
 * neither: compare.sh shows its change without colour or star and never
 * gates on it.
 */
enum metric_better { LOWER_IS_BETTER, HIGHER_IS_BETTER, NEITHER_BETTER };

struct bench_metric {
	const char *name;	/* samples.tsv metric, e.g. "elapsed" */
	const char *label;	/* table label, e.g. "Elapsed" */
	const char *unit;	/* SI base unit: s, bytes, count, ops/s */
	enum metric_better better;
};

enum opt_type {
	OPT_SIZE,	/* bytes: 4096, 64K, 56G, 16T, 50% (of MemTotal) */
	OPT_U64,	/* plain unsigned integer */
	OPT_CHOICE,	/* one of choices, stored as its index (int) */
	OPT_STRING,	/* const char * */
	OPT_FLAG,	/* int set to 1 when given */
	OPT_TASKS,	/* uint64_t: a number of tasks, N or P% of the CPUs this process may run on */
};

struct bench_opt {
	const char *name;	/* without the leading "--" */
	enum opt_type type;
	void *dest;		/* uint64_t*, int*, or const char ** */
	const char *choices;	/* OPT_CHOICE: "a|b|c" */
	const char *help;
	int given;		/* set by the parser */
};

struct bench {
	const char *name;
	const char *description;
	const struct bench_metric *metrics;	/* terminated by {NULL} */
	struct bench_opt *opts;			/* terminated by {NULL} */
	/* run.sh's MONITORS for its configs that name none, e.g. "vmstat" */
	const char *monitors;
	/*
	 * 1: run without address-space randomisation (the harness re-executes
	 * the bench once so), for a bench whose figure depends on where its
	 * mappings land: how many page tables they span, whether they can take
	 * huge pages.  will-it-scale runs its tests so (setarch -R).
	 */
	int fixed_layout;
	int (*check)(void);	/* optional: validate options, fit sizes; no side effects; -1, or -2 unavailable */
	int (*setup)(void);	/* 0 or -1 after bench_fail() */
	int (*measure)(void);	/* the timed region(s) */
	int (*teardown)(void);
};

/* Each bench file defines exactly one of these. */
extern struct bench bench;

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Region markers for the insns monitor (docs/monitors.md): under run.sh
 * --kernel a QEMU plugin (drivers/vm/insns-plugin.c) counts the guest's
 * instructions between a begin and an end marker.  A marker is a 7-byte
 * NOP whose displacement is a magic number, which the plugin recognises by
 * its bytes (7.2's plugins read no guest registers or memory):
 *   0f 1f 80 42 64 6d 6d   nopl 0x6d6d6442(%rax)   begin of a timed region
 *   0f 1f 80 45 64 6d 6d   nopl 0x6d6d6445(%rax)   its end
 *   0f 1f 80 50 64 6d 6d   nopl 0x6d6d6450(%rax)   a bench process starts
 *   0f 1f 80 54 64 6d 6d   nopl 0x6d6d6454(%rax)   a task's work begins
 *   0f 1f 80 74 64 6d 6d   nopl 0x6d6d6474(%rax)   a task's work ends
 * A task region is the work of one of the bench's own tasks (a thread, or a
 * process it forked) inside the timed phase: heaprelease's threads,
 * procmunmap's readers' reads.  The plugin counts them apart from the timed
 * regions, into a table of their own, and counts the time any task is
 * inside one: on the one vCPU of an icount guest two tasks' regions
 * interleave, so what runs while a task waits (the lock holder) is in it.
 * They are executed always, monitored or not, so that a figure with the
 * monitor on is the figure without it; on hardware they are NOPs.  A bench
 * whose timed region is one pair of clock reads reads them with these two.
 */
#define BENCH_MARK_BEGIN 0x6d6d6442
#define BENCH_MARK_END 0x6d6d6445
#define BENCH_MARK_PROCESS 0x6d6d6450
#define BENCH_MARK_TASK_BEGIN 0x6d6d6454
#define BENCH_MARK_TASK_END 0x6d6d6474
#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)
#if defined(__x86_64__)
#define BENCH_MARK(magic) __asm__ volatile(".byte 0x0f, 0x1f, 0x80\n\t.long " BENCH_STR(magic) ::: "memory")
#else
#define BENCH_MARK(magic) ((void)0)
#endif

/* The clock read that starts a timed region, then the begin marker. */
static inline uint64_t bench_region_start_ns(void)
{
	uint64_t t = bench_now_ns();

	BENCH_MARK(BENCH_MARK_BEGIN);
	return t;
}

/* The end marker, then the clock read that ends the timed region. */
static inline uint64_t bench_region_end_ns(void)
{
	BENCH_MARK(BENCH_MARK_END);
	return bench_now_ns();
}

/* Around a task's own work in the timed phase (a thread's loop, a reader's read). */
static inline void bench_task_begin(void)
{
	BENCH_MARK(BENCH_MARK_TASK_BEGIN);
}

static inline void bench_task_end(void)
{
	BENCH_MARK(BENCH_MARK_TASK_END);
}

/* CPU time of the calling thread: a system call, so never inside a timed region. */
static inline uint64_t bench_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleep ns nanoseconds, resumed across signals.  Never inside a timed region. */
static inline void bench_sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Sort v[0..n) ascending, for bench_percentile. */
void bench_sort_u64(uint64_t *v, size_t n);
/* Nearest-rank percentile (p in 0..1) of a sorted, non-empty array. */
uint64_t bench_percentile(const uint64_t *sorted, size_t n, double p);

/*
 * The raw times a bench reduces to a metric (sparsemunmap's cycles, the
 * readers' reads, heaprelease's threads), with --raw-times FILE: a line
 * "series<TAB>value" per value, in the order given, so that a test can
 * compute the same statistic from them (docs/scenarios.md).  Call it
 * outside the timed region, before sorting v in place; nothing without the
 * option.
 */
void bench_raw(const char *series, const uint64_t *v, size_t n);

/* Record a metric value; the name must be one of bench.metrics. */
void bench_report(const char *metric, double value);
static inline void bench_report_ns(const char *metric, uint64_t ns)
{
	bench_report(metric, (double)ns / 1e9);
}

/* One line on stderr, "bench: message", then return -1 for the caller. */
int bench_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * From check(): this machine cannot run what the options ask (a program the
 * bench wraps lacks it), as opposed to a bad option.  One line on stderr as
 * bench_fail says it, then -2; --check then exits 3, and run.sh leaves the
 * point out and runs the rest, unless nothing else is left to run.
 */
int bench_unavailable(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line on stderr, "bench: message": a diagnostic, not a failure. */
void bench_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Was option NAME given on the command line? */
int bench_opt_given(const char *name);

/* The page size, from sysconf. */
uint64_t bench_page_size(void);
/*
 * 0 when bytes is a non-zero multiple of the page size; else -1 after
 * "--OPT BYTES: must be a non-zero multiple of the page size (P)".
 */
int bench_check_pages(const char *opt, uint64_t bytes);
/*
 * bench_fit_memory, then down to whole pages: the size to map, or 0 after
 * saying why (too big, or smaller than a page).
 */
uint64_t bench_fit_pages(const char *what, uint64_t bytes);

/*
 * Check a memory size against what the machine can hold (see memlimit.h).
 * Returns the size to use, or 0 after printing why it is refused.  With
 * --cap-size an oversized request is reduced, with a note, instead.
 */
uint64_t bench_fit_memory(const char *what, uint64_t bytes);
/*
 * The same against RLIMIT_MEMLOCK, for memory that is to be locked: the
 * limit is raised when the process may; otherwise refused, or capped with
 * --cap-size.
 */
uint64_t bench_fit_memlock(const char *what, uint64_t bytes);

/* Does this process hold capability bit cap in its effective set? */
int bench_has_capability(int cap);

#endif
