/* Unit tests for bench/lib: sizes, config lines, output lines, meminfo. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "memlimit.h"
#include "output.h"
#include "size.h"
#include "unit.h"

static uint64_t parse_ok(const char *s)
{
	uint64_t v = 0;
	const char *why = NULL;

	assert_int_equal(size_parse(s, 1000ull << 20, &v, &why), 0);
	return v;
}

static const char *parse_err(const char *s)
{
	uint64_t v = 0;
	const char *why = NULL;

	assert_int_equal(size_parse(s, 1000ull << 20, &v, &why), -1);
	assert_non_null(why);
	return why;
}

TEST(size_plain_bytes_are_taken_as_they_are)
{
	(void)state;
	assert_int_equal(parse_ok("4096"), 4096);
	assert_int_equal(parse_ok("17592182882304"), 17592182882304ull);
}

TEST(size_suffixes_are_powers_of_1024)
{
	(void)state;
	assert_int_equal(parse_ok("64K"), 65536);
	assert_int_equal(parse_ok("512M"), 536870912ull);
	assert_int_equal(parse_ok("56G"), 60129542144ull);
	assert_int_equal(parse_ok("16T"), 17592186044416ull);
	assert_int_equal(parse_ok("1P"), 1125899906842624ull);
	assert_int_equal(parse_ok("2g"), 2147483648ull);
	assert_int_equal(parse_ok("2GB"), 2147483648ull);
	assert_int_equal(parse_ok("2GiB"), 2147483648ull);
}

TEST(size_percent_is_a_page_aligned_share_of_memtotal)
{
	(void)state;
	/* 50% of 1000 MiB = 524288000 bytes, already page-aligned. */
	assert_int_equal(parse_ok("50%"), 524288000ull);
	/* 1% of 1000 MiB = 10485760 bytes. */
	assert_int_equal(parse_ok("1%"), 10485760ull);
	assert_int_equal(parse_ok("33%") % 4096, 0);
}

TEST(size_rejects_what_is_not_a_size)
{
	(void)state;
	assert_string_equal(parse_err("64Q"), "unknown suffix (use K, M, G, T, P or %)");
	assert_string_equal(parse_err("G"), "not a size (expected digits, then K/M/G/T/P or %)");
	assert_string_equal(parse_err(""), "not a size (expected digits, then K/M/G/T/P or %)");
	assert_string_equal(parse_err("-1G"), "not a size (expected digits, then K/M/G/T/P or %)");
	assert_string_equal(parse_err("0"), "size must be greater than zero");
	assert_string_equal(parse_err("0%"), "percentage must be 1-100");
	assert_string_equal(parse_err("101%"), "percentage must be 1-100");
	assert_string_equal(parse_err("99999999999T"), "size overflows 64 bits");
	assert_string_equal(parse_err("99999999999999999999999"), "number too large");
	parse_err("1G ");
	parse_err("1.5G");
}

TEST(size_format_picks_the_largest_unit)
{
	char buf[32];

	(void)state;
	size_format(60129542144ull, buf, sizeof(buf));
	assert_string_equal(buf, "56.0G");
	size_format(1536ull << 20, buf, sizeof(buf));
	assert_string_equal(buf, "1.5G");
	size_format(1000, buf, sizeof(buf));
	assert_string_equal(buf, "1000");
}

TEST(output_value_lines_are_metric_tab_value)
{
	char buf[128];

	(void)state;
	output_value(buf, sizeof(buf), "elapsed", 3.391234567);
	assert_string_equal(buf, "elapsed\t3.391234567\n");
	output_value(buf, sizeof(buf), "pages", 14680064);
	assert_string_equal(buf, "pages\t14680064\n");
	/* Nanosecond resolution survives a 1000 s region. */
	output_value(buf, sizeof(buf), "elapsed", 1000.000000001);
	assert_string_equal(buf, "elapsed\t1000.000000001\n");
}

TEST(output_describe_lines_name_the_better_direction)
{
	char buf[128];
	struct bench_metric lower = { "elapsed", "Elapsed", "s", LOWER_IS_BETTER };
	struct bench_metric higher = { "ops_per_sec", "Ops/s", "ops/s", HIGHER_IS_BETTER };
	struct bench_metric neither = { "pages", "Pages", "count", NEITHER_BETTER };

	(void)state;
	output_describe(buf, sizeof(buf), &lower);
	assert_string_equal(buf, "elapsed\tElapsed\ts\tlower\n");
	output_describe(buf, sizeof(buf), &higher);
	assert_string_equal(buf, "ops_per_sec\tOps/s\tops/s\thigher\n");
	output_describe(buf, sizeof(buf), &neither);
	assert_string_equal(buf, "pages\tPages\tcount\tnone\n");
}

TEST(meminfo_fields_are_read_in_bytes)
{
	const char *text = "MemTotal:       24683656 kB\nMemFree:        22578228 kB\n"
			   "MemAvailable:   24328168 kB\nAvailable:  1 kB\n";

	(void)state;
	assert_int_equal(meminfo_bytes(text, "MemTotal"), 24683656ull * 1024);
	assert_int_equal(meminfo_bytes(text, "MemAvailable"), 24328168ull * 1024);
	assert_int_equal(meminfo_bytes(text, "Available"), 1024);
	assert_int_equal(meminfo_bytes(text, "SwapTotal"), 0);
}

TEST(memory_margin_is_a_tenth_or_one_gib)
{
	(void)state;
	assert_int_equal(memlimit_margin(24ull << 30), (24ull << 30) / 10);
	assert_int_equal(memlimit_margin(4ull << 30), 1ull << 30);
}
