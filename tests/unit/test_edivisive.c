/*
 * The change-point detection: q-hat and the segment test against
 * hand-computed figures and ministat, then seeded synthetic series
 * (tests/stats/synth.h) against the history's requirements: no alert for
 * one level or single spikes in at least 95% of seeds, a step of 4x the
 * CoeffVar found within one run in at least 95%.  The full grid with its
 * precision and recall is `make test-history-stats`.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "unit.h"
#include "../stats/synth.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

TEST(qhat_of_two_levels)
{
	double x[] = { 0, 0, 0, 1, 1, 1 }, q;

	(void)state;
	/* t = 3: 9 cross pairs at distance 1, none within: E = 2*9/9 = 2,
	 * q = 3*3/6 * 2 = 3; every other split scores less */
	assert_int_equal(ed_best_split(x, 0, 6, 1, &q), 3);
	NEAR(q, 3, 1e-12);
	/* x[1, 5) = {0, 0, 1, 1}, two runs a side: only t = 3, E = 2*4/4 = 2,
	 * q = 2*2/4 * 2 = 2 */
	assert_int_equal(ed_best_split(x, 1, 5, 2, &q), 3);
	NEAR(q, 2, 1e-12);
	assert_int_equal(ed_best_split(x, 0, 3, 2, &q), 0);	/* too short to split */
}

static struct run_point one(double v)
{
	return (struct run_point){ 1, v, 0 };
}

/* One sample per run: the test is Student's on the run means, ministat's. */
TEST(runs_test_is_students)
{
	struct run_point pt[] = { one(1.0), one(1.1), one(0.9), one(1.05),
				  one(1.3), one(1.25), one(1.35), one(1.2) };
	struct seg_test t;

	(void)state;
	seg_compare(pt, 0, 4, 8, &t);
	/* ministat -c 95: Difference 0.2625 +/- 0.130968, pooled s = 0.0756913
	 * (ministat's t table has 2.447 for 6 df, GSL 2.44691: 4e-6 apart) */
	NEAR(t.diff, 0.2625, 1e-12);
	NEAR(t.ci_half, 0.130968, 1e-5);
	NEAR(t.df, 6, 0);
	assert_true(t.by_runs);
	/* t = 0.2625 / (0.0756913 * sqrt(1/2)) = 4.905 on 6 df: 0.001 < p < 0.005 */
	assert_true(t.p > 0.001 && t.p < 0.005);
}

/*
 * Runs that agree within their samples' noise: the samples decide.  Four
 * runs of 5 samples, within-run variance 0.01 each, run means 1, 1 | 1.1,
 * 1.1: between-run scatter 0 < 0.01/5, so the variance of the difference is
 * 0.01 * (2/5/4 + 2/5/4) = 0.002 on 16 df: t = 0.1 / sqrt(0.002) = 2.236.
 */
TEST(samples_decide_when_runs_agree)
{
	struct run_point pt[] = { { 5, 1.0, 0.01 }, { 5, 1.0, 0.01 }, { 5, 1.1, 0.01 }, { 5, 1.1, 0.01 } };
	struct seg_test t;

	(void)state;
	seg_compare(pt, 0, 2, 4, &t);
	assert_false(t.by_runs);
	NEAR(t.df, 16, 0);
	/* t(0.975, 16) = 2.120 (printed tables) */
	NEAR(t.ci_half, 2.1199 * sqrt(0.002), 1e-4);
	assert_true(t.p > 0.02 && t.p < 0.05);	/* 2.236 on 16 df: 0.04 */
}

/* qemu's icount clock: constant values; a difference is exact, none is none. */
TEST(constant_segments_are_exact)
{
	struct run_point pt[] = { { 3, 0.1, 0 }, { 3, 0.1, 0 }, { 3, 0.1, 0 },
				  { 3, 0.2, 0 }, { 3, 0.2, 0 }, { 3, 0.2, 0 } };
	struct seg_test t;
	size_t cp[6];
	struct ed_opts o = { 0.001, 3, 50, 0 };

	(void)state;
	seg_compare(pt, 0, 3, 6, &t);
	assert_true(t.exact);
	NEAR(t.p, 0, 0);
	seg_compare(pt, 0, 1, 3, &t);	/* 0.1 + 0.1 + 0.1 != 0.3: still no change */
	assert_true(t.exact);
	NEAR(t.p, 1, 0);
	assert_int_equal(ed_change_points(pt, 6, &o, cp), 1);
	assert_int_equal(cp[0], 3);
}

/* Seeds with any alert, and with the planted step found within one run. */
static void sweep(enum synth_kind kind, size_t n, double cv, double step, unsigned long seeds,
		  unsigned long *alerts, unsigned long *hits)
{
	struct ed_opts o = { 0.001, 3, 50, 0 };
	struct synth s = { kind, n, 10, 0, cv, step, 0.5, 0 };

	*alerts = *hits = 0;
	for (unsigned long seed = 1; seed <= seeds; seed++) {
		struct synth_result r;

		s.at = 3 + seed % (n - 5);
		synth_run(&s, &o, seed, &r);
		*alerts += r.found > 0;
		*hits += (unsigned long)r.hit;
	}
}

TEST(one_level_raises_nothing)
{
	unsigned long alerts, hits;

	(void)state;
	sweep(SYNTH_AA, 20, 0.02, 0, 100, &alerts, &hits);
	assert_true(alerts <= 5);
	sweep(SYNTH_AA, 500, 0.05, 0, 40, &alerts, &hits);
	assert_true(alerts <= 2);
}

TEST(single_spikes_raise_nothing)
{
	unsigned long alerts, hits;

	(void)state;
	sweep(SYNTH_SPIKE, 50, 0.02, 0.2, 100, &alerts, &hits);
	assert_true(alerts <= 5);
	sweep(SYNTH_SPIKE, 10, 0.01, 0.2, 100, &alerts, &hits);
	assert_true(alerts <= 5);
}

TEST(variance_change_is_no_level_change)
{
	unsigned long alerts, hits;

	(void)state;
	sweep(SYNTH_VAR, 50, 0.02, 3, 100, &alerts, &hits);
	assert_true(alerts <= 5);
}

TEST(step_of_four_coeffvar_is_found)
{
	unsigned long alerts, hits;

	(void)state;
	sweep(SYNTH_STEP, 20, 0.01, 0.05, 100, &alerts, &hits);
	assert_true(hits >= 95);
	sweep(SYNTH_STEP, 100, 0.05, 0.20, 100, &alerts, &hits);
	assert_true(hits >= 95);
}
