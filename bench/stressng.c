/*
 * stressng - stress-ng's stressors (Colin Ian King's stress-ng), which the
 * kernel test robot runs and reports on as stress-ng.STRESSOR.ops_per_sec:
 * one stressor, --workers instances of it, --ops bogo-ops in all, run by
 * the stress-ng installed (Debian's).  No stressor is written here: this
 * is the launcher, as mmtests wraps a benchmark.
 *
 * The timed region is the stressor's run as stress-ng times it, in its
 * instances' own processes (stressng-region.h): a library preloaded into
 * stress-ng reads the clock and executes the insns markers there, so that
 * stress-ng's start-up (its 25 shared libraries, its shared memory) and
 * exit lie outside.  A bogo-op is what the stressor counts, in one
 * stress-ng version: the figure is the time per bogo-op and per worker,
 * and stress-ng's own YAML figures are reported beside it.
 */
#include "harness.h"
#include "stressng-program.h"
#include "stressng-region.h"
#include "stressng-yaml.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* stress-ng's own bounds: its instances per stressor, its --STRESSOR-ops. */
#define MAX_WORKERS 4096
#define MAX_OPS 100000000ull
#define MAX_EXTRA 16

static const char *stressor = "mmap", *stress_ng = "stress-ng", *dir = "/tmp";
/* NULL, not "": an empty string would be a word of the resolved options with no value */
static const char *options;
static uint64_t workers = 1, ops = 100;
static int hwpoison;

static char program[PATH_MAX], preload[PATH_MAX + 64], version[64];
static char yaml[PATH_MAX];
static int region_fd = -1;
static struct stressng_region *region;

static const struct bench_metric metrics[] = {
	{ "ns_per_bogo_op", "ns/bogo-op", "ns", LOWER_IS_BETTER },
	{ "ops_per_sec", "Bogo-ops/s", "ops/s", HIGHER_IS_BETTER },
	{ "ops", "Bogo-ops", "count", NEITHER_BETTER },
	{ "elapsed", "Elapsed", "s", LOWER_IS_BETTER },
	{ "workers", "Workers", "count", NEITHER_BETTER },
	{ "wall_clock_time", "stress-ng's real time", "s", LOWER_IS_BETTER },
	{ "user_time", "User time", "s", LOWER_IS_BETTER },
	{ "system_time", "System time", "s", LOWER_IS_BETTER },
	{ "ops_per_sec_usr_sys", "Bogo-ops/s of CPU", "ops/s", HIGHER_IS_BETTER },
	{ "cpu_usage_per_instance", "CPU % per worker", "count", NEITHER_BETTER },
	{ "max_rss", "Max RSS", "bytes", NEITHER_BETTER },
	/*
	 * The stressors' own figures in stress-ng 0.15's YAML, under their keys
	 * with '-' as '_' (the robot's stress-ng.pagemove.page_remaps_per_sec).
	 * One this table lacks goes to the log.
	 */
	{ "page_remaps_per_sec", "Page remaps/s", "ops/s", HIGHER_IS_BETTER },
	{ "nanosecs_per_mremap_call", "ns/mremap", "ns", LOWER_IS_BETTER },
	{ "nanosecs_per_page_remap", "ns/page remap", "ns", LOWER_IS_BETTER },
	{ "nanosecs_per_page_mmap", "ns/page mmap", "ns", LOWER_IS_BETTER },
	{ "nanosecs_per_page_fault", "ns/page fault", "ns", LOWER_IS_BETTER },
	{ "nanosecs_per_mlock_call", "ns/mlock", "ns", LOWER_IS_BETTER },
	{ "nanosecs_per_munlock_call", "ns/munlock", "ns", LOWER_IS_BETTER },
	{ "nanosecs_per_memfdcreate_call", "ns/memfd_create", "ns", LOWER_IS_BETTER },
	{ "nanosecs_per_sbrk_page_expand", "ns/sbrk page expand", "ns", LOWER_IS_BETTER },
	{ "nanosecs_per_sbrk_page_shrink", "ns/sbrk page shrink", "ns", LOWER_IS_BETTER },
	{ NULL, NULL, NULL, 0 },
};

