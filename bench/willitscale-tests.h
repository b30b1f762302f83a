/*
 * will-it-scale's tests (Anton Blanchard's will-it-scale, tests/NAME.c), as
 * the willitscale bench runs them: each test is one loop, written again
 * here and declared with WIS_TEST where it is written, so that adding one
 * is one declaration and, if its loop is new, one short function.  An
 * operation is what will-it-scale counts: its rate is the robot's
 * per_process_ops / per_thread_ops.
 */
#ifndef MMDELTA_WILLITSCALE_TESTS_H
#define MMDELTA_WILLITSCALE_TESTS_H

#include <stdint.h>

/* will-it-scale's MEMSIZE: what its mapping tests map in each loop. */
#define WIS_MEMSIZE (128ull << 20)

/* One task's state, its own in either mode. */
struct wis_task {
	int fd;			/* the task's file, for a test that maps one; else -1 */
	char *brk;		/* brk1: the break the task moves */
};

/* What a mapping test does to each page between its mmap and munmap. */
enum wis_pages {
	PAGES_NONE,		/* nothing: an operation is the mmap+munmap pair */
	PAGES_WRITE,		/* write a byte: an operation is a page (a fault) */
	PAGES_DONTNEED,		/* write, MADV_DONTNEED the page, read it back */
};

struct wis_test {
	const char *name;		/* will-it-scale's */
	const char *description;	/* its testcase_description */
	uint64_t loops;			/* a task's loops by default: whole 128 MiB loops, or some thousands */
	int process_only;		/* the kernel test robot runs it as processes only */
	/*
	 * A mapping test: each loop maps size bytes (0: WIS_MEMSIZE) with
	 * these mmap flags, of the task's own unlinked file (file: 1, made in
	 * --dir as will-it-scale makes it in /tmp) or anonymous, does `pages`
	 * to each page, and unmaps them.
	 */
	int map;
	int file;
	uint64_t size;
	enum wis_pages pages;
	/* A test with a loop of its own (map 0), and the operations it counts. */
	int (*prepare)(struct wis_task *t);	/* optional, before the region */
	int (*loop)(struct wis_task *t);	/* 0, or -1 after task_fail() */
	uint64_t ops_per_loop;
};

/*
 * Declare a test: WIS_TEST(page_fault1, .description = "...", ...).  A
 * pointer to it goes in the ELF section wis_tests, between the linker's
 * __start_wis_tests and __stop_wis_tests; `used` keeps it.
 */
#define WIS_TEST(id, ...)							\
	static const struct wis_test wis_test_##id = { .name = #id, __VA_ARGS__ }; \
	static const struct wis_test *const wis_entry_##id			\
		__attribute__((used, section("wis_tests"))) = &wis_test_##id

/* One loop of a mapping test in task t: 0, or -1 after task_fail(). */
int wis_map_loop(const struct wis_test *w, struct wis_task *t);

#endif
