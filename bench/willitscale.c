/*
 * willitscale - will-it-scale's tests (Anton Blanchard), which the kernel
 * test robot runs and reports on as will-it-scale.per_process_ops and
 * per_thread_ops: one test (willitscale-tests.h) run by --tasks processes
 * or threads at once.  will-it-scale runs its tasks for a time and samples
 * their counters; here each task does --loops loops of the test, all start
 * together, and the timed region runs from their release to the end of
 * the last one's work (bench/lib/tasks.h), so that an icount guest repeats
 * the figure exactly.  An operation is will-it-scale's: a page touched
 * (page_fault*), an mmap+munmap pair (mmap*), one brk call (brk1).
 */
#include "harness.h"
#include "tasks.h"
#include "willitscale-tests.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#define MAX_LOOPS 1000000000ull

extern const struct wis_test *const __start_wis_tests[], *const __stop_wis_tests[];

static int test_index, mode, affinity;
static uint64_t ntasks = 1, loops;
static const char *dir = "/tmp";

static const struct wis_test *test;
static struct wis_task tasks[TASKS_MAX];

static const struct bench_metric metrics[] = {
	{ "ns_per_op", "ns/op", "ns", LOWER_IS_BETTER },
	{ "per_process_ops", "Per-process ops/s", "ops/s", HIGHER_IS_BETTER },
	{ "per_thread_ops", "Per-thread ops/s", "ops/s", HIGHER_IS_BETTER },
	{ "workload", "Workload ops/s", "ops/s", HIGHER_IS_BETTER },
	{ "elapsed", "Elapsed", "s", LOWER_IS_BETTER },
	{ "tasks", "Tasks", "count", NEITHER_BETTER },
	{ "minor_faults", "Minor faults", "count", NEITHER_BETTER },
	{ NULL, NULL, NULL, 0 },
};

static struct bench_opt opts[] = {
	{ "test", OPT_CHOICE, &test_index, NULL, "will-it-scale's test", 0 },
	{ "tasks", OPT_TASKS, &ntasks, NULL,
	  "tasks running the test at once: N, or P% of the CPUs this process may run on (default 1)", 0 },
	{ "mode", OPT_CHOICE, &mode, "process|thread", "the tasks are processes, or threads of one process", 0 },
	{ "loops", OPT_U64, &loops, NULL,
	  "loops of the test per task (default: the test's own; a page loop is 128 MiB)", 0 },
	{ "affinity", OPT_CHOICE, &affinity, "pin|none",
	  "pin: task i bound to the i-th allowed CPU, as will-it-scale binds tasks to cores", 0 },
	{ "dir", OPT_STRING, &dir, NULL, "where the tests that map a file make it (will-it-scale: /tmp)", 0 },
	{ NULL, 0, NULL, NULL, NULL, 0 },
};

static size_t ntests(void)
{
	return (size_t)(__stop_wis_tests - __start_wis_tests);
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct wis_test *const *)a)->name, (*(const struct wis_test *const *)b)->name);
}

static const struct wis_test *sorted[64];

/*
 * --test's choices are the tests linked in, sorted by name; the default is
 * page_fault1.  Before main(), since the harness parses the options first.
 */
__attribute__((constructor)) static void list_tests(void)
{
	static char choices[1024];
	size_t n = ntests() < 64 ? ntests() : 64, len = 0;

	memcpy(sorted, __start_wis_tests, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_name);
	for (size_t i = 0; i < n; i++) {
		len += (size_t)snprintf(choices + len, sizeof(choices) - len, "%s%s", i ? "|" : "", sorted[i]->name);
		if (!strcmp(sorted[i]->name, "page_fault1"))
			test_index = (int)i;
	}
	opts[0].choices = choices;
}

static uint64_t ops_per_loop(const struct wis_test *w)
{
	if (!w->map)
		return w->ops_per_loop;
	if (w->pages == PAGES_NONE)
		return 1;
	return (w->size ? w->size : WIS_MEMSIZE) / bench_page_size();
}

