/* Welch's and Student's two-sample t-tests with GSL's t distribution. */
#include <math.h>
#include <gsl/gsl_cdf.h>

#include "ttest.h"

const char *ttest_kind_name(enum ttest_kind kind)
{
	return kind == TTEST_STUDENT ? "student" : "welch";
}

/* Standard error of the difference of means and its degrees of freedom. */
static void standard_error(const struct summary *a, const struct summary *b,
			   enum ttest_kind kind, double *se, double *df)
{
	double va = a->stddev * a->stddev, vb = b->stddev * b->stddev;
	double na = (double)a->n, nb = (double)b->n;

	if (kind == TTEST_STUDENT) {
		double pooled = ((na - 1) * va + (nb - 1) * vb) / (na + nb - 2);

		*se = sqrt(pooled * (1 / na + 1 / nb));
		*df = na + nb - 2;
		return;
	}
	/* Welch-Satterthwaite approximation of the degrees of freedom. */
	double qa = va / na, qb = vb / nb;

	*se = sqrt(qa + qb);
	*df = (qa + qb) * (qa + qb) /
	      (qa * qa / (na - 1) + qb * qb / (nb - 1));
}

/*
 * Both sets constant: the t statistic is 0/0.  Constant sets are what
 * qemu's instruction-counting clock can produce, and there a different value
 * is a real, exact difference (ministat says the same: d +/- 0).
 */
static void constant_sets(struct ttest *out)
{
	out->ci_half = 0;
	out->df = 0;
	out->t = 0;
	out->p = out->diff == 0 ? 1.0 : 0.0;
	out->outcome = out->diff == 0 ? TTEST_NO_DIFFERENCE : TTEST_DIFFERENCE;
}

void ttest_compare(const struct summary *base, const struct summary *new,
		   enum ttest_kind kind, double alpha, struct ttest *out)
{
	double se, df;

	*out = (struct ttest){ .outcome = TTEST_NOT_DONE };
	if (base->n < 2 || new->n < 2) {
		out->why_not = "fewer than 2 samples";
		return;
	}
	out->diff = new->mean - base->mean;
	standard_error(base, new, kind, &se, &df);
	if (se == 0) {
		constant_sets(out);
	} else {
		out->df = df;
		out->t = out->diff / se;
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), df);
		out->ci_half = gsl_cdf_tdist_Qinv(alpha / 2, df) * se;
		out->outcome = out->p < alpha ? TTEST_DIFFERENCE
					      : TTEST_NO_DIFFERENCE;
	}
	out->has_pct = base->mean != 0;
	if (out->has_pct) {
		out->diff_pct = out->diff * 100 / base->mean;
		out->ci_half_pct = out->ci_half * 100 / fabs(base->mean);
	}
}
