/*
 * reports/ statistics against hand-computed figures and printed t tables
 * (critical values from any statistics textbook, not from GSL).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "unit.h"
#include "compare/difftext.h"
#include "compare/units.h"
#include "stats/statrows.h"
#include "stats/stats.h"
#include "stats/ttest.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

TEST(summary_of_five_values)
{
	double x[] = { 5, 1, 4, 2, 3 };
	struct summary s;

	(void)state;
	summarize(x, 5, &s);
	assert_int_equal(s.n, 5);
	NEAR(s.min, 1, 0);
	NEAR(s.max, 5, 0);
	NEAR(s.range, 4, 0);
	NEAR(s.mean, 3, 1e-15);
	NEAR(s.median, 3, 1e-15);
	/* sum of squared deviations 10, n-1 = 4: sqrt(2.5) */
	NEAR(s.stddev, 1.5811388300841898, 1e-15);
	NEAR(s.coeffvar, 100 * 1.5811388300841898 / 3, 1e-12);
	/* type 7: 1 + 0.9 * 4 = position 4.6 -> 4 + 0.6 */
	NEAR(s.p90, 4.6, 1e-12);
	NEAR(s.p99, 4.96, 1e-12);
}

TEST(one_sample_has_no_stddev)
{
	double x[] = { 3.3 };
	struct summary s;
	double v;

	(void)state;
	summarize(x, 1, &s);
	assert_false(s.has_stddev);
	assert_false(stat_value(&s, ST_STDDEV, &v));
	assert_false(stat_value(&s, ST_COEFFVAR, &v));
	NEAR(s.range, 0, 0);
}

TEST(percentages_positive_means_better)
{
	double pct;

	(void)state;
	assert_true(pct_better(3.38, 1.90, 0, &pct));
	NEAR(pct, 100 - 190 / 3.38, 1e-12);
	assert_true(pct_better(100, 110, 1, &pct));
	NEAR(pct, 10, 1e-12);
	assert_true(pct_better(2.5, 2.5, 0, &pct));
	assert_true(pct == 0 && !signbit(pct));
	assert_true(pct_better(0, 0, 0, &pct));
	assert_false(pct_better(0, 1, 0, &pct));
}

TEST(spread_is_lower_is_better_even_for_rates)
{
	double a[] = { 1, 2, 3 }, b[] = { 1, 3, 5 };
	struct summary sa, sb;
	double pct;

	(void)state;
	summarize(a, 3, &sa);
	summarize(b, 3, &sb);
	assert_true(stat_pct(&sa, &sb, ST_RANGE, 1, &pct));
	NEAR(pct, -100, 1e-12);	/* range 2 -> 4 is worse */
	assert_true(stat_pct(&sa, &sb, ST_MEAN, 1, &pct));
	NEAR(pct, 50, 1e-12);	/* mean 2 -> 3 is better when higher is */
}

/* A counter is neither better nor worse: every row is the plain change. */
TEST(counters_show_the_plain_change)
{
	double a[] = { 100, 100, 100 }, b[] = { 0, 0, 0 }, c[] = { 1, 3, 5 }, d[] = { 1, 2, 3 };
	struct summary sa, sb, sc, sd;
	double pct;

	(void)state;
	summarize(a, 3, &sa);
	summarize(b, 3, &sb);
	summarize(c, 3, &sc);
	summarize(d, 3, &sd);
	assert_true(stat_pct(&sa, &sb, ST_MEAN, BETTER_NONE, &pct));
	NEAR(pct, -100, 1e-12);	/* a count that drops to zero */
	assert_true(stat_pct(&sd, &sc, ST_RANGE, BETTER_NONE, &pct));
	NEAR(pct, 100, 1e-12);	/* range 2 -> 4: +100%, not "worse" */
	assert_true(stat_pct(&sd, &sc, ST_RANGE, BETTER_HIGHER, &pct));
	NEAR(pct, -100, 1e-12);	/* with a direction, spread is lower-is-better */
	assert_false(stat_pct(&sb, &sa, ST_MEAN, BETTER_NONE, &pct));	/* 0 -> 100: no ratio */
}