/* stress-ng's YAML keys that are metrics here, and the factor to SI units. */
static const struct {
	const char *key, *metric;
	double scale;
} yaml_metrics[] = {
	{ "bogo-ops", "ops", 1 },
	{ "bogo-ops-per-second-real-time", "ops_per_sec", 1 },
	{ "wall-clock-time", "wall_clock_time", 1 },
	{ "user-time", "user_time", 1 },
	{ "system-time", "system_time", 1 },
	{ "bogo-ops-per-second-usr-sys-time", "ops_per_sec_usr_sys", 1 },
	{ "cpu-usage-per-instance", "cpu_usage_per_instance", 1 },
	{ "max-rss", "max_rss", 1024 },
};

/*
 * OPS when none is given: about a second of the stressor at stress-ng's
 * default sizes on this 2-CPU VM, measured busy (--set OPS=N for another).
 * A stressor not listed does 100.
 */
static const struct {
	const char *stressor;
	uint64_t ops;
} default_ops[] = {
	{ "brk", 50000 }, { "fork", 2000 }, { "madvise", 50 }, { "memfd", 4 }, { "mlock", 5 },
	{ "mlockmany", 4 }, { "mmap", 4 }, { "mmapaddr", 500 }, { "mmapfork", 1 }, { "mmapmany", 2000 },
	{ "mprotect", 500 }, { "mremap", 5 }, { "msync", 100 }, { "munmap", 5000 }, { "pagemove", 50 },
	{ "remap", 50 }, { "tlb-shootdown", 500 }, { "userfaultfd", 1000 }, { "vm", 10 },
};

static uint64_t ops_for(const char *name)
{
	for (size_t i = 0; i < sizeof(default_ops) / sizeof(default_ops[0]); i++)
		if (!strcmp(default_ops[i].stressor, name))
			return default_ops[i].ops;
	return 100;
}

static struct bench_opt opts[] = {
	{ "stressor", OPT_STRING, &stressor, NULL, "the stress-ng stressor (stress-ng --stressors lists them)", 0 },
	{ "workers", OPT_TASKS, &workers, NULL,
	  "instances of the stressor: N, or P% of the CPUs this process may run on (default 1)", 0 },
	{ "ops", OPT_U64, &ops, NULL,
	  "bogo-ops in all, shared by the workers (--STRESSOR-ops; default: about a second of the stressor)", 0 },
	{ "stress-ng", OPT_STRING, &stress_ng, NULL, "the stress-ng program (default: stress-ng on PATH)", 0 },
	{ "dir", OPT_STRING, &dir, NULL, "stress-ng's --temp-path, where stressors that need files make them", 0 },
	{ "hwpoison", OPT_FLAG, &hwpoison, NULL,
	  "let stress-ng poison pages as root, as its madvise stressor does before 0.16 (later: --madvise-hwpoison)", 0 },
	{ "options", OPT_STRING, &options, NULL,
	  "more stress-ng options, comma-separated, each --NAME or --NAME=VALUE (--mremap-bytes=64M)", 0 },
	{ NULL, 0, NULL, NULL, NULL, 0 },
};

/* The preloaded library is built beside the bench: BUILD/bin/X, BUILD/lib/. */
static int find_preload(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return bench_fail("cannot read /proc/self/exe: %m");
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(preload, sizeof(preload), "%s/../lib/stressng-region.so", self);
	if (access(preload, R_OK))
		return bench_fail("%s is missing: it is built with the bench (make)", preload);
	return 0;
}

/* --options: each word an option of stress-ng's, never a second stressor's workers. */
static int check_options(void)
{
	char copy[1024], *save = NULL;
	size_t n = 0;

	if (!options)
		return 0;
	if (strlen(options) >= sizeof(copy))
		return bench_fail("--options: longer than %zu characters", sizeof(copy) - 1);
	snprintf(copy, sizeof(copy), "%s", options);
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (strncmp(w, "--", 2) || strlen(w) < 3)
			return bench_fail("--options %s: '%s' is not an option (--NAME or --NAME=VALUE)", options, w);
		if (++n > MAX_EXTRA)
			return bench_fail("--options: at most %d", MAX_EXTRA);
	}
	return 0;
}