/* At most what a task holds at once: its file's pages, its private copies. */
static uint64_t resident(const struct wis_test *w)
{
	uint64_t size = w->size ? w->size : WIS_MEMSIZE;

	if (!w->map || w->pages == PAGES_NONE)
		return 0;
	return (w->file ? size : 0) + (w->pages == PAGES_WRITE && !(w->map & MAP_SHARED) ? size : 0);
}

/* The robot's files are in memory (its root filesystem is); say so when these are not. */
static void note_filesystem(void)
{
	struct statfs fs;

	if (statfs(dir, &fs) == 0 && fs.f_type != 0x01021994 && fs.f_type != 0x858458f6)
		bench_note("%s maps files in %s, which is not tmpfs or ramfs: the robot's are in memory "
			   "(--dir /dev/shm)", test->name, dir);
}

static int check(void)
{
	uint64_t need;

	test = sorted[test_index];
	if (mode == 1 && test->process_only)
		return bench_fail("--mode thread: %s runs as processes only, as the kernel test robot runs it",
				  test->name);
	if (ntasks > TASKS_MAX)
		return bench_fail("--tasks %llu: at most %d", (unsigned long long)ntasks, TASKS_MAX);
	if (!bench_opt_given("loops"))
		loops = test->loops;
	if (!loops || loops > MAX_LOOPS)
		return bench_fail("--loops %llu: must be between 1 and %llu", (unsigned long long)loops, MAX_LOOPS);
	need = ntasks * resident(test);
	if (need && bench_fit_memory("--tasks x the test's memory", need) < need)
		return -1;
	if (!test->file)
		return 0;
	if (access(dir, W_OK | X_OK))
		return bench_fail("--dir %s: not a directory this process may create files in: %m", dir);
	note_filesystem();
	return 0;
}

/* As will-it-scale: a file of its own per task, unlinked at once. */
static int make_file(struct wis_task *t)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/willitscale.XXXXXX", dir);
	t->fd = mkstemp(path);
	if (t->fd < 0)
		return task_fail("creating a file in %s failed: %m", dir);
	unlink(path);
	if (ftruncate(t->fd, (off_t)(test->size ? test->size : WIS_MEMSIZE)))
		return task_fail("ftruncate of its file failed: %m");
	return 0;
}

static int prepare(unsigned i)
{
	tasks[i].fd = -1;
	if (test->file && make_file(&tasks[i]))
		return -1;
	return test->prepare ? test->prepare(&tasks[i]) : 0;
}

static int work(unsigned i)
{
	struct wis_task *t = &tasks[i];

	for (uint64_t l = 0; l < loops; l++)
		if (test->map ? wis_map_loop(test, t) : test->loop(t))
			return -1;
	return 0;
}

static void finish(unsigned i)
{
	if (tasks[i].fd >= 0)
		close(tasks[i].fd);
}

static int setup(void)
{
	struct task_spec spec = {
		.n = ntasks, .threads = mode == 1, .pin = affinity == 0,
		.prepare = prepare, .work = work, .finish = finish,
	};

	return tasks_start(&spec);
}

static int measure(void)
{
	uint64_t ns;
	double s, per_task;

	if (tasks_run(&ns))
		return -1;
	s = (double)ns / 1e9;
	per_task = (double)(loops * ops_per_loop(test)) / s;
	bench_report("ns_per_op", 1e9 / per_task);
	bench_report(mode == 1 ? "per_thread_ops" : "per_process_ops", per_task);
	bench_report("workload", per_task * (double)ntasks);
	bench_report("elapsed", s);
	bench_report("tasks", (double)ntasks);
	bench_report("minor_faults", (double)tasks_minor_faults());
	return 0;
}

static int teardown(void)
{
	return tasks_stop();
}

struct bench bench = {
	.name = "willitscale",
	.description = "will-it-scale's tests: N processes or threads each doing a fixed number of the test's loops",
	.metrics = metrics,
	.opts = opts,
	.monitors = "vmstat",
	.fixed_layout = 1,
	.check = check,
	.setup = setup,
	.measure = measure,
	.teardown = teardown,
};