/* Two sets of 3 with stddev 1: pooled s = 1, se = sqrt(2/3), df = 4. */
TEST(student_matches_the_t_table)
{
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct summary sa, sb;
	struct ttest t;

	(void)state;
	summarize(a, 3, &sa);
	summarize(b, 3, &sb);
	ttest_compare(&sa, &sb, TTEST_STUDENT, 0.05, 0, &t);
	NEAR(t.df, 4, 0);
	NEAR(t.diff, 3, 1e-15);
	NEAR(t.t, 3 / sqrt(2.0 / 3), 1e-12);
	/* t(0.975, 4) = 2.776 in the tables */
	NEAR(t.ci_half, 2.776 * sqrt(2.0 / 3), 1e-3);
	assert_int_equal(t.outcome, TTEST_DIFFERENCE);
	NEAR(t.diff_pct, 150, 1e-12);
}

/* At t exactly the table's critical value, p is alpha. */
TEST(p_value_at_the_critical_value_is_alpha)
{
	double crit = 2.776445105;	/* t(0.975, 4) to 10 digits */
	double a[] = { 1, 2, 3 }, b[] = { 1, 2, 3 };
	struct summary sa, sb;
	struct ttest t;

	(void)state;
	for (int i = 0; i < 3; i++)
		b[i] += crit * sqrt(2.0 / 3);
	summarize(a, 3, &sa);
	summarize(b, 3, &sb);
	ttest_compare(&sa, &sb, TTEST_STUDENT, 0.05, 0, &t);
	NEAR(t.p, 0.05, 1e-8);
}

/* Welch-Satterthwaite by hand: va = 1, vb = 4, na = nb = 3. */
TEST(welch_degrees_of_freedom)
{
	double a[] = { 1, 2, 3 }, b[] = { 0, 2, 4 };
	struct summary sa, sb;
	struct ttest t;

	(void)state;
	summarize(a, 3, &sa);
	summarize(b, 3, &sb);
	ttest_compare(&sa, &sb, TTEST_WELCH, 0.05, 0, &t);
	/* (1/3 + 4/3)^2 / ((1/3)^2/2 + (4/3)^2/2) = (25/9) / (17/18) = 50/17 */
	NEAR(t.df, 50.0 / 17, 1e-12);
	NEAR(t.diff, 0, 1e-15);
	NEAR(t.p, 1, 1e-12);
	assert_int_equal(t.outcome, TTEST_NO_DIFFERENCE);
}

TEST(fewer_than_two_samples_is_no_test)
{
	double a[] = { 1, 2, 3 }, b[] = { 5 };
	struct summary sa, sb;
	struct ttest t;

	(void)state;
	summarize(a, 3, &sa);
	summarize(b, 1, &sb);
	ttest_compare(&sa, &sb, TTEST_WELCH, 0.05, 0, &t);
	assert_int_equal(t.outcome, TTEST_NOT_DONE);
	assert_non_null(t.why_not);
}

TEST(constant_sets_differ_exactly)
{
	double a[] = { 7, 7 }, b[] = { 8, 8 }, c[] = { 7, 7, 7 };
	struct summary sa, sb, sc;
	struct ttest t;

	(void)state;
	summarize(a, 2, &sa);
	summarize(b, 2, &sb);
	summarize(c, 3, &sc);
	ttest_compare(&sa, &sb, TTEST_WELCH, 0.05, 1, &t);
	assert_int_equal(t.outcome, TTEST_DIFFERENCE);
	assert_true(t.exact);
	NEAR(t.ci_half, 0, 0);
	assert_false(isnan(t.p));
	/* the change is exact too: its interval is the point 100 * (8 - 7) / 7 */
	assert_true(t.change.bounded);
	NEAR(t.change.lo, 100.0 / 7, 1e-12);
	NEAR(t.change.hi, 100.0 / 7, 1e-12);
	ttest_compare(&sa, &sc, TTEST_WELCH, 0.05, 1, &t);
	assert_int_equal(t.outcome, TTEST_NO_DIFFERENCE);
}

