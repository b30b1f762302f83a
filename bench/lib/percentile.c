/* Order statistics of per-operation times, for benches that time many operations. */
#include "harness.h"

#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

void bench_sort_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
}

/*
 * Nearest rank: the smallest value with at least p of the values at or
 * below it, so p = 0.5 of an even count is the lower middle value and
 * p = 1 the maximum.  The epsilon keeps p * n = 99.0000001 from rounding
 * up a rank that is exact in decimal.
 */
uint64_t bench_percentile(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)(p * (double)n + 0.999999);

	if (rank > n)
		rank = n;
	return sorted[rank ? rank - 1 : 0];
}
