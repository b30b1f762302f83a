/*
 * reports/units.c: the display unit of a table block, the -0.00 tidy-up
 * and the terminal width of a label.  Every expected figure is worked out
 * by hand in its comment from the rule units.h and docs/compare.md state:
 * the largest step of the ladder (ns µs ms s; bytes KiB MiB GiB TiB; "" K
 * M G) that keeps the value at or above 1.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "compare/units.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

TEST(time_ladder_takes_the_largest_step_at_or_above_one)
{
	struct scale sc;

	/* 2e-3 s: 0.002 s < 1, 2 ms >= 1: ms, shown value = 2e-3 / 1e-3 = 2.00 */
	unit_scale("s", 2e-3, &sc);
	assert_string_equal(sc.unit, "ms");
	NEAR(sc.div, 1e-3, 1e-18);
	assert_true(sc.scaled);
	/* 4e-4 s: 0.4 ms < 1, 400 µs >= 1: µs (400.00 µs, units.h's example) */
	unit_scale("s", 4e-4, &sc);
	assert_string_equal(sc.unit, "µs");
	NEAR(sc.div, 1e-6, 1e-21);
}

TEST(a_step_is_taken_at_exactly_one_of_it)
{
	struct scale sc;

	/* "at or above 1": 1e-3 s is 1.00 ms, not 1000.00 µs */
	unit_scale("s", 1e-3, &sc);
	assert_string_equal(sc.unit, "ms");
	/* 1024 bytes is 1.00 KiB; 1023 bytes is below it */
	unit_scale("bytes", 1024, &sc);
	assert_string_equal(sc.unit, "KiB");
	NEAR(sc.div, 1024, 0);
	unit_scale("bytes", 1023, &sc);
	assert_string_equal(sc.unit, "bytes");
	/* 1000 of a count is 1.00K */
	unit_scale("count", 1000, &sc);
	assert_string_equal(sc.unit, "K");
}

TEST(time_units_below_seconds_climb_from_their_own_step)
{
	struct scale sc;

	/* 2.5e6 ns = 2.5 ms: ms, and a ms is 1e6 ns */
	unit_scale("ns", 2.5e6, &sc);
	assert_string_equal(sc.unit, "ms");
	NEAR(sc.div, 1e6, 1e-6);
	/* "us" is µs spelt in ASCII: 2500 µs = 2.5 ms, a ms is 1e3 µs */
	unit_scale("us", 2500, &sc);
	assert_string_equal(sc.unit, "ms");
	NEAR(sc.div, 1e3, 1e-9);
	/* 2500 ms = 2.5 s, a s is 1e3 ms */
	unit_scale("ms", 2500, &sc);
	assert_string_equal(sc.unit, "s");
	NEAR(sc.div, 1e3, 1e-9);
}

TEST(a_value_below_the_smallest_step_keeps_it)
{
	struct scale sc;

	/* 0.5 ns: no step keeps it at or above 1, so the bottom one, unscaled */
	unit_scale("ns", 0.5, &sc);
	assert_string_equal(sc.unit, "ns");
	NEAR(sc.div, 1, 0);
	assert_false(sc.scaled);
}

TEST(bytes_climb_in_powers_of_1024)
{
	struct scale sc;

	/* 1.5 GiB = 1.5 * 2^30 = 1610612736 bytes: 1.50 GiB */
	unit_scale("bytes", 1610612736.0, &sc);
	assert_string_equal(sc.unit, "GiB");
	NEAR(sc.div, 1073741824.0, 0);
	/* 5 PiB = 5 * 2^50: no PiB step, so 5120.00 TiB (2^40) */
	unit_scale("bytes", 5.0 * 1125899906842624.0, &sc);
	assert_string_equal(sc.unit, "TiB");
	NEAR(sc.div, 1099511627776.0, 0);
}

TEST(counts_take_an_si_prefix_and_no_unit_name)
{
	struct scale sc;

	/* 1234 -> 1.23K; 2.5e9 -> 2.50G; 999 -> 999.00 with no unit at all */
	unit_scale("count", 1234, &sc);
	assert_string_equal(sc.unit, "K");
	NEAR(sc.div, 1e3, 0);
	unit_scale("count", 2.5e9, &sc);
	assert_string_equal(sc.unit, "G");
	unit_scale("count", 999, &sc);
	assert_string_equal(sc.unit, "");
	assert_false(sc.scaled);
}

TEST(rates_put_the_prefix_before_their_unit)
{
	struct scale sc;

	/* 220000 ops/s -> 220.00 Kops/s */
	unit_scale("ops/s", 2.2e5, &sc);
	assert_string_equal(sc.unit, "Kops/s");
	NEAR(sc.div, 1e3, 0);
	/* 5e12: G is the top step, 5000.00 Gops/s */
	unit_scale("ops/s", 5e12, &sc);
	assert_string_equal(sc.unit, "Gops/s");
	/* 12 ops/s: no prefix, the unit itself */
	unit_scale("ops/s", 12, &sc);
	assert_string_equal(sc.unit, "ops/s");
	assert_false(sc.scaled);
}

/* A block whose every mean is 0 (or none is a number) keeps its own unit. */
TEST(no_magnitude_keeps_the_metrics_own_unit)
{
	struct scale sc;

	unit_scale("s", 0, &sc);
	assert_string_equal(sc.unit, "s");
	NEAR(sc.div, 1, 0);
	assert_false(sc.scaled);
	unit_scale("bytes", NAN, &sc);
	assert_string_equal(sc.unit, "bytes");
	NEAR(sc.div, 1, 0);
	/* a count never names itself, prefixed or not */
	unit_scale("count", INFINITY, &sc);
	assert_string_equal(sc.unit, "");
	NEAR(sc.div, 1, 0);
}

/*
 * printf("%.2f", -0.004) prints "-0.00", a change that is not one; tidy2
 * makes it 0 (positive zero, so "0.00").  -0.005 prints as "-0.01" and is
 * kept: the cut is where %.2f stops printing zero.
 */
TEST(tidy2_zeroes_only_what_prints_as_zero)
{
	char buf[16];

	assert_true(tidy2(-0.004) == 0 && !signbit(tidy2(-0.004)));
	snprintf(buf, sizeof(buf), "%.2f", tidy2(-0.004));
	assert_string_equal(buf, "0.00");
	assert_true(tidy2(0.004) == 0);
	assert_true(tidy2(-0.005) == -0.005);
	snprintf(buf, sizeof(buf), "%.2f", tidy2(-0.005));
	assert_string_equal(buf, "-0.01");
	assert_true(tidy2(43.37) == 43.37);
}

/* µ is two bytes of UTF-8 and one column: "µs" is 2 columns, 3 bytes. */
TEST(display_width_counts_characters_not_bytes)
{
	assert_int_equal(strlen("µs"), 3);
	assert_int_equal(display_width("µs"), 2);
	assert_int_equal(display_width("Elapsed [µs]"), 12);
	assert_int_equal(display_width("Kops/s"), 6);
	assert_int_equal(display_width(""), 0);
}
