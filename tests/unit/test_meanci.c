/* The mean's confidence interval behind ITERATIONS=auto, against hand arithmetic. */
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
