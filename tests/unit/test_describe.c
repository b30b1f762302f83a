/* bench/lib/describe.c: what run.sh reads to map config keys to options. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "harness.h"
#include "unit.h"

static uint64_t size = 56ull << 30, chunk, threads = 2, tasks = 3;
static int mode = 1, pin;
static const char *file = "cmdline", *dir;

static struct bench_opt opts[] = {
	{ "size", OPT_SIZE, &size, NULL, "bytes", 0 },
	{ "chunk", OPT_SIZE, &chunk, NULL, "off unless given", 0 },
	{ "threads", OPT_U64, &threads, NULL, "threads", 0 },
	{ "mode", OPT_CHOICE, &mode, "a|bb|c", "how", 0 },
	{ "proc-file", OPT_STRING, &file, NULL, "which file", 0 },
	{ "dir", OPT_STRING, &dir, NULL, "where", 0 },
	{ "pin", OPT_FLAG, &pin, NULL, "bind", 0 },
	{ "tasks", OPT_TASKS, &tasks, NULL, "at once", 0 },
	{ NULL, 0, NULL, NULL, NULL, 0 },
};

static const struct bench_metric metrics[] = {
	{ "elapsed", "Elapsed", "s", 0 },
	{ NULL, NULL, NULL, 0 },
};

static const struct bench fake = {
	.name = "fake", .metrics = metrics, .opts = opts, .monitors = "vmstat,perfstat",
};

/* What FN printed, as a string the caller frees. */
static char *printed(int (*fn)(FILE *, const struct bench *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, &fake), 0);
	fclose(f);
	return buf;
}

/* Defaults are the values before parsing: bytes, the choice's name, yes|no;
 * an option that is off by default (size 0, no string) has none. */
TEST(options_are_described_with_kind_default_and_choices)
{
	char *out = printed(describe_options);

	(void)state;
	assert_string_equal(out,
		"size\tsize\t60129542144\t\tbytes\n"
		"chunk\tsize\t\t\toff unless given\n"
		"threads\tnumber\t2\t\tthreads\n"
		"mode\tchoice\tbb\ta|bb|c\thow\n"
		"proc-file\tstring\tcmdline\t\twhich file\n"
		"dir\tstring\t\t\twhere\n"
		"pin\tflag\tno\t\tbind\n"
		"tasks\ttasks\t3\t\tat once\n");
	free(out);
}

/* --check's output is argv words: options that are off are left out. */
TEST(resolved_options_are_argv_words)
{
	char *out;

	(void)state;
	pin = 1;
	size = 1ull << 30;
	out = printed(describe_resolved);
	assert_string_equal(out,
		"--size\n1073741824\n--threads\n2\n--mode\nbb\n--proc-file\ncmdline\n--pin\n--tasks\n3\n");
	free(out);
	pin = 0;
}

TEST(metrics_are_described_as_metrics_tsv_lines)
{
	char *out = printed(describe_metrics);

	(void)state;
	assert_string_equal(out, "elapsed\tElapsed\ts\tlower\n");
	free(out);
}

/* One line, what run.sh gives a config without MONITORS=. */
TEST(default_monitors_are_one_line)
{
	char *out = printed(describe_monitors);

	(void)state;
	assert_string_equal(out, "vmstat,perfstat\n");
	free(out);
}
