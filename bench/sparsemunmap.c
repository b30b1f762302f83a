/*
 * sparsemunmap - "munmap extremely slow even with untouched mapping"
 * (linux-mm, 2005).  The thread's program opened a new temp file
 * (O_RDWR|O_CREAT|O_EXCL, 0600), unlinked it, mapped 17592182882304 bytes
 * (16 TiB) PROT_READ|PROT_WRITE, MAP_SHARED, never touched it and timed
 * munmap(): 24 s on ia64 2.6.14, because the unmap walked every empty page
 * table slot.  After the fix, 1000 map+unmap cycles of 1 TiB took < 0.01 s.
 */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* x86-64 4-level paging spans; the shapes the thread discussed. */
#define PMD_SPAN (2ull << 20)
#define PUD_SPAN (1ull << 30)
#define PGD_SPAN (512ull << 30)

#define MAX_CYCLES 1000000	/* 16 MB of per-cycle times */
/*
 * --placement isolated maps here: 512G-aligned, above the heap and below
 * where PIE binaries, libraries and the mmap base live (from ~85 TiB up).
 */
#define ISOLATED_BASE (16ull << 40)

enum backing { BACK_FILE, BACK_MEMFD, BACK_ANON };
enum placement { PLACE_KERNEL, PLACE_ISOLATED };

static uint64_t size = 17592182882304ull;
static int backing;
static uint64_t stride;		/* 0: never touched, the thread's case */
static uint64_t cycles = 1;
static int placement;
static const char *dir;
static int fd = -1;
static char *area;

static const struct bench_metric metrics[] = {
	{ "elapsed", "Elapsed", "s", LOWER_IS_BETTER },
	{ "mmap_elapsed", "Mmap", "s", LOWER_IS_BETTER },
	{ "cycle_elapsed", "Cycle", "s", LOWER_IS_BETTER },
	{ "total_elapsed", "Total", "s", LOWER_IS_BETTER },
	{ "touch_elapsed", "Touch", "s", LOWER_IS_BETTER },
	{ "pages_touched", "Touched", "count", NEITHER_BETTER },
	{ NULL, NULL, NULL, 0 },
};

static struct bench_opt opts[] = {
	{ "size", OPT_SIZE, &size, NULL, "bytes to map (default 17592182882304, the thread's 16 TiB)", 0 },
	{ "backing", OPT_CHOICE, &backing, "file|memfd|anon", "what backs the mapping (file: the thread's)", 0 },
	{ "dir", OPT_STRING, &dir, NULL, "directory of the unlinked temp file (default $TMPDIR or /tmp)", 0 },
	{ "touch-stride", OPT_SIZE, &stride, NULL, "write one page every STRIDE bytes before unmapping (2M: per PMD, 1G: per PUD, 512G: per PGD)", 0 },
	{ "cycles", OPT_U64, &cycles, NULL, "map+unmap cycles in one process: elapsed and mmap_elapsed are their medians, the rest means (default 1)", 0 },
	{ "placement", OPT_CHOICE, &placement, "kernel|isolated",
	  "where the mapping goes (kernel: mmap(NULL, ...), the thread's; isolated: at 16 TiB, 512G-aligned, clear of other mappings)", 0 },
	{ NULL, 0, NULL, NULL, NULL, 0 },
};

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t touches(void)
{
	return stride ? div_up(size, stride) : 0;
}

/*
 * Memory the touches populate: one page each, plus the page-table pages
 * they allocate (a PTE page per distinct 2M, a PMD page per 1G, a PUD page
 * per 512G).  A 2M stride over 16 TiB would need 64 GiB of it.
 */
static uint64_t touch_footprint(void)
{
	uint64_t n = touches();

	return bench_page_size() * (n + min_u64(n, div_up(size, PMD_SPAN)) +
			    min_u64(n, div_up(size, PUD_SPAN)) + min_u64(n, div_up(size, PGD_SPAN)));
}

