/*
 * Repeated confidence intervals' boundaries by recursive numerical
 * integration (see seqbound.h).  Under "no change", the sum S_n of n
 * standardized differences is a Gaussian random walk; the density of S_n
 * over the paths that have not crossed any earlier boundary is carried
 * from look to look on a grid (trapezoid rule, the boundary itself an extra
 * point), and each look's boundary c is the one whose crossing probability
 * is what the spending function allows that look.
 */
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>

#include "seqbound.h"
#include "base/xalloc.h"

#define H 0.05		/* grid step on the S scale; one look's step has sd 1 */
#define TAIL_SD 9.0	/* the grid reaches 9 sd below 0: what lies beyond is < 1e-18 */

/* The density of S_n on x = j*H, j = jlo..jhi, and at the boundary b. */
struct dens {
	long jlo, jhi;
	double *f;
	double b, fb;
};

double seq_spent(double t, double alpha1)
{
	return 2 * gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Qinv(alpha1 / 2) / sqrt(t));
}

static double npdf(double z)
{
	return exp(-0.5 * z * z) / sqrt(2 * M_PI);
}

/* Trapezoid weight of grid point j; the last interval ends at b, not on the grid. */
static double weight(const struct dens *d, long j)
{
	double w = (j == d->jlo || j == d->jhi) ? H / 2 : H;

	return j == d->jhi ? w + (d->b - (double)j * H) / 2 : w;
}

static double endpoint_weight(const struct dens *d)
{
	return (d->b - (double)d->jhi * H) / 2;
}

/* P(S_n >= b, no earlier crossing) for S_n = S_prev + N(0, step). */
static double crossing(const struct dens *d, double b, double step)
{
	double sd = sqrt(step), p = endpoint_weight(d) * d->fb * gsl_cdf_ugaussian_Q((b - d->b) / sd);

	for (long j = d->jlo; j <= d->jhi; j++)
		p += weight(d, j) * d->f[j - d->jlo] * gsl_cdf_ugaussian_Q((b - (double)j * H) / sd);
	return p;
}

/* The density of S_prev + N(0, step) at x, over the surviving paths. */
static double convolve(const struct dens *d, double x, double sd)
{
	long lo = (long)floor((x - 9 * sd) / H), hi = (long)ceil((x + 9 * sd) / H);
	double s = endpoint_weight(d) * d->fb * npdf((x - d->b) / sd);

	for (long j = lo > d->jlo ? lo : d->jlo; j <= (hi < d->jhi ? hi : d->jhi); j++)
		s += weight(d, j) * d->f[j - d->jlo] * npdf((x - (double)j * H) / sd);
	return s / sd;
}

static void next_density(const struct dens *d, struct dens *nd, double b, double n, double step)
{
	double sd = sqrt(step);

	nd->b = b;
	nd->jlo = (long)floor(-TAIL_SD * sqrt(n) / H);
	nd->jhi = (long)floor(b / H);
	if (nd->jhi < nd->jlo)
		nd->jhi = nd->jlo;
	nd->f = xcalloc((size_t)(nd->jhi - nd->jlo + 1), sizeof(double));
	for (long j = nd->jlo; j <= nd->jhi; j++)
		nd->f[j - nd->jlo] = convolve(d, (double)j * H, sd);
	nd->fb = convolve(d, b, sd);
}

/* The boundary (in z units at n) whose crossing probability is `target`. */
static double solve(const struct dens *d, double target, double n, double step)
{
	double lo = -10, hi = 40;

	for (int i = 0; i < 80; i++) {
		double mid = (lo + hi) / 2;

		if (crossing(d, mid * sqrt(n), step) > target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The first look: S_n ~ N(0, n), nothing crossed before it. */
static void first_look(struct dens *d, double c, double n)
{
	double sd = sqrt(n);

	d->b = c * sd;
	d->jlo = (long)floor(-TAIL_SD * sd / H);
	d->jhi = (long)floor(d->b / H);
	if (d->jhi < d->jlo)
		d->jhi = d->jlo;
	d->f = xcalloc((size_t)(d->jhi - d->jlo + 1), sizeof(double));
	for (long j = d->jlo; j <= d->jhi; j++)
		d->f[j - d->jlo] = npdf((double)j * H / sd) / sd;
	d->fb = npdf(c) / sd;
}

/*
 * Looks at n = first..last.  With spend (cumulative, per look) each look's
 * boundary z[n] is solved for; without, the given z[n] are used.  Returns
 * the probability of crossing any of them.
 */
static double recurse(size_t first, size_t last, double *z, const double *spend)
{
	struct dens d = { 0 }, nd;
	double crossed = 0;

	for (size_t n = first; n <= last; n++) {
		double at = (double)n;

		if (n == first) {
			if (spend)
				z[n] = gsl_cdf_ugaussian_Qinv(spend[n]);
			crossed = gsl_cdf_ugaussian_Q(z[n]);
			first_look(&nd, z[n], at);
		} else {
			if (spend)
				z[n] = solve(&d, spend[n] - spend[n - 1], at, 1.0);
			crossed += crossing(&d, z[n] * sqrt(at), 1.0);
			next_density(&d, &nd, z[n] * sqrt(at), at, 1.0);
			free(d.f);
		}
		d = nd;
	}
	free(d.f);
	return crossed;
}

double seq_crossing(size_t first, size_t last, const double *z)
{
	return recurse(first, last, (double *)z, NULL);
}

int seq_tails(size_t max, double alpha1, double *tail, struct err *e)
{
	double spend[SEQ_MAX_LOOKS + 1] = { 0 }, z[SEQ_MAX_LOOKS + 1];

	if (max < SEQ_FIRST_LOOK || max > SEQ_MAX_LOOKS)
		return err_set(e, "a sequential gate looks from iteration %d to at most %d, not %zu",
			       SEQ_FIRST_LOOK, SEQ_MAX_LOOKS, max);
	for (size_t n = SEQ_FIRST_LOOK; n <= max; n++)
		spend[n] = seq_spent((double)n / (double)max, alpha1);
	recurse(SEQ_FIRST_LOOK, max, z, spend);
	for (size_t n = SEQ_FIRST_LOOK; n <= max; n++)
		tail[n] = gsl_cdf_ugaussian_Q(z[n]);
	return 0;
}

int seq_tail(size_t n, size_t max, double alpha1, double *tail, struct err *e)
{
	static double cache[SEQ_MAX_LOOKS + 1], cache_alpha;
	static size_t cache_max;

	if (n < SEQ_FIRST_LOOK || n > max)
		return err_set(e, "look %zu is outside the sequential design's %d..%zu",
			       n, SEQ_FIRST_LOOK, max);
	if (cache_max != max || cache_alpha != alpha1) {
		if (seq_tails(max, alpha1, cache, e))
			return -1;
		cache_max = max;
		cache_alpha = alpha1;
	}
	*tail = cache[n];
	return 0;
}
