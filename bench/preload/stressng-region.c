/*
 * stressng-region.so: loaded into stress-ng with LD_PRELOAD by the stressng
 * bench, it marks each stressor instance's run as the harness marks a timed
 * region (stressng-region.h).
 *
 * stress-ng's stress_run() times an instance in the instance's process,
 * from just before it calls the stressor to just after it returns
 * (stats->start and stats->finish, stress-ng.c).  The library calls
 * nearest to those two reads are umask(0077), which stress-ng makes there
 * and nowhere else, and alarm(0), which cancels the instance's timeout as
 * soon as the stressor returns: the region begins when the first returns
 * and ends when the second is called.  So in 0.15.06 and in stress-ng's
 * master of 2025.  A stressor that calls alarm(0) itself (alarm, sigfpe)
 * would end its region early; no memory stressor does.
 *
 * Between the two stress-ng sleeps for its --backoff, 0 us by default: a
 * nanosleep of 0 that still waits for the timer slack, idle (about 17 us
 * in a guest), and so no work of the stressor's.  When that sleep of
 * nothing is the next call, the region starts again after it.
 *
 * With several instances the region runs from the first one's start to
 * the last one's end: the insns markers then bracket every instance's work
 * (an instance that ends before another starts leaves a gap, not counted).
 */
#include "harness.h"
#include "stressng-region.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct stressng_region *region;
static int inside, backoff_next, began;
static mode_t (*real_umask)(mode_t);
static unsigned int (*real_alarm)(unsigned int);
static int (*real_nanosleep)(const struct timespec *, struct timespec *);

/*
 * In stress-ng's first process, before its main(): its forks inherit the
 * page.  LD_PRELOAD stays, for a stress-ng started through a wrapper.
 */
__attribute__((constructor)) static void attach(void)
{
	const char *fd = getenv(STRESSNG_REGION_ENV);
	void *p;

	real_umask = (mode_t (*)(mode_t))dlsym(RTLD_NEXT, "umask");
	real_alarm = (unsigned int (*)(unsigned int))dlsym(RTLD_NEXT, "alarm");
	real_nanosleep = (int (*)(const struct timespec *, struct timespec *))dlsym(RTLD_NEXT, "nanosleep");
	if (!fd)
		return;
	p = mmap(NULL, sizeof(*region), PROT_READ | PROT_WRITE, MAP_SHARED, atoi(fd), 0);
	if (p == MAP_FAILED)
		return;
	region = p;
	__atomic_add_fetch(&region->attached, 1, __ATOMIC_SEQ_CST);
}

mode_t umask(mode_t mask)
{
	mode_t old = real_umask(mask);
	uint64_t zero = 0, t;

	if (!region || mask != 0077 || inside)
		return old;
	inside = backoff_next = 1;
	__atomic_add_fetch(&region->started, 1, __ATOMIC_SEQ_CST);
	if (__atomic_fetch_add(&region->running, 1, __ATOMIC_SEQ_CST) == 0) {
		t = bench_region_start_ns();
		began = __atomic_compare_exchange_n(&region->begin_ns, &zero, t, 0, __ATOMIC_SEQ_CST,
						    __ATOMIC_SEQ_CST);
	}
	return old;
}

/* A begin marker again restarts the insns monitor's count of the region. */
int nanosleep(const struct timespec *req, struct timespec *rem)
{
	int rc = real_nanosleep(req, rem), backoff = backoff_next;

	backoff_next = 0;
	if (backoff && began && req && !req->tv_sec && !req->tv_nsec &&
	    __atomic_load_n(&region->running, __ATOMIC_SEQ_CST) == 1)
		__atomic_store_n(&region->begin_ns, bench_region_start_ns(), __ATOMIC_SEQ_CST);
	return rc;
}

unsigned int alarm(unsigned int seconds)
{
	if (region && seconds == 0 && inside) {
		inside = 0;
		if (__atomic_sub_fetch(&region->running, 1, __ATOMIC_SEQ_CST) == 0)
			__atomic_store_n(&region->end_ns, bench_region_end_ns(), __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&region->ended, 1, __ATOMIC_SEQ_CST);
	}
	return real_alarm(seconds);
}
