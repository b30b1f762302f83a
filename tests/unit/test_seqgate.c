/*
 * The gate's statistics by seeded simulation and against published figures:
 * the numerical integration behind the sequential boundaries, the coverage
 * of Fieller's interval, and the error rates of run.sh's sequential gate
 * (look after every iteration from the third, stop at the first decided
 * verdict) with normal and lognormal noise.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "unit.h"
#include "gate/gate.h"
#include "stats/seqbound.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/*
 * Repeated tests at the unadjusted one-sided 2.5% level on 2, 4, 10 and 20
 * equally spaced looks cross with 0.042, 0.063, 0.097, 0.124: the figures
 * gsDesign's own tests check (Anderson, Deming presentation 2008), after
 * Armitage, McPherson and Rowe (1969).
 */
TEST(crossing_matches_published_repeated_tests)
{
	double z[21];
	size_t k[] = { 2, 4, 10, 20 };
	double want[] = { 0.042, 0.063, 0.097, 0.124 };

	(void)state;
	for (int i = 0; i <= 20; i++)
		z[i] = gsl_cdf_ugaussian_Qinv(0.025);
	for (int i = 0; i < 4; i++)
		NEAR(round(1000 * seq_crossing(1, k[i], z)) / 1000, want[i], 1e-12);
}

/* The boundaries spend what the spending function allows, look by look. */
TEST(boundaries_spend_alpha_as_planned)
{
	double tail[31], z[31];
	struct err e;

	(void)state;
	assert_int_equal(seq_tails(30, 0.025, tail, &e), 0);
	for (size_t n = SEQ_FIRST_LOOK; n <= 30; n++)
		z[n] = gsl_cdf_ugaussian_Qinv(tail[n]);
	NEAR(seq_crossing(SEQ_FIRST_LOOK, 30, z), 0.025, 2e-5);
	NEAR(seq_crossing(SEQ_FIRST_LOOK, 10, z), seq_spent(10.0 / 30, 0.025), 1e-6);
	/* O'Brien-Fleming type: nearly nothing early, close to 1.96 at the end */
	assert_true(tail[3] < 1e-11);
	assert_true(z[30] > 1.96 && z[30] < 2.2);
	assert_int_equal(seq_tails(2, 0.025, tail, &e), -1);
	assert_int_equal(seq_tails(SEQ_MAX_LOOKS + 1, 0.025, tail, &e), -1);
}

static double draw(gsl_rng *r, double mean, double cv, int lognormal)
{
	double s;

	if (!lognormal)
		return mean * (1 + cv * gsl_ran_ugaussian(r));
	s = sqrt(log(1 + cv * cv));
	return mean * exp(s * gsl_ran_ugaussian(r) - s * s / 2);
}

static void sample(gsl_rng *r, double *x, size_t n, double mean, double cv, int lognormal)
{
	for (size_t i = 0; i < n; i++)
		x[i] = draw(r, mean, cv, lognormal);
}

/*
 * Fieller's 95% interval of the change covers the true change in 95% of
 * samples, here with a noisy baseline (CoeffVar 20%, 5 samples) where the
 * difference's interval divided by the baseline mean does not.
 */
TEST(fieller_covers_the_true_change)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double a[20], b[20];
	int covered = 0, naive = 0, reps = 4000;

	(void)state;
	gsl_rng_set(r, 11);
	for (int i = 0; i < reps; i++) {
		struct summary sa, sb;
		struct ttest t;

		sample(r, b, 5, 100, 0.20, 0);
		sample(r, a, 5, 110, 0.05, 0);
		summarize(b, 5, &sb);
		summarize(a, 5, &sa);
		ttest_compare(&sb, &sa, TTEST_WELCH, 0.05, 0, &t);
		covered += t.change.bounded && t.change.lo <= 10 && 10 <= t.change.hi;
		naive += fabs(t.diff_pct - 10) <= t.ci_half_pct;
	}
	print_message("Fieller covers %.3f, the difference's interval / base %.3f\n",
		      (double)covered / reps, (double)naive / reps);
	/* 3 standard errors of a binomial 0.95 over 4000 */
	NEAR((double)covered / reps, 0.95, 0.0104);
	assert_true(naive < covered - 3 * 0.0034 * reps);
	gsl_rng_free(r);
}

