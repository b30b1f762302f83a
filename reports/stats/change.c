/* The percentage change and its Fieller interval (see change.h). */
#include <math.h>
#include <gsl/gsl_cdf.h>

#include "change.h"

double change_pct(double base, double new)
{
	return base == new ? 0.0 : 100.0 * (new - base) / fabs(base);
}

/*
 * Degrees of freedom of the t-test of a - r*b = 0.  At r = 0 with a constant
 * new side (a counter driven to zero) both terms vanish; the df of the plain
 * difference (r = 1) is then the one the interval's width depends on.
 */
static double ratio_df(const struct two_means *m, double r)
{
	double qa = m->va, qb = r * r * m->vb;

	if (m->df_pooled > 0)
		return m->df_pooled;
	if (qa + qb == 0)
		qb = m->vb;
	return (qa + qb) * (qa + qb) /
	       (qa * qa / (m->na - 1) + qb * qb / (m->nb - 1));
}

/* A ratio of the means -> its change in percent of |b|. */
static double ratio_to_pct(double r, double b)
{
	return 100.0 * (r - 1.0) * (b < 0 ? -1.0 : 1.0);
}

/*
 * The ratios r with (a - r b)^2 <= q^2 (va + r^2 vb): a quadratic in r whose
 * leading coefficient b^2 - q^2 vb is positive exactly when the baseline
 * mean's own t statistic exceeds q; then the set is the interval between
 * the roots, else it is unbounded.
 */
void change_interval(const struct two_means *m, double tail, struct change_ci *out)
{
	double a = m->a, b = m->b, den, disc, lo, hi;

	*out = (struct change_ci){ .bounded = b != 0 };
	if (m->va + m->vb == 0) {
		out->lo = out->hi = b != 0 ? change_pct(b, a) : 0;
		return;
	}
	out->df = ratio_df(m, b != 0 ? a / b : 1.0);
	out->q = gsl_cdf_tdist_Qinv(tail, out->df);
	den = b * b - out->q * out->q * m->vb;
	if (!(den > 0)) {
		out->bounded = 0;
		return;
	}
	disc = out->q * sqrt(a * a * m->vb + b * b * m->va - out->q * out->q * m->va * m->vb);
	lo = ratio_to_pct((a * b - disc) / den, b);
	hi = ratio_to_pct((a * b + disc) / den, b);
	out->lo = lo < hi ? lo : hi;
	out->hi = lo < hi ? hi : lo;
}
