/*
 * The significance test between two neighbouring segments of runs.
 *
 * Each run has its own mean; nightly runs of one kernel also differ from
 * each other by more than their samples' noise (memory layout, host load,
 * boot), so pooling every sample as if independent would make small
 * differences "significant".  The segment's level is the mean of its run
 * means, and the variance of that level is the larger of two estimates:
 *   - from how the run means scatter within each segment (df: runs - 2),
 *   - from the samples inside the runs, as if runs differed by nothing
 *     else (df: samples - runs).
 * This is the one-way random-effects model with the run effect's variance
 * estimated as max(0, ...): when the runs agree within their own noise the
 * samples decide, with their many degrees of freedom; when they do not, the
 * runs do.  The t distribution is GSL's, as in ttest.c.
 */
#include <math.h>
#include <gsl/gsl_cdf.h>

#include "segtest.h"

struct seg_stats {
	double runs, mean, ss_between;	/* over the run means */
	double ss_within, df_within;	/* over samples, inside runs */
	double inv_n;			/* sum of 1/n */
};

static void seg_stats(const struct run_point *pt, size_t a, size_t b,
		      struct seg_stats *s)
{
	double sum = 0;

	*s = (struct seg_stats){ .runs = (double)(b - a) };
	for (size_t i = a; i < b; i++)
		sum += pt[i].mean;
	s->mean = sum / s->runs;
	for (size_t i = a; i < b; i++) {
		double d = pt[i].mean - s->mean;

		s->ss_between += d * d;
		s->inv_n += 1.0 / (double)pt[i].n;
		if (pt[i].n >= 2) {
			s->ss_within += (double)(pt[i].n - 1) * pt[i].var;
			s->df_within += (double)(pt[i].n - 1);
		}
	}
}

/* Rounding residue of identical values (0.1 + 0.1 + 0.1 != 0.3) is no noise. */
static int negligible(double x, double scale)
{
	return fabs(x) <= 1e-12 * scale;
}

void seg_compare(const struct run_point *pt, size_t a, size_t t, size_t b,
		 struct seg_test *out)
{
	struct seg_stats l, r;
	double var_runs = 0, var_samples = 0, df_runs, scale;

	seg_stats(pt, a, t, &l);
	seg_stats(pt, t, b, &r);
	*out = (struct seg_test){ .a = a, .t = t, .b = b, .before = l.mean, .after = r.mean,
				  .diff = r.mean - l.mean };
	df_runs = l.runs + r.runs - 2;
	if (df_runs > 0)
		var_runs = (l.ss_between + r.ss_between) / df_runs * (1 / l.runs + 1 / r.runs);
	if (l.df_within + r.df_within > 0)
		var_samples = (l.ss_within + r.ss_within) / (l.df_within + r.df_within) *
			      (l.inv_n / (l.runs * l.runs) + r.inv_n / (r.runs * r.runs));
	out->by_runs = var_runs >= var_samples;
	out->df = out->by_runs ? df_runs : l.df_within + r.df_within;
	scale = fmax(fabs(l.mean), fabs(r.mean));
	if (negligible(out->diff, scale))
		out->diff = 0;
	double se = sqrt(fmax(var_runs, var_samples));

	if (negligible(se, scale)) {
		/* Constant segments (qemu's icount clock): any difference is exact. */
		out->exact = 1;
		out->p = out->diff == 0 ? 1.0 : 0.0;
		return;
	}
	if (out->df <= 0) {	/* one run a side, one sample each: no test */
		out->p = 1.0;
		return;
	}
	out->p = 2 * gsl_cdf_tdist_Q(fabs(out->diff) / se, out->df);
	out->ci_half = gsl_cdf_tdist_Qinv(0.025, out->df) * se;
}
