/*
 * procmunmap - "zap pages with read mmap_sem in munmap for large mapping"
 * (linux-mm, 2018).  munmap() of 80 GB took 2.49 s in unmap_region with
 * mmap_sem held for writing the whole time, so anything reading
 * /proc/PID/cmdline of the process (ps) blocked behind it: ps hung for more
 * than 120 s at 320 GB.  The series zapped the pages under the read lock
 * (mainline later downgrades the lock in munmap); the exclusive hold went
 * from seconds to microseconds.
 *
 * Here READERS processes loop reading /proc/PID/FILE of this process and log
 * every read's start and end on CLOCK_MONOTONIC, which all processes share;
 * this process publishes the idle window and the munmap window on the same
 * clock, so a read belongs to a window by its timestamps, not by a guess.
 */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_READERS 32
#define MAX_FILES 8
#define MAX_FAULT_THREADS 64
#define LOG_CAP (1u << 20)		/* reads logged per reader: 16 MiB */
#define FAULT_AREA (16ull << 20)	/* what each --fault-threads thread faults in */
#define LEAD_IN_NS 10000000ull		/* readers get going before a window opens */

enum phase { PH_WAIT, PH_LOG, PH_STOP };

struct read_log {
	_Atomic int busy;	/* 1 from before the reader reads the phase until it parks */
	_Atomic uint64_t done;	/* reads finished, logged or not */
	uint64_t n, dropped;
	struct { uint64_t t0, t1; } rec[LOG_CAP];
};

struct shared {
	_Atomic int phase;
	struct read_log log[];
};

static uint64_t size = 80ull << 30;
static uint64_t nreaders = 2;
static const char *proc_files = "cmdline";
static uint64_t chunk;
static uint64_t nfault = 0;
static uint64_t idle_ms = 200;

static const char *files[MAX_FILES];
static int nfiles;
static char *area;
static uint64_t page_size;
static struct shared *sh;
static size_t sh_bytes;
static pid_t readers[MAX_READERS];
static pthread_t fault_threads[MAX_FAULT_THREADS];
static pthread_barrier_t fault_start;
static _Atomic int faulting;
static _Atomic uint64_t fault_pages;
static uint64_t idle_win[2], munmap_win[2];

static const struct bench_metric metrics[] = {
	{ "elapsed", "Elapsed", "s", 0 },
	{ "ns_per_page", "ns/page", "ns", 0 },
	{ "munmap_call_max", "Longest call", "s", 0 },
	{ "populate_elapsed", "Populate", "s", 0 },
	{ "pages", "Pages", "count", 0 },
	{ "reader_max", "Read max", "s", 0 },
	{ "reader_p99", "Read p99", "s", 0 },
	{ "reader_p50", "Read p50", "s", 0 },
	{ "reader_reads", "Reads", "count", 1 },
	{ "idle_reader_max", "Idle read max", "s", 0 },
	{ "idle_reader_p50", "Idle read p50", "s", 0 },
	{ "fault_pages", "Faulted pages", "count", 1 },
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
	{ NULL, 0, NULL, NULL, NULL, 0 },
};

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ps opens the file afresh each time; so does this. */
static int read_proc(const char *path)
{
	static char buf[1 << 16];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return n < 0 ? -1 : 0;
}

static void log_read(struct read_log *l, uint64_t t0, uint64_t t1)
{
	atomic_fetch_add(&l->done, 1);
	if (l->n == LOG_CAP) {
		l->dropped++;
		return;
	}
	l->rec[l->n].t0 = t0;
	l->rec[l->n].t1 = t1;
	l->n++;
}

