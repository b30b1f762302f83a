/*
 * Isolated outlier runs (reports/stats/outliers.c) against hand-made
 * series, and the nightly series: forty runs of 8 samples at
 * CoeffVar 2%, 8% slower from night 25, night 10 alone 30% slow.  Without
 * outliers set aside that one night hid the step; with them it is found,
 * and a lone spike still raises no change point.
 */
#include <math.h>
#include <stdlib.h>

#include "unit.h"
#include "../stats/synth.h"

/* Runs of 5 samples, variance tiny next to the differences used here. */
static void series(const double *mean, size_t n, struct run_point *pt)
{
	for (size_t i = 0; i < n; i++)
		pt[i] = (struct run_point){ 5, mean[i], 1e-8 };
}

static size_t flagged(const double *mean, size_t n, unsigned char *flag)
{
	struct run_point pt[16];

	series(mean, n, pt);
	return outlier_runs(pt, n, 3, flag);
}

/*
 * Consecutive differences |x[i] - x[i-1]|: 0.01 everywhere but around the
 * 1.3 run, so the robust sigma is 0.01 / 0.9539 = 0.0105 and the limit 5x
 * that, 0.052; run 5 is 0.3 from both sides' medians (1.00 and 1.00).
 */
TEST(one_bad_night_is_flagged)
{
	double m[] = { 1.00, 1.01, 1.00, 1.01, 1.00, 1.30, 1.00, 1.01, 1.00, 1.01, 1.00 };
	unsigned char f[11];

	(void)state;
	assert_int_equal(flagged(m, 11, f), 1);
	assert_true(f[5]);
	for (size_t i = 0; i < 11; i++)
		assert_true(f[i] == (i == 5));
}

/* The first runs of a new level are near the runs after them: no outlier. */
TEST(a_step_is_no_outlier)
{
	double m[] = { 1.00, 1.01, 1.00, 1.01, 1.00, 1.10, 1.11, 1.10, 1.11, 1.10, 1.11 };
	unsigned char f[11];

	(void)state;
	assert_int_equal(flagged(m, 11, f), 0);
}

/* Three bad runs in a row (min_seg) are a level of their own; two are outliers. */
TEST(min_seg_in_a_row_are_a_level)
{
	double three[] = { 1.00, 1.01, 1.00, 1.01, 1.30, 1.31, 1.30, 1.00, 1.01, 1.00, 1.01, 1.00 };
	double two[] = { 1.00, 1.01, 1.00, 1.01, 1.30, 1.31, 1.00, 1.01, 1.00, 1.01, 1.00, 1.01 };
	unsigned char f[12];

	(void)state;
	assert_int_equal(flagged(three, 12, f), 0);
	assert_int_equal(flagged(two, 12, f), 2);
	assert_true(f[4] && f[5]);
}

/* The newest two runs may start a level, the oldest two have one side: never flagged. */
TEST(the_ends_are_never_flagged)
{
	double newest[] = { 1.00, 1.01, 1.00, 1.01, 1.00, 1.01, 1.00, 1.01, 1.30, 1.00 };
	double oldest[] = { 1.00, 1.30, 1.00, 1.01, 1.00, 1.01, 1.00, 1.01, 1.00, 1.01 };
	unsigned char f[10];

	(void)state;
	assert_int_equal(flagged(newest, 10, f), 0);
	assert_int_equal(flagged(oldest, 10, f), 0);
}

/* The series, seeded; cp found within one run of night 25. */
static int found_step(unsigned long seed, int keep_outliers, int bad_night)
{
	struct synth s = { SYNTH_STEP, 40, 8, 24, 0.02, 0.08, 0.5, 0 };
	struct ed_opts o = { 0.001, 3, 50, keep_outliers };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct run_point pt[40];
	struct kept_runs k;
	size_t cp[41], n;
	int hit = 0;

	gsl_rng_set(rng, seed);
	synth_series(&s, rng, pt);
	gsl_rng_free(rng);
	if (bad_night) {
		pt[9].mean *= 1.3;
		pt[9].var *= 1.3 * 1.3;
	}
	kept_runs_make(pt, 40, 3, keep_outliers, &k);
	n = ed_change_points(k.pt, k.n, &o, cp);
	for (size_t i = 0; i < n; i++)
		hit |= k.orig[cp[i]] >= 23 && k.orig[cp[i]] <= 25;
	if (bad_night && !keep_outliers)
		assert_true(k.outlier[9]);
	kept_runs_free(&k);
	return hit;
}

TEST(one_bad_night_no_longer_hides_a_step)
{
	int with = 0, plain = 0;

	(void)state;
	for (unsigned long seed = 1; seed <= 100; seed++) {
		with += found_step(seed, 0, 1);
		plain += found_step(seed, 1, 1);
	}
	print_message("step found in %d of 100 seeds, %d with every run kept\n", with, plain);
	assert_true(with >= 95);
	/* the plain method, every run kept: the bad night hides the step */
	assert_true(plain <= 50);
}

/* A lone spike is set aside and raises no change point. */
TEST(a_lone_spike_is_an_outlier_not_a_change)
{
	struct synth s = { SYNTH_SPIKE, 40, 8, 0, 0.02, 0.3, 0.5, 0 };
	struct ed_opts o = { 0.001, 3, 50, 0 };
	unsigned long alerts = 0;

	(void)state;
	for (unsigned long seed = 1; seed <= 100; seed++) {
		struct synth_result r;

		s.at = 2 + seed % 36;
		synth_run(&s, &o, seed, &r);
		alerts += r.found > 0;
	}
	assert_true(alerts <= 5);
}