static int check(void)
{
	int has;

	if (!bench_opt_given("ops"))
		ops = ops_for(stressor);
	if (!ops || ops > MAX_OPS)
		return bench_fail("--ops %llu: must be between 1 and %llu", (unsigned long long)ops, MAX_OPS);
	if (!workers || workers > MAX_WORKERS)
		return bench_fail("--workers %llu: must be between 1 and %d", (unsigned long long)workers, MAX_WORKERS);
	if (!*stressor || strspn(stressor, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(stressor))
		return bench_fail("--stressor '%s': not a stressor name", stressor);
	if (sng_find(stress_ng, program, sizeof(program)))
		return bench_fail("stress-ng not found (%s): apt-get install stress-ng, or give --stress-ng PATH",
				  stress_ng);
	if (sng_version(program, version, sizeof(version)))
		return -1;
	has = sng_has_stressor(program, stressor);
	if (has < 0)
		return bench_fail("%s --stressors failed", program);
	if (!has)
		return bench_unavailable("--stressor %s: stress-ng %s has no such stressor (stress-ng --stressors lists them)",
					 stressor, version);
	if (check_options())
		return -1;
	if (access(dir, W_OK | X_OK))
		return bench_fail("--dir %s: not a directory this process may create files in: %m", dir);
	return find_preload();
}

static int setup(void)
{
	int fd;

	region_fd = memfd_create("stressng-region", 0);
	if (region_fd < 0 || ftruncate(region_fd, sizeof(*region)))
		return bench_fail("memfd for the region failed: %m");
	region = mmap(NULL, sizeof(*region), PROT_READ | PROT_WRITE, MAP_SHARED, region_fd, 0);
	if (region == MAP_FAILED)
		return bench_fail("mmap of the region failed: %m");
	snprintf(yaml, sizeof(yaml), "%s/stressng.XXXXXX", dir);
	fd = mkstemp(yaml);
	if (fd < 0)
		return bench_fail("creating stress-ng's YAML file in %s failed: %m", dir);
	close(fd);
	return 0;
}

/* In the child: stress-ng, its output on stderr (the bench's log), the library preloaded. */
static void exec_stress_ng(void)
{
	char fd[16], run[80], opsopt[80], nops[24], nworkers[24], env[3 * PATH_MAX], extra[1024], *save = NULL;
	const char *old = getenv("LD_PRELOAD");
	char *argv[12 + MAX_EXTRA + 1] = {
		program, run, nworkers, opsopt, nops, "--metrics", "--yaml", yaml, "--temp-path", (char *)dir,
		/* the same stressor choices in every iteration and every boot */
		"--no-rand-seed",
		/* mlockmany and others run only so; the config asked for this one */
		"--pathological",
	};
	size_t argc = 12;

	snprintf(extra, sizeof(extra), "%s", options ? options : "");
	for (char *w = strtok_r(extra, ",", &save); w; w = strtok_r(NULL, ",", &save))
		argv[argc++] = w;
	argv[argc] = NULL;

	snprintf(run, sizeof(run), "--%s", stressor);
	snprintf(nworkers, sizeof(nworkers), "%llu", (unsigned long long)workers);
	snprintf(opsopt, sizeof(opsopt), "--%s-ops", stressor);
	snprintf(nops, sizeof(nops), "%llu", (unsigned long long)ops);
	snprintf(fd, sizeof(fd), "%d", region_fd);
	snprintf(env, sizeof(env), "%s%s%s", preload, old ? " " : "", old ? old : "");
	dup2(2, 1);
	/*
	 * stress-ng before 0.16 poisons pages (MADV_HWPOISON, MADV_SOFT_OFFLINE)
	 * whenever it may, and the kernel forces the poisoned page's SIGBUS on
	 * the madvise worker's thread that blocks it: the worker dies.  Its later
	 * versions, which the robot runs, poison only with --madvise-hwpoison.
	 * Without CAP_SYS_ADMIN after the exec (root's inheritable set is
	 * empty) the kernel refuses that advice with EPERM, as it does a user's.
	 * A user without CAP_SETPCAP has no CAP_SYS_ADMIN to drop.
	 */
	if (!hwpoison && prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) && errno != EPERM) {
		fprintf(stderr, "stressng: dropping CAP_SYS_ADMIN failed: %m\n");
		_exit(127);
	}
	setenv(STRESSNG_REGION_ENV, fd, 1);
	setenv("LD_PRELOAD", env, 1);
	execv(program, argv);
	fprintf(stderr, "stressng: exec %s failed: %m\n", program);
	_exit(127);
}