/* A reader process: never returns. */
static void reader_main(int idx, pid_t target)
{
	char paths[MAX_FILES][64];
	struct read_log *l = &sh->log[idx];

	/* A reader must not outlive the bench if the bench is killed. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != target)
		_exit(1);
	for (int f = 0; f < nfiles; f++)
		snprintf(paths[f], sizeof(paths[f]), "/proc/%d/%s", (int)target, files[f]);
	for (;;) {
		int ph;

		atomic_store(&l->busy, 1);
		ph = atomic_load(&sh->phase);
		if (ph == PH_STOP)
			_exit(0);
		if (ph == PH_WAIT) {
			atomic_store(&l->busy, 0);
			sleep_ns(1000000);
			continue;
		}
		for (int f = 0; f < nfiles; f++) {
			uint64_t t0 = bench_now_ns();

			if (read_proc(paths[f])) {
				bench_fail("reader %d: reading %s failed: %m", idx, paths[f]);
				_exit(3);
			}
			log_read(l, t0, bench_now_ns());
		}
	}
}

/* Split the comma list and check that each file can be read at all. */
static int parse_files(void)
{
	static char list[256];
	char path[300];

	snprintf(list, sizeof(list), "%s", proc_files);
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (nfiles == MAX_FILES)
			return bench_fail("--proc-file %s: at most %d files", proc_files, MAX_FILES);
		if (strchr(tok, '/') || !strcmp(tok, "..") || !strcmp(tok, "."))
			return bench_fail("--proc-file %s: a file name in /proc/PID is expected", tok);
		snprintf(path, sizeof(path), "/proc/self/%s", tok);
		if (read_proc(path))
			return bench_fail("--proc-file %s: cannot read %s: %m", tok, path);
		files[nfiles++] = tok;
	}
	return nfiles ? 0 : bench_fail("--proc-file is empty");
}

static int check_options(void)
{
	if (!nreaders || nreaders > MAX_READERS)
		return bench_fail("--readers %llu: must be between 1 and %d", (unsigned long long)nreaders, MAX_READERS);
	if (nfault > MAX_FAULT_THREADS)
		return bench_fail("--fault-threads %llu: at most %d", (unsigned long long)nfault, MAX_FAULT_THREADS);
	if (bench_opt_given("chunk") && (!chunk || chunk % page_size))
		return bench_fail("--chunk %llu: must be a non-zero multiple of the page size (%llu)",
				  (unsigned long long)chunk, (unsigned long long)page_size);
	if (!idle_ms)
		return bench_fail("--idle-ms 0: the idle window must not be empty");
	return parse_files();
}