/* Under a real clock zero variance is its resolution: nothing to test. */
TEST(constant_sets_under_a_real_clock_are_no_test)
{
	double a[] = { 7, 7 }, b[] = { 8, 8 };
	struct summary sa, sb;
	struct ttest t;

	(void)state;
	summarize(a, 2, &sa);
	summarize(b, 2, &sb);
	ttest_compare(&sa, &sb, TTEST_WELCH, 0.05, 0, &t);
	assert_int_equal(t.outcome, TTEST_NOT_DONE);
	assert_non_null(strstr(t.why_not, "real clock"));
}

/* A negative baseline: base -10 -10.1 -9.9, new -5 -5.1 -4.9 is 50% of
 * |base| higher, which lower-is-better reads as worse. */
TEST(negative_baseline_uses_its_magnitude)
{
	double a[] = { -10, -10.1, -9.9 }, b[] = { -5, -5.1, -4.9 }, pct;
	struct summary sa, sb;
	struct ttest t;

	(void)state;
	summarize(a, 3, &sa);
	summarize(b, 3, &sb);
	assert_true(pct_better(sa.mean, sb.mean, 0, &pct));
	NEAR(pct, -50, 1e-12);
	ttest_compare(&sa, &sb, TTEST_WELCH, 0.05, 0, &t);
	NEAR(t.diff_pct, 50, 1e-12);
	assert_true(t.change.lo > 0 && t.change.hi > t.change.lo);
	assert_true(t.change.lo < 50 && 50 < t.change.hi);
}

/* GSL's gsl_cdf_tdist_Q gives 4.47427257e-59 here; scipy's
 * ttest_ind(equal_var=False) 4.474274090933524e-59. */
TEST(far_tail_p_values_keep_their_digits)
{
	(void)state;
	/* t and Welch df of 1..60 against 101..160 */
	double t = 100 / sqrt(2 * 305.0 / 60), df = 118;

	NEAR(ttest_p(t, df) / 4.474274090933e-59, 1, 1e-9);
	NEAR(ttest_p(0, 5), 1, 0);
	NEAR(ttest_p(1e200, 3), 0, 0);	/* underflows to 0: no abort */
}

TEST(interval_printed_to_two_significant_digits)
{
	(void)state;
	assert_int_equal(sig_decimals(0.0261936), 3);
	assert_int_equal(sig_decimals(0.771534), 2);
	assert_int_equal(sig_decimals(2.5), 1);
	assert_int_equal(sig_decimals(12.3), 0);
	assert_int_equal(sig_decimals(0), 2);
}

TEST(display_units)
{
	struct scale sc;

	(void)state;
	unit_scale("s", 3.39, &sc);
	assert_string_equal(sc.unit, "s");
	assert_false(sc.scaled);
	unit_scale("s", 0.0023, &sc);
	assert_string_equal(sc.unit, "ms");
	NEAR(sc.div, 1e-3, 0);
	unit_scale("ns", 3395, &sc);
	assert_string_equal(sc.unit, "µs");
	NEAR(sc.div, 1e3, 1e-9);
	unit_scale("bytes", 3 << 20, &sc);
	assert_string_equal(sc.unit, "MiB");
	unit_scale("ops/s", 101200, &sc);
	assert_string_equal(sc.unit, "Kops/s");
	unit_scale("count", 1e6, &sc);
	assert_string_equal(sc.unit, "M");
	unit_scale("s", 0, &sc);
	assert_false(sc.scaled);
	assert_int_equal(display_width("ns/page(µs)"), 11);
}
