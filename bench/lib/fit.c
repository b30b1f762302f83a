/*
 * Sizes fitted to the machine and to pages: what every bench does with a
 * size before it maps anything, so that a refusal or a cap reads the same
 * whichever bench says it.
 */
#include "harness.h"
#include "memlimit.h"
#include "size.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define CAP_IPC_LOCK_BIT 14	/* linux/capability.h */

uint64_t bench_page_size(void)
{
	static uint64_t page;

	if (!page)
		page = (uint64_t)sysconf(_SC_PAGESIZE);
	return page;
}

int bench_check_pages(const char *opt, uint64_t bytes)
{
	if (bytes && bytes % bench_page_size() == 0)
		return 0;
	return bench_fail("--%s %llu: must be a non-zero multiple of the page size (%llu)", opt,
			  (unsigned long long)bytes, (unsigned long long)bench_page_size());
}

/*
 * Down to a multiple of the largest power of two <= bytes/16 (1G for 17.6G),
 * so that runs capped on the same machine at slightly different free
 * memory map the same size and compare like with like.
 */
static uint64_t round_to_granule(uint64_t bytes)
{
	uint64_t granule = 4096;

	while (granule * 2 <= bytes / 16)
		granule *= 2;
	return bytes / granule * granule;
}

/*
 * Refuse bytes over limit, or with --cap-size reduce it to limit, saying
 * which limit and by how much.  With headroom, 1/8 under it and rounded
 * down to a granule: memory freed by one iteration comes back to
 * MemAvailable slowly on a VM that reports free pages to its host (here a
 * 20G munmap left MemAvailable 2.4G short for minutes), and the next
 * iteration must fit the same size again.
 */
static uint64_t fit(const char *what, uint64_t bytes, uint64_t limit, int headroom,
		    const char *bound, const char *which, const char *hint)
{
	char want[32], room[32], over[32];

	size_format(bytes, want, sizeof(want));
	if (!bench_opt_given("cap-size") || limit == 0) {
		size_format(limit, room, sizeof(room));
		size_format(bytes - limit, over, sizeof(over));
		bench_fail("%s %s is more than %s: %s allows %s (%s over)%s",
			   what, want, bound, which, room, over, hint);
		return 0;
	}
	if (headroom)
		limit = round_to_granule(limit - limit / 8);
	size_format(limit, room, sizeof(room));
	size_format(bytes - limit, over, sizeof(over));
	bench_note("%s capped from %s to %s, %s less (%s%s)", what, want, room, over, which,
		   headroom ? ", less 1/8 of headroom" : "");
	return limit;
}

uint64_t bench_fit_memory(const char *what, uint64_t bytes)
{
	struct memlimit m;

	if (memlimit_read(&m))
		return bench_fail("cannot read /proc/meminfo"), 0;
	if (bytes <= m.limit)
		return bytes;
	return fit(what, bytes, m.limit, 1, "this machine can hold", m.which, "");
}

uint64_t bench_fit_memlock(const char *what, uint64_t bytes)
{
	struct rlimit rl, unlimited = { RLIM_INFINITY, RLIM_INFINITY };

	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		return bench_fail("getrlimit(RLIMIT_MEMLOCK) failed: %s", strerror(errno)), 0;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= bytes)
		return bytes;
	/*
	 * Root raises the limit; CAP_IPC_LOCK exempts a process from it
	 * altogether (containers often grant it without CAP_SYS_RESOURCE).
	 */
	if (setrlimit(RLIMIT_MEMLOCK, &unlimited) == 0 || bench_has_capability(CAP_IPC_LOCK_BIT))
		return bytes;
	/* Anyone may raise the soft limit up to the hard one. */
	if (rl.rlim_max > rl.rlim_cur) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_MEMLOCK, &rl))
			getrlimit(RLIMIT_MEMLOCK, &rl);
		if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= bytes)
			return bytes;
	}
	return fit(what, bytes, (uint64_t)rl.rlim_cur & ~4095ull, 0, "this process may lock",
		   "RLIMIT_MEMLOCK",
		   "; run as root or raise it with ulimit -l");
}

uint64_t bench_fit_pages(const char *what, uint64_t bytes)
{
	bytes = bench_fit_memory(what, bytes);
	if (!bytes)
		return 0;
	bytes -= bytes % bench_page_size();
	if (!bytes)
		bench_fail("%s is smaller than a page (%llu bytes)", what,
			   (unsigned long long)bench_page_size());
	return bytes;
}