static int check_options(void)
{
	if (bench_check_pages("size", size))
		return -1;
	if (bench_opt_given("touch-stride") && bench_check_pages("touch-stride", stride))
		return -1;
	if (!cycles || cycles > MAX_CYCLES)
		return bench_fail("--cycles %llu: must be between 1 and %d", (unsigned long long)cycles, MAX_CYCLES);
	if (dir && backing != BACK_FILE)
		return bench_fail("--dir applies only to --backing file");
	if (dir && access(dir, W_OK | X_OK))
		return bench_fail("--dir %s: not a directory this process can create files in: %m", dir);
	return 0;
}

/* With --cap-size, shrink the mapping until what its touches populate fits. */
static int fit_touches(void)
{
	uint64_t need = touch_footprint(), room;

	if (!need)
		return 0;
	room = bench_fit_memory("memory touched (pages and page tables)", need);
	if (!room)
		return -1;
	if (room < need) {
		size = (uint64_t)((double)size * ((double)room / (double)need));
		size -= size % stride;
		if (size < stride)
			return bench_fail("--touch-stride %llu: not even one touch fits in memory",
					  (unsigned long long)stride);
		bench_note("--size reduced to %llu bytes so its touched pages fit", (unsigned long long)size);
	}
	return 0;
}

/*
 * mkstemp opens O_RDWR|O_CREAT|O_EXCL with mode 0600, exactly the thread's
 * open(); unlinking at once means nothing is left behind even if killed.
 */
static int open_file(void)
{
	const char *base = dir ? dir : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/mmdelta-sparsemunmap.XXXXXX", base);
	fd = mkstemp(path);
	if (fd < 0)
		return bench_fail("cannot create a temp file in %s: %m", base);
	if (unlink(path))
		return bench_fail("cannot unlink %s: %m", path);
	return 0;
}