/* Readers fork before the area exists, so fork copies no page tables of it. */
static int start_readers(void)
{
	pid_t self = getpid();

	sh_bytes = sizeof(*sh) + nreaders * sizeof(struct read_log);
	sh = mmap(NULL, sh_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return bench_fail("mmap of the reader logs failed: %m");
	for (uint64_t i = 0; i < nreaders; i++) {
		readers[i] = fork();
		if (readers[i] < 0)
			return bench_fail("fork of reader %llu failed: %m", (unsigned long long)i);
		if (readers[i] == 0)
			reader_main((int)i, self);
	}
	return 0;
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
		for (uint64_t off = 0; off < FAULT_AREA; off += page_size)
			((volatile char *)p)[off] = 1;
		atomic_fetch_add(&fault_pages, FAULT_AREA / page_size);
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

static uint64_t reads_done(uint64_t i)
{
	return atomic_load(&sh->log[i].done);
}

/*
 * Open a logging window of the readers; its bounds go in win[].  It opens
 * once every reader has finished a read since the phase changed (or after
 * a second): on 2 busy CPUs a fixed lead-in alone can leave the readers
 * unscheduled through a short munmap, with no read to measure.
 */
static void window_open(uint64_t win[2])
{
	uint64_t before[MAX_READERS], deadline;

	for (uint64_t i = 0; i < nreaders; i++)
		before[i] = reads_done(i);
	atomic_store(&sh->phase, PH_LOG);
	sleep_ns(LEAD_IN_NS);
	deadline = bench_now_ns() + 1000000000ull;
	for (uint64_t i = 0; i < nreaders; i++)
		while (reads_done(i) == before[i] && bench_now_ns() < deadline)
			sleep_ns(100000);
	win[0] = bench_now_ns();
}

/*
 * Wait until no reader is inside a read, so no read (a smaps read of a big
 * area takes tens of ms) spans two windows and is counted in both.  busy is
 * stored before the phase is loaded and the phase before busy is loaded, all
 * seq_cst: a reader that saw PH_LOG is seen busy here.
 */
static void window_close(void)
{
	atomic_store(&sh->phase, PH_WAIT);
	for (uint64_t i = 0; i < nreaders; i++)
		while (atomic_load(&sh->log[i].busy))
			sleep_ns(100000);
}

static void idle_window(void)
{
	window_open(idle_win);
	sleep_ns(idle_ms * 1000000ull);
	idle_win[1] = bench_now_ns();
	window_close();
}

/*
 * The readers' logs and the fault areas are small beside the margin
 * bench_fit_memory keeps free, so only --size is checked.
 */
static int check(void)
{
	page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	if (check_options())
		return -1;
	size = bench_fit_memory("--size", size);
	if (!size)
		return -1;
	size -= size % page_size;
	return size ? 0 : bench_fail("--size is smaller than a page (%llu bytes)", (unsigned long long)page_size);
}

static int setup(void)
{
	if (start_readers() || start_fault_threads() || populate())
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

static int measure(void)
{
	uint64_t longest, pages = size / page_size;
	int ret;

	if (nfault)
		pthread_barrier_wait(&fault_start);
	window_open(munmap_win);
	ret = unmap_all(&longest);
	munmap_win[1] = bench_now_ns();
	atomic_store(&faulting, 0);
	window_close();
	if (ret)
		return -1;
	bench_report_ns("elapsed", munmap_win[1] - munmap_win[0]);
	bench_report("ns_per_page", (double)(munmap_win[1] - munmap_win[0]) / (double)pages);
	bench_report_ns("munmap_call_max", longest);
	bench_report("pages", (double)pages);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of a sorted array. */
static double pct(const uint64_t *v, size_t n, double p)
{
	size_t rank = (size_t)(p * (double)n + 0.999999);

	return (double)v[rank ? rank - 1 : 0] / 1e9;
}

/* Latencies of the logged reads that overlap win; *n is their count. */
static uint64_t *reads_in(const uint64_t win[2], size_t *n)
{
	uint64_t *lat = malloc(sizeof(*lat) * nreaders * LOG_CAP);

	*n = 0;
	for (uint64_t r = 0; lat && r < nreaders; r++)
		for (uint64_t i = 0; i < sh->log[r].n; i++)
			if (sh->log[r].rec[i].t0 < win[1] && sh->log[r].rec[i].t1 > win[0])
				lat[(*n)++] = sh->log[r].rec[i].t1 - sh->log[r].rec[i].t0;
	if (lat)
		qsort(lat, *n, sizeof(*lat), cmp_u64);
	return lat;
}

static int report_readers(void)
{
	size_t n, in;
	uint64_t *idle = reads_in(idle_win, &n), *busy = reads_in(munmap_win, &in);
	int ret = 0;

	if (!idle || !busy)
		ret = bench_fail("out of memory sorting the reader logs");
	else if (!n || !in)
		ret = bench_fail("the readers logged no read in the %s window", n ? "munmap" : "idle");
	else {
		bench_report("reader_max", pct(busy, in, 1.0));
		bench_report("reader_p99", pct(busy, in, 0.99));
		bench_report("reader_p50", pct(busy, in, 0.5));
		bench_report("reader_reads", (double)in);
		bench_report("idle_reader_max", pct(idle, n, 1.0));
		bench_report("idle_reader_p50", pct(idle, n, 0.5));
	}
	free(idle);
	free(busy);
	return ret;
}

static int stop_readers(void)
{
	int failed = 0, status;
	uint64_t dropped = 0;

	atomic_store(&sh->phase, PH_STOP);
	for (uint64_t i = 0; i < nreaders; i++) {
		if (waitpid(readers[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
		dropped += sh->log[i].dropped;
	}
	if (dropped)
		bench_note("%llu reads beyond the log of %u per reader were not timed",
			   (unsigned long long)dropped, LOG_CAP);
	return failed ? bench_fail("a reader process failed") : 0;
}

static int teardown(void)
{
	int ret = stop_readers();

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
	munmap(sh, sh_bytes);
	return ret;
}

struct bench bench = {
	.name = "procmunmap",
	.description = "munmap() of a large populated anonymous area while other processes read /proc/PID files",
	.metrics = metrics,
	.opts = opts,
	.check = check,
	.setup = setup,
	.measure = measure,
	.teardown = teardown,
};
