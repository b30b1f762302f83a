/* N tasks released together and timed as one region.  See tasks.h. */
#include "tasks.h"
#include "cpus.h"
#include "harness.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum { GO_WAIT, GO_RUN, GO_ABORT };

/* A task's outcome, in memory the tasks share with the bench in either mode. */
struct slot {
	uint64_t minflt;
	int failed;
	char why[200];
} __attribute__((aligned(256)));

/* The futex words: counts the bench waits on, and flags the tasks wait on. */
struct shared {
	int ready, done, go, quit;
	struct slot slot[];
};

static struct task_spec spec;
static struct shared *sh;
static size_t sh_size;
static uint64_t started;
static pid_t pids[TASKS_MAX];
static pthread_t threads[TASKS_MAX];
static __thread struct slot *current;

/* Not the private futex ops: in process mode the words are shared memory. */
static long futex(int *word, int op, int val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

static void wake(int *word, int n)
{
	futex(word, FUTEX_WAKE, n);
}

int task_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(current->why, sizeof(current->why), fmt, ap);
	va_end(ap);
	current->failed = 1;
	return -1;
}

/* Count this task in *word; the last one wakes the bench. */
static void arrive(int *word)
{
	if (__atomic_add_fetch(word, 1, __ATOMIC_ACQ_REL) == (int)spec.n)
		wake(word, 1);
}

static int wait_flag(int *word)
{
	int v;

	while ((v = __atomic_load_n(word, __ATOMIC_ACQUIRE)) == 0)
		futex(word, FUTEX_WAIT, 0);
	return v;
}

static int bind_to_cpu(unsigned i)
{
	cpu_set_t one;
	int cpu = cpus_nth_set(i, &one);

	if (cpu < 0)
		return task_fail("reading the CPUs it may run on: %m");
	return sched_setaffinity(0, sizeof(one), &one) ? task_fail("binding to CPU %d: %m", cpu) : 0;
}

static void task_body(unsigned i)
{
	struct rusage r0, r1;
	int ok;

	current = &sh->slot[i];
	ok = !(spec.pin && bind_to_cpu(i)) && !(spec.prepare && spec.prepare(i));
	getrusage(RUSAGE_THREAD, &r0);
	arrive(&sh->ready);
	if (wait_flag(&sh->go) == GO_RUN && ok) {
		if (spec.work(i) && !current->failed)
			task_fail("its work failed");
		getrusage(RUSAGE_THREAD, &r1);
		current->minflt = (uint64_t)(r1.ru_minflt - r0.ru_minflt);
	}
	arrive(&sh->done);
	wait_flag(&sh->quit);
	if (ok && spec.finish)
		spec.finish(i);
}

static void *thread_main(void *arg)
{
	task_body((unsigned)(uintptr_t)arg);
	return NULL;
}

/* A child must not outlive a bench that was killed, nor flush its stdio. */
static void process_main(unsigned i, pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	task_body(i);
	_exit(0);
}

static int create(unsigned i)
{
	pthread_attr_t attr;
	pid_t parent = getpid();
	int err;

	if (!spec.threads) {
		pids[i] = fork();
		if (pids[i] == 0)
			process_main(i, parent);
		return pids[i] < 0 ? bench_fail("creating task %u (fork): %s", i, strerror(errno)) : 0;
	}
	pthread_attr_init(&attr);
	/* 4096 threads of 8 MiB each would be 32 GiB of address space. */
	pthread_attr_setstacksize(&attr, 256 << 10);
	err = pthread_create(&threads[i], &attr, thread_main, (void *)(uintptr_t)i);
	pthread_attr_destroy(&attr);
	return err ? bench_fail("creating task %u (thread): %s", i, strerror(err)) : 0;
}

/* A process that ended before tasks_stop() let it: say which, and how. */
static int ended_early(void)
{
	int status;
	pid_t pid;

	if (spec.threads || (pid = waitpid(-1, &status, WNOHANG)) <= 0)
		return 0;
	for (uint64_t i = 0; i < started; i++)
		if (pids[i] == pid) {
			pids[i] = 0;
			return bench_fail("task %llu ended early (%s %d)", (unsigned long long)i,
					  WIFSIGNALED(status) ? "signal" : "exit status",
					  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		}
	return 0;
}

/* Wait until *word counts every task; -1 when a process ended instead. */
static int wait_count(int *word)
{
	int v;

	while ((v = __atomic_load_n(word, __ATOMIC_ACQUIRE)) < (int)spec.n)
		if (futex(word, FUTEX_WAIT, v) && errno == EINTR && ended_early())
			return -1;
	return 0;
}

static int first_failure(void)
{
	for (uint64_t i = 0; i < spec.n; i++)
		if (sh->slot[i].failed)
			return bench_fail("task %llu: %s", (unsigned long long)i, sh->slot[i].why);
	return 0;
}

/* SIGCHLD interrupts the bench's futex waits, so a task that dies is seen. */
static void on_child(int sig)
{
	(void)sig;
}

int tasks_start(const struct task_spec *s)
{
	struct sigaction sa = { .sa_handler = on_child };

	spec = *s;
	sh_size = sizeof(*sh) + spec.n * sizeof(struct slot);
	sh = mmap(NULL, sh_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return bench_fail("mmap of the tasks' shared area failed: %s", strerror(errno));
	if (!spec.threads)
		sigaction(SIGCHLD, &sa, NULL);
	for (started = 0; started < spec.n; started++)
		if (create((unsigned)started))
			break;
	if (started < spec.n || wait_count(&sh->ready) || first_failure()) {
		__atomic_store_n(&sh->go, GO_ABORT, __ATOMIC_RELEASE);
		wake(&sh->go, INT_MAX);
		tasks_stop();
		return -1;
	}
	return 0;
}

int tasks_run(uint64_t *ns)
{
	uint64_t t0, t1;
	int lost;

	t0 = bench_region_start_ns();
	__atomic_store_n(&sh->go, GO_RUN, __ATOMIC_RELEASE);
	wake(&sh->go, INT_MAX);
	lost = wait_count(&sh->done);
	t1 = bench_region_end_ns();
	*ns = t1 - t0;
	return lost || first_failure() ? -1 : 0;
}

uint64_t tasks_minor_faults(void)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < spec.n; i++)
		sum += sh->slot[i].minflt;
	return sum;
}

static int reap(uint64_t i)
{
	int status;

	if (spec.threads)
		return pthread_join(threads[i], NULL) ? bench_fail("joining task %llu failed", (unsigned long long)i) : 0;
	if (!pids[i])
		return 0;	/* reaped by ended_early() */
	while (waitpid(pids[i], &status, 0) < 0)
		if (errno != EINTR)
			return bench_fail("waiting for task %llu: %s", (unsigned long long)i, strerror(errno));
	if (WIFSIGNALED(status))
		return bench_fail("task %llu ended by signal %d", (unsigned long long)i, WTERMSIG(status));
	return 0;
}

int tasks_stop(void)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	int rc = 0;

	__atomic_store_n(&sh->quit, 1, __ATOMIC_RELEASE);
	wake(&sh->quit, INT_MAX);
	for (uint64_t i = 0; i < started; i++)
		if (reap(i))
			rc = -1;
	if (!spec.threads)
		sigaction(SIGCHLD, &sa, NULL);
	munmap(sh, sh_size);
	started = 0;
	return rc;
}
