#include "settle.h"
#include "harness.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Long enough for an RCU grace period and its callbacks on an idle CPU,
 * and for the works the driver's exits queued; free under icount, where an
 * idle vCPU's clock jumps straight to its next timer. */
#define SETTLE_IDLE_NS 200000000ull
/* 24 ms at HZ=250.  With two, timedmunlock's iterations on 6.1.0-54 were
 * up to 56 instructions apart, and with or without a monitor 11 to 67;
 * with six, within 12, and 11 to 16 apart, in all but one (docs/vm.md). */
#define SETTLE_BUSY_TICKS 6

static int same(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* The coarse clock is the one the tick itself updates: when it changes,
 * that tick's interrupt and the softirqs it raised have run. */
static int wait_tick(void)
{
	struct timespec before, now;

	if (clock_gettime(CLOCK_MONOTONIC_COARSE, &before))
		return -1;
	do
		if (clock_gettime(CLOCK_MONOTONIC_COARSE, &now))
			return -1;
	while (same(&before, &now));
	return 0;
}

/* Each refresh decays an auto-tuned pcp high by an eighth: 64 take the
 * largest (an eighth of the zone) down to its floor. */
#define SETTLE_PCP_REFRESHES 64

/*
 * Writing vm.stat_refresh runs the vmstat worker's refresh on every CPU.
 * From 6.7 that decays each per-CPU page list's auto-tuned high mark and
 * frees what its list holds above it to the buddy lists: repeated, it
 * leaves every list at its floor however far the last process's frees and
 * allocations tuned it.  Needs root; before 6.7 it leaves the lists be.
 */
static void decay_pcp(void)
{
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY);

	if (fd < 0) {
		bench_note("--settle: /proc/sys/vm/stat_refresh: %s: the per-CPU page lists are not decayed",
			   strerror(errno));
		return;
	}
	for (int i = 0; i < SETTLE_PCP_REFRESHES; i++)
		if (write(fd, "1\n", 2) != 2) {
			bench_note("--settle: writing /proc/sys/vm/stat_refresh: %s", strerror(errno));
			break;
		}
	close(fd);
}

int bench_settle(void)
{
	static char page[4096] __attribute__((aligned(4096)));

	/* MADV_COLD begins with lru_add_drain(): the pages the driver and the
	 * set-up left in this CPU's batch go to their lists now, not when the
	 * region's first LRU operation fills the batch. */
	if (madvise(page, sizeof(page), MADV_COLD))  /* before 5.4: EINVAL */
		bench_note("--settle: madvise(MADV_COLD): %s: this CPU's LRU batch is not drained",
			   strerror(errno));
	decay_pcp();
	bench_sleep_ns(SETTLE_IDLE_NS);
	/* Busy for SETTLE_BUSY_TICKS ticks: the deferrable timers due in the
	 * idle (they never wake an idle CPU) run in the first tick that finds
	 * the CPU busy, and the works they queue run in the ticks after it. */
	for (int i = 0; i < SETTLE_BUSY_TICKS; i++)
		if (wait_tick())
			return bench_fail("--settle: clock_gettime(CLOCK_MONOTONIC_COARSE): %s", strerror(errno));
	return 0;
}
