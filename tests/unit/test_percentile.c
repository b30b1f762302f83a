/* Unit tests for bench/lib/percentile.c: nearest-rank percentiles, checked by hand. */
#include <stddef.h>
#include <stdint.h>

#include "harness.h"
#include "unit.h"

TEST(sorting_orders_ascending_with_duplicates)
{
	uint64_t v[] = { 5, 1, 4, 1, 3, UINT64_MAX, 0 };
	const uint64_t want[] = { 0, 1, 1, 3, 4, 5, UINT64_MAX };

	(void)state;
	bench_sort_u64(v, 7);
	assert_memory_equal(v, want, sizeof(want));
}

/* 1..10: rank ceil(p * 10), so p50 is the 5th value and p91 the 10th. */
TEST(percentile_is_the_nearest_rank)
{
	uint64_t v[10];

	(void)state;
	for (int i = 0; i < 10; i++)
		v[i] = (uint64_t)(i + 1) * 100;
	assert_int_equal(bench_percentile(v, 10, 0.5), 500);
	assert_int_equal(bench_percentile(v, 10, 0.9), 900);
	assert_int_equal(bench_percentile(v, 10, 0.91), 1000);
	assert_int_equal(bench_percentile(v, 10, 1.0), 1000);
	assert_int_equal(bench_percentile(v, 10, 0.0), 100);
	assert_int_equal(bench_percentile(v, 10, 0.05), 100);
}

/* An even count's median is the lower middle value; one value is every percentile. */
TEST(percentile_of_small_counts)
{
	uint64_t two[] = { 7, 9 }, one[] = { 42 };

	(void)state;
	assert_int_equal(bench_percentile(two, 2, 0.5), 7);
	assert_int_equal(bench_percentile(two, 2, 0.51), 9);
	assert_int_equal(bench_percentile(one, 1, 0.5), 42);
	assert_int_equal(bench_percentile(one, 1, 0.99), 42);
}

/* 0.99 and 0.29 are not exact in binary: p99 of 100 values is still the 99th. */
TEST(percentile_ranks_survive_binary_fractions)
{
	uint64_t v[100];

	(void)state;
	for (int i = 0; i < 100; i++)
		v[i] = (uint64_t)i + 1;
	assert_int_equal(bench_percentile(v, 100, 0.99), 99);
	assert_int_equal(bench_percentile(v, 100, 0.29), 29);
	assert_int_equal(bench_percentile(v, 100, 0.5), 50);
}