struct scenario {
	size_t n_base, max;
	double cv, loss, gate;	/* loss and gate in percent */
	int lognormal;
};

struct outcome {
	double regression, pass, iterations;
};

/* One candidate sequence against a fixed baseline, as run.sh iterates it. */
static enum gate_verdict sequence(gsl_rng *r, const struct scenario *sc, size_t *used)
{
	double base[64], cand[SEQ_MAX_LOOKS], copy[SEQ_MAX_LOOKS], tail;
	struct summary sb, sa;
	struct err e;

	sample(r, base, sc->n_base, 1, sc->cv, sc->lognormal);
	sample(r, cand, sc->max, 1 + sc->loss / 100, sc->cv, sc->lognormal);
	summarize(base, sc->n_base, &sb);
	for (size_t n = SEQ_FIRST_LOOK; n <= sc->max; n++) {
		enum gate_verdict v;

		for (size_t i = 0; i < n; i++)
			copy[i] = cand[i];
		summarize(copy, n, &sa);
		assert_int_equal(seq_tail(n, sc->max, 0.025, &tail, &e), 0);
		v = gate_decide(&sb, &sa, TTEST_WELCH, tail, 0, sc->gate);
		*used = n;
		if (v != GATE_INCONCLUSIVE)
			return v;
	}
	return GATE_INCONCLUSIVE;
}

static struct outcome simulate(const struct scenario *sc, int reps, unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct outcome o = { 0, 0, 0 };

	gsl_rng_set(r, seed);
	for (int i = 0; i < reps; i++) {
		size_t used;
		enum gate_verdict v = sequence(r, sc, &used);

		o.regression += v == GATE_REGRESSION;
		o.pass += v == GATE_PASS;
		o.iterations += (double)used;
	}
	gsl_rng_free(r);
	o.regression /= reps;
	o.pass /= reps;
	o.iterations /= reps;
	print_message("%s, base %zu, CoeffVar %.0f%%, loss %.1f%%, gate %.0f%%: REGRESSION %.3f, pass %.3f, %.1f iterations\n",
		      sc->lognormal ? "lognormal" : "normal", sc->n_base, 100 * sc->cv, sc->loss,
		      sc->gate, o.regression, o.pass, o.iterations);
	return o;
}

/*
 * A/A ends REGRESSION in at most 5% of sequences, a candidate twice the gate
 * worse in at least 95%: 2000 sequences each, a 10-iteration baseline at
 * CoeffVar 2% (where 30 iterations have the power), normal and lognormal.
 */
TEST(sequential_gate_meets_its_error_rates)
{
	(void)state;
	for (int ln = 0; ln <= 1; ln++) {
		struct scenario aa = { 10, 30, 0.02, 0, 5, ln }, worse = { 10, 30, 0.02, 10, 5, ln };
		struct outcome o;

		o = simulate(&aa, 2000, 21 + ln);
		assert_true(o.regression <= 0.05);
		assert_true(o.pass >= 0.95);
		o = simulate(&worse, 2000, 31 + ln);
		assert_true(o.regression >= 0.95);
	}
}

/*
 * At the gate itself (a loss of exactly PCT) each wrong verdict is bounded
 * by the interval's 2.5% a side, however many looks: 3 standard errors of
 * MC noise over 2000 sequences on top.  A noisier baseline of 30 samples at
 * CoeffVar 3% too, where the baseline's noise is shared by every look.
 */
TEST(sequential_gate_holds_its_level_at_the_boundary)
{
	(void)state;
	for (int ln = 0; ln <= 1; ln++) {
		struct scenario at10 = { 10, 30, 0.02, 5, 5, ln }, at30 = { 30, 30, 0.03, 5, 5, ln };
		struct outcome o;

		o = simulate(&at10, 2000, 41 + ln);
		assert_true(o.regression <= 0.025 + 0.0105);
		assert_true(o.pass <= 0.025 + 0.0105);
		o = simulate(&at30, 2000, 51 + ln);
		assert_true(o.regression <= 0.025 + 0.0105);
		assert_true(o.pass <= 0.025 + 0.0105);
	}
}
