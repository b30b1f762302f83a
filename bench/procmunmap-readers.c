/* procmunmap's reader processes and their logging windows: see procmunmap-readers.h. */
#include "procmunmap-readers.h"
#include "harness.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FILES 8
#define LEAD_IN_NS 10000000ull		/* readers get going before a window opens */

enum phase { PH_WAIT, PH_LOG, PH_STOP };

struct read_log {
	_Atomic int busy;	/* 1 from before the reader reads the phase until it parks */
	_Atomic uint64_t done;	/* reads finished, logged or not */
	uint64_t n, dropped;
	struct { uint64_t t0, t1; } rec[READERS_LOG_CAP];
};

struct shared {
	_Atomic int phase;
	_Atomic int mark;	/* the reads that start now are task regions */
	struct read_log log[];
};

static const char *files[MAX_FILES];
static int nfiles;
static uint64_t nreaders, gap;
static struct shared *sh;
static size_t sh_bytes;
static pid_t readers[READERS_MAX];

/* ps opens the file afresh each time; so does this. */
/*
 * Between windows a reader sleeps on the phase word until the bench changes
 * it.  Polling it every millisecond woke both readers a thousand times a
 * second through the populate (1.3% of its time under icount) and through
 * the settle step, and each entered a window wherever it was in its
 * millisecond.  Shared memory, so not the private futex ops.
 */
static void phase_wait(int ph)
{
	syscall(SYS_futex, (int *)&sh->phase, FUTEX_WAIT, ph, NULL, NULL, 0);
}

static void phase_set(int ph)
{
	atomic_store(&sh->phase, ph);
	syscall(SYS_futex, (int *)&sh->phase, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

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
	if (l->n == READERS_LOG_CAP) {
		l->dropped++;
		return;
	}
	l->rec[l->n].t0 = t0;
	l->rec[l->n].t1 = t1;
	l->n++;
}

/* A reader process: never returns. */
static void reader_main(int idx, pid_t target, const cpu_set_t *cpus)
{
	char paths[MAX_FILES][64];
	struct read_log *l = &sh->log[idx];

	/* A reader must not outlive the bench if the bench is killed. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != target)
		_exit(1);
	if (cpus && sched_setaffinity(0, sizeof(*cpus), cpus)) {
		bench_fail("reader %d: sched_setaffinity failed: %m", idx);
		_exit(3);
	}
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
			phase_wait(PH_WAIT);
			continue;
		}
		for (int f = 0; f < nfiles; f++) {
			int mark = atomic_load(&sh->mark);
			uint64_t t0 = bench_now_ns();

			if (mark)
				bench_task_begin();
			if (read_proc(paths[f])) {
				bench_fail("reader %d: reading %s failed: %m", idx, paths[f]);
				_exit(3);
			}
			if (mark)
				bench_task_end();
			log_read(l, t0, bench_now_ns());
		}
		if (gap) {
			atomic_store(&l->busy, 0);
			bench_sleep_ns(gap);
		}
	}
}

int readers_parse_files(const char *list)
{
	static char copy[256];
	char path[300];

	snprintf(copy, sizeof(copy), "%s", list);
	for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
		if (nfiles == MAX_FILES)
			return bench_fail("--proc-file %s: at most %d files", list, MAX_FILES);
		if (strchr(tok, '/') || !strcmp(tok, "..") || !strcmp(tok, "."))
			return bench_fail("--proc-file %s: a file name in /proc/PID is expected", tok);
		snprintf(path, sizeof(path), "/proc/self/%s", tok);
		if (read_proc(path))
			return bench_fail("--proc-file %s: cannot read %s: %m", tok, path);
		files[nfiles++] = tok;
	}
	return nfiles ? 0 : bench_fail("--proc-file is empty");
}

/* Called before the area exists, so fork copies no page tables of it. */
int readers_start(uint64_t n, uint64_t gap_ns, const cpu_set_t *cpus)
{
	pid_t self = getpid();

	nreaders = n;
	gap = gap_ns;
	sh_bytes = sizeof(*sh) + nreaders * sizeof(struct read_log);
	sh = mmap(NULL, sh_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		sh = NULL;
		return bench_fail("mmap of the reader logs failed: %m");
	}
	for (uint64_t i = 0; i < nreaders; i++) {
		readers[i] = fork();
		if (readers[i] < 0)
			return bench_fail("fork of reader %llu failed: %m", (unsigned long long)i);
		if (readers[i] == 0)
			reader_main((int)i, self, cpus);
	}
	return 0;
}

static uint64_t reads_done(uint64_t i)
{
	return atomic_load(&sh->log[i].done);
}

/*
 * The window opens once every reader has finished a read since the phase
 * changed (or after a second): on 2 busy CPUs a fixed lead-in alone can
 * leave the readers unscheduled through a short munmap, with no read to
 * measure.
 */
void readers_window_open(void)
{
	uint64_t before[READERS_MAX], deadline;

	for (uint64_t i = 0; i < nreaders; i++)
		before[i] = reads_done(i);
	phase_set(PH_LOG);
	bench_sleep_ns(LEAD_IN_NS);
	deadline = bench_now_ns() + 1000000000ull;
	for (uint64_t i = 0; i < nreaders; i++)
		while (reads_done(i) == before[i] && bench_now_ns() < deadline)
			bench_sleep_ns(100000);
}

/*
 * No read (a smaps read of a big area takes tens of ms) may span two
 * windows and be counted in both.  busy is stored before the phase is
 * loaded and the phase before busy is loaded, all seq_cst: a reader that
 * saw PH_LOG is seen busy here.
 */
void readers_window_close(void)
{
	atomic_store(&sh->phase, PH_WAIT);
	for (uint64_t i = 0; i < nreaders; i++)
		while (atomic_load(&sh->log[i].busy))
			bench_sleep_ns(100000);
}

void readers_mark(int on)
{
	atomic_store(&sh->mark, on);
}

uint64_t *readers_latencies(const uint64_t win[2], size_t *n)
{
	uint64_t *lat = malloc(sizeof(*lat) * nreaders * READERS_LOG_CAP);

	*n = 0;
	for (uint64_t r = 0; lat && r < nreaders; r++)
		for (uint64_t i = 0; i < sh->log[r].n; i++)
			if (sh->log[r].rec[i].t0 < win[1] && sh->log[r].rec[i].t1 > win[0])
				lat[(*n)++] = sh->log[r].rec[i].t1 - sh->log[r].rec[i].t0;
	if (lat)
		bench_sort_u64(lat, *n);
	return lat;
}

int readers_stop(void)
{
	int failed = 0, status;
	uint64_t dropped = 0;

	phase_set(PH_STOP);
	for (uint64_t i = 0; i < nreaders; i++) {
		if (waitpid(readers[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
		dropped += sh->log[i].dropped;
	}
	if (dropped)
		bench_note("%llu reads beyond the log of %u per reader were not timed",
			   (unsigned long long)dropped, READERS_LOG_CAP);
	return failed ? bench_fail("a reader process failed") : 0;
}

void readers_free(void)
{
	if (sh)
		munmap(sh, sh_bytes);
	sh = NULL;
}
