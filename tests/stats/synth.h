/*
 * Synthetic series of runs for the change-point tests: seeded, so every
 * figure is reproducible.  A run is k samples; a sample is
 *   level * (1 + run_effect + noise)
 * with noise ~ N(0, cv^2) per sample, so cv is the CoeffVar of one run's
 * samples (what run.sh and compare.sh print), and run_effect ~
 * N(0, (run_sd * cv)^2), the same for all of a run's samples: what differs
 * between nightly runs of one kernel beyond their samples' noise.  With
 * bad_nights, 1 to 3 runs at random places (any kind of series) are 10 to
 * 50% slow, all their samples: the outlier nights a real lab has.  They
 * are drawn from a generator of their own, so a series with them is the
 * same series as without them but for those runs.
 */
#ifndef MMDELTA_SYNTH_H
#define MMDELTA_SYNTH_H

#include <math.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "stats/edivisive.h"
#include "stats/outliers.h"

enum synth_kind {
	SYNTH_AA,	/* one level throughout */
	SYNTH_STEP,	/* the level moves by step at run `at` */
	SYNTH_SPIKE,	/* one run at `at` is off by step */
	SYNTH_VAR,	/* from `at` on the noise is step times larger, same level */
};

struct synth {
	enum synth_kind kind;
	size_t n, k, at;
	double cv, step, run_sd;
	int bad_nights;
};

/* 1-3 runs of pt[0, n), each 10-50% higher in every sample. */
static inline void synth_bad_nights(size_t n, unsigned long seed, struct run_point *pt)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, seed ^ 0xbadbadUL);
	for (unsigned long k = 1 + gsl_rng_uniform_int(rng, 3); k > 0; k--) {
		size_t i = gsl_rng_uniform_int(rng, n);
		double f = 1 + gsl_ran_flat(rng, 0.10, 0.50);

		pt[i].mean *= f;
		pt[i].var *= f * f;
	}
	gsl_rng_free(rng);
}

static inline void synth_series(const struct synth *s, gsl_rng *rng, struct run_point *pt)
{
	double x[64];
	size_t k = s->k < 64 ? s->k : 64;

	for (size_t i = 0; i < s->n; i++) {
		double level = 1, cv = s->cv;

		if ((s->kind == SYNTH_STEP && i >= s->at) || (s->kind == SYNTH_SPIKE && i == s->at))
			level += s->step;
		if (s->kind == SYNTH_VAR && i >= s->at)
			cv *= s->step;
		double run = gsl_ran_gaussian(rng, cv * s->run_sd);

		for (size_t j = 0; j < k; j++)
			x[j] = level * (1 + run + gsl_ran_gaussian(rng, cv));
		pt[i].n = k;
		pt[i].mean = gsl_stats_mean(x, 1, k);
		pt[i].var = k > 1 ? gsl_stats_variance_m(x, 1, k, pt[i].mean) : 0;
	}
}

/* Outcome of one seed: change points reported, and whether one is within
 * +-1 run of the planted step. */
struct synth_result {
	size_t found;
	int hit;
};

static inline void synth_run(const struct synth *s, const struct ed_opts *o, unsigned long seed,
			     struct synth_result *r)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct run_point *pt = malloc(s->n * sizeof(*pt));
	size_t *cp = malloc((s->n + 1) * sizeof(*cp));

	struct kept_runs k;

	gsl_rng_set(rng, seed);
	synth_series(s, rng, pt);
	if (s->bad_nights)
		synth_bad_nights(s->n, seed, pt);
	kept_runs_make(pt, s->n, o->min_seg, o->keep_outliers, &k);
	r->found = ed_change_points(k.pt, k.n, o, cp);
	r->hit = 0;
	for (size_t i = 0; i < r->found; i++) {
		size_t at = k.orig[cp[i]];

		r->hit |= at + 1 >= s->at && at <= s->at + 1;
	}
	kept_runs_free(&k);
	free(cp);
	free(pt);
	gsl_rng_free(rng);
}

#endif
