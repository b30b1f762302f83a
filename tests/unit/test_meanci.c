/* The mean's confidence interval behind ITERATIONS=auto, against hand arithmetic. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "unit.h"
#include "stats/meanci.h"

TEST(interval_of_one_to_five_is_t_times_standard_error)
{
	double x[] = { 5, 3, 1, 4, 2 }, half;
	struct summary s;

	(void)state;
	summarize(x, 5, &s);
	assert_int_equal(mean_ci_half(&s, 0.95, &half), 0);
	/* t(0.975, 4) = 2.776445 (printed tables); s = sqrt(2.5); n = 5 */
	assert_float_equal(half, 2.776445 * 1.5811388 / 2.2360680, 1e-5);
}

TEST(interval_narrows_with_the_level)
{
	double x[] = { 10, 12, 11, 13, 9, 10, 11 }, h95, h99;
	struct summary s;

	(void)state;
	summarize(x, 7, &s);
	mean_ci_half(&s, 0.95, &h95);
	mean_ci_half(&s, 0.99, &h99);
	/* t(0.995, 6) / t(0.975, 6) = 3.707428 / 2.446912 */
	assert_float_equal(h99 / h95, 3.707428 / 2.446912, 1e-5);
}

TEST(one_value_has_no_interval)
{
	double x[] = { 3.0 }, half = -1;
	struct summary s;

	(void)state;
	summarize(x, 1, &s);
	assert_int_equal(mean_ci_half(&s, 0.95, &half), -1);
}

/*
 * iterations_for: the count whose two runs see pct, by hand from printed t
 * tables: t(0.975, df) = 4.302653 (2), 2.100922 (18), 2.018082 (42),
 * 2.015368 (44), 2.012896 (46), 2.010635 (48).
 */
TEST(spread_of_procmunmap_needs_25_iterations_to_see_one_percent)
{
	double seen;

	(void)state;
	/* 24: 2.012896 * 0.0174 * sqrt(2 / 24) = 1.011% > 1%; 25: 0.9895% */
	assert_int_equal(iterations_for(0.0174, 1, 30, &seen), 25);
	assert_float_equal(seen, 100 * 2.010635 * 0.0174 * sqrt(2.0 / 25), 1e-4);
}

TEST(a_count_capped_at_ten_sees_what_ten_see)
{
	double seen;

	(void)state;
	assert_int_equal(iterations_for(0.0174, 1, 10, &seen), 10);
	/* 2.100922 * 0.0174 * sqrt(2 / 10) */
	assert_float_equal(seen, 1.6348, 1e-4);
}

TEST(an_exact_spread_needs_two)
{
	double seen;

	(void)state;
	/* 4.302653 * 1.65e-3 * sqrt(2 / 2) = 0.71% */
	assert_int_equal(iterations_for(1.65e-3, 1, 10, &seen), 2);
	assert_float_equal(seen, 0.70994, 1e-4);
	assert_int_equal(iterations_for(0, 1, 10, &seen), 2);
	assert_float_equal(seen, 0, 1e-12);
}

TEST(a_smaller_change_needs_more)
{
	double seen;

	(void)state;
	/* 22: 2.018082 * sqrt(2 / 22) * 1.65e-3 = 0.1004%; 23: 0.0981% */
	assert_int_equal(iterations_for(1.65e-3, 0.1, 30, &seen), 23);
	assert_float_equal(seen, 100 * 2.015368 * 1.65e-3 * sqrt(2.0 / 23), 1e-5);
}