/* Touching beyond EOF raises SIGBUS, so a touched file is extended, sparsely. */
static int open_backing(void)
{
	if (backing == BACK_ANON)
		return 0;
	if (backing == BACK_MEMFD)
		fd = memfd_create("mmdelta-sparsemunmap", MFD_CLOEXEC);
	else if (open_file())
		return -1;
	if (fd < 0)
		return bench_fail("memfd_create failed: %m");
	if (stride && ftruncate(fd, (off_t)size))
		return bench_fail("extending the backing file to %llu bytes failed: %m%s", (unsigned long long)size,
				  errno == EFBIG ? " (the filesystem's file size limit; try --backing memfd or a tmpfs --dir)" : "");
	return 0;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* VmSize of this process in bytes, from /proc/self/status; 0 if unknown. */
static uint64_t vm_size(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

static long map_count(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	long n = 0;
	int c;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* mmap says only ENOMEM; name the limit that refused the mapping. */
static int explain_mmap_failure(int err)
{
	struct rlimit as;
	unsigned long long sz = (unsigned long long)size;
	long max_maps = read_long("/proc/sys/vm/max_map_count");

	if (err != ENOMEM)
		return bench_fail("mmap of %llu bytes failed: %s", sz, strerror(err));
	if (!getrlimit(RLIMIT_AS, &as) && as.rlim_cur != RLIM_INFINITY && size + vm_size() > as.rlim_cur)
		return bench_fail("mmap of %llu bytes refused by the address-space limit RLIMIT_AS (%llu bytes; ulimit -v)",
				  sz, (unsigned long long)as.rlim_cur);
	if (max_maps > 0 && map_count() >= max_maps - 1)
		return bench_fail("mmap of %llu bytes refused: the process has reached vm.max_map_count (%ld)", sz, max_maps);
	/* Mode 2 accounts MAP_NORESERVE private mappings too (mm/mmap.c). */
	if (backing == BACK_ANON && read_long("/proc/sys/vm/overcommit_memory") == 2)
		return bench_fail("mmap of %llu bytes refused by strict overcommit (vm.overcommit_memory=2, see CommitLimit in /proc/meminfo)", sz);
	return bench_fail("mmap of %llu bytes refused: no free range that large in the user address space (128 TiB with 4-level paging)", sz);
}

static int map_area(void)
{
	int prot = PROT_READ | PROT_WRITE;
	int flags = backing == BACK_ANON ? MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE : MAP_SHARED;
	void *hint = placement == PLACE_ISOLATED ? (void *)ISOLATED_BASE : NULL;
	static int noted;

	area = mmap(hint, size, prot, flags, backing == BACK_ANON ? -1 : fd, 0);
	if (area == MAP_FAILED)
		return explain_mmap_failure(errno);
	if (hint && area != hint && !noted++)
		bench_note("--placement isolated: %p is taken, the kernel placed the mapping at %p", hint, (void *)area);
	/*
	 * The shapes are one page per PMD/PUD/PGD: a THP or a readaround
	 * window would populate 512 or 32 pages per touch instead, and the
	 * footprint checked above would not hold.
	 */
	if (stride && (madvise(area, size, MADV_NOHUGEPAGE) || (backing != BACK_ANON && madvise(area, size, MADV_RANDOM))))
		return bench_fail("madvise before touching failed: %m");
	return 0;
}

static void touch_area(void)
{
	for (uint64_t off = 0; stride && off < size; off += stride)
		((volatile char *)area)[off] = 1;
}

/*
 * Per cycle: the mmap, the touches (timed apart from it) and the munmap,
 * the metric.  Each is timed by its own two clock reads; the mapping of the
 * next cycle is made between the munmaps, outside their clock reads.  Each
 * munmap is a timed region of its own, so the insns monitor counts the
 * munmaps alone, summed over the cycles (its regions are the cycles).
 */
static uint64_t *map_ns, *unmap_ns, touch_ns, done;

static int map_and_touch(void)
{
	uint64_t t0 = bench_now_ns(), t1, t2;

	if (map_area())
		return -1;
	t1 = bench_now_ns();
	touch_area();
	t2 = bench_now_ns();
	map_ns[done] = t1 - t0;
	touch_ns += t2 - t1;
	return 0;
}

static int unmap(void)
{
	uint64_t t0, t1;
	int ret;

	t0 = bench_region_start_ns();
	ret = munmap(area, size);
	t1 = bench_region_end_ns();
	if (ret)
		return bench_fail("munmap of %llu bytes failed: %m", (unsigned long long)size);
	unmap_ns[done++] = t1 - t0;
	area = NULL;
	return 0;
}

static int check(void)
{
	return check_options() || fit_touches() ? -1 : 0;
}

/* The first mapping is made here, so --trigger brackets the munmaps. */
static int setup(void)
{
	map_ns = calloc(cycles, sizeof(*map_ns));
	unmap_ns = calloc(cycles, sizeof(*unmap_ns));
	if (!map_ns || !unmap_ns)
		return bench_fail("out of memory for %llu cycle times", (unsigned long long)cycles);
	return open_backing() || map_and_touch() ? -1 : 0;
}

static int measure(void)
{
	if (unmap())
		return -1;
	for (uint64_t c = 1; c < cycles; c++)
		if (map_and_touch() || unmap())
			return -1;
	return 0;
}

static uint64_t sum(const uint64_t *v, uint64_t n)
{
	uint64_t s = 0;

	for (uint64_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

/* The median of the cycles, sorting v in place. */
static double median_s(uint64_t *v, uint64_t n)
{
	bench_sort_u64(v, n);
	return (double)bench_percentile(v, n, 0.5) / 1e9;
}

/*
 * One munmap of a few microseconds is at the mercy of one interrupt; the
 * median of many in one process is not, and is what elapsed reports.
 */
static int teardown(void)
{
	double n = (double)cycles, total = (double)(sum(map_ns, cycles) + sum(unmap_ns, cycles)) / 1e9;

	if (fd >= 0)
		close(fd);
	bench_raw("munmap", unmap_ns, cycles);
	bench_raw("mmap", map_ns, cycles);
	bench_report("elapsed", median_s(unmap_ns, cycles));
	bench_report("mmap_elapsed", median_s(map_ns, cycles));
	bench_report("cycle_elapsed", total / n);
	bench_report("total_elapsed", total);
	bench_report("touch_elapsed", (double)touch_ns / 1e9 / n);
	bench_report("pages_touched", (double)touches());
	free(map_ns);
	free(unmap_ns);
	return 0;
}

struct bench bench = {
	.name = "sparsemunmap",
	.description = "munmap() of a huge, sparsely touched or untouched mapping (16 TiB MAP_SHARED of an empty file)",
	.metrics = metrics,
	.opts = opts,
	.check = check,
	.setup = setup,
	.measure = measure,
	.teardown = teardown,
};