static int run_stress_ng(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return bench_fail("fork failed: %m");
	if (pid == 0)
		exec_stress_ng();
	if (waitpid(pid, &status, 0) != pid)
		return bench_fail("waiting for stress-ng failed: %m");
	if (WIFSIGNALED(status))
		return bench_fail("stressor %s: stress-ng was killed by signal %d", stressor, WTERMSIG(status));
	if (WEXITSTATUS(status))
		return bench_fail("stressor %s failed: stress-ng %s exited with %d (its lines are above)",
				  stressor, version, WEXITSTATUS(status));
	if (!region->attached)
		return bench_fail("stressor %s: stress-ng did not load %s, so nothing was timed", stressor, preload);
	if (!region->started || region->started != region->ended || !region->end_ns)
		return bench_fail("stressor %s: stress-ng started %u instances and ended %u (it skipped the stressor?)",
				  stressor, region->started, region->ended);
	return 0;
}

/* A YAML figure of the stressor's own: a metric if declared, else a line of the log. */
static void report_own(const char *key, double value)
{
	char name[64];
	const struct bench_metric *m;

	for (size_t k = 0; k < sizeof(yaml_metrics) / sizeof(yaml_metrics[0]); k++)
		if (!strcmp(yaml_metrics[k].key, key))
			return;
	snprintf(name, sizeof(name), "%s", key);
	for (char *c = name; *c; c++)
		if (*c == '-')
			*c = '_';
	for (m = metrics; m->name && strcmp(m->name, name); m++)
		;
	if (m->name)
		bench_report(m->name, value);
	else
		bench_note("%s: stress-ng's %s %.15g", stressor, key, value);
}

static int report_yaml(uint64_t ns)
{
	struct sng_yaml y;
	double done, v;

	if (sng_yaml_read(yaml, stressor, &y))
		return -1;
	if (sng_yaml_get(&y, "bogo-ops", &done) || done <= 0)
		return bench_fail("stressor %s did no bogo-op", stressor);
	bench_report("ns_per_bogo_op", (double)ns * (double)workers / done);
	bench_report("elapsed", (double)ns / 1e9);
	bench_report("workers", (double)workers);
	for (size_t i = 0; i < sizeof(yaml_metrics) / sizeof(yaml_metrics[0]); i++)
		if (!sng_yaml_get(&y, yaml_metrics[i].key, &v))
			bench_report(yaml_metrics[i].metric, v * yaml_metrics[i].scale);
	for (size_t i = 0; i < y.n; i++)
		report_own(&y.metric[i].key[0], y.metric[i].value);
	return 0;
}

static int measure(void)
{
	int rc;

	memset(region, 0, sizeof(*region));
	rc = run_stress_ng() || report_yaml(region->end_ns - region->begin_ns) ? -1 : 0;
	unlink(yaml);
	return rc;
}

static int teardown(void)
{
	munmap(region, sizeof(*region));
	close(region_fd);
	return 0;
}

struct bench bench = {
	.name = "stressng",
	.description = "one stress-ng stressor, its workers doing a fixed number of bogo-ops, timed as stress-ng times it",
	.metrics = metrics,
	.opts = opts,
	.monitors = "vmstat",
	.check = check,
	.setup = setup,
	.measure = measure,
	.teardown = teardown,
};
