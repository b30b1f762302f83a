/* Welch's and Student's two-sample t-tests with GSL's t distribution. */
#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>

#include "ttest.h"

const char *ttest_kind_name(enum ttest_kind kind)
{
	return kind == TTEST_STUDENT ? "student" : "welch";
}

void ttest_means(const struct summary *base, const struct summary *new,
		 enum ttest_kind kind, struct two_means *m)
{
	double vb = base->stddev * base->stddev, va = new->stddev * new->stddev;
	double nb = (double)base->n, na = (double)new->n;

	*m = (struct two_means){ .a = new->mean, .b = base->mean, .na = na, .nb = nb };
	if (kind == TTEST_STUDENT) {
		double pooled = ((na - 1) * va + (nb - 1) * vb) / (na + nb - 2);

		m->va = pooled / na;
		m->vb = pooled / nb;
		m->df_pooled = na + nb - 2;
		return;
	}
	m->va = va / na;
	m->vb = vb / nb;
}

/* Welch-Satterthwaite's degrees of freedom, or the pooled test's. */
static double diff_df(const struct two_means *m)
{
	if (m->df_pooled > 0)
		return m->df_pooled;
	return (m->va + m->vb) * (m->va + m->vb) /
	       (m->va * m->va / (m->na - 1) + m->vb * m->vb / (m->nb - 1));
}

/*
 * P(|T| >= t) = I_x(df/2, 1/2) with x = df / (df + t^2), the regularized
 * incomplete beta function.  GSL's gsl_cdf_tdist_Q loses digits far out
 * (4.47427257e-59 for 4.47427409e-59); the beta function keeps them.  The
 * error handler is off around the call so that an underflow is a 0, not an
 * abort.
 */
double ttest_p(double t, double df)
{
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	gsl_sf_result r;
	int status;

	if (t == 0)
		return 1.0;
	status = gsl_sf_beta_inc_e(df / 2, 0.5, df / (df + t * t), &r);
	gsl_set_error_handler(old);
	return status == GSL_SUCCESS ? r.val : 0.0;
}

/*
 * Both sets constant: the t statistic is 0/0.  With an exact clock (qemu's
 * -icount) or a figure that no clock reads (a count), a different value is
 * a real, exact difference (ministat says the same: d +/- 0).  Under a real
 * clock it is the clock's resolution, and nothing can be tested.
 */
static void constant_sets(struct ttest *out, int exact)
{
	if (!exact) {
		out->outcome = TTEST_NOT_DONE;
		out->why_not = "both sets constant under a real clock (its resolution, not an exact figure)";
		return;
	}
	out->exact = 1;
	out->p = out->diff == 0 ? 1.0 : 0.0;
	out->outcome = out->diff == 0 ? TTEST_NO_DIFFERENCE : TTEST_DIFFERENCE;
}

static void percentages(const struct summary *base, struct ttest *out)
{
	out->has_pct = base->mean != 0;
	if (!out->has_pct)
		return;
	out->diff_pct = out->diff * 100 / fabs(base->mean);
	out->ci_half_pct = out->ci_half * 100 / fabs(base->mean);
	out->mde_pct = out->mde * 100 / fabs(base->mean);
}

void ttest_compare(const struct summary *base, const struct summary *new,
		   enum ttest_kind kind, double alpha, int exact, struct ttest *out)
{
	struct two_means m;
	double se;

	*out = (struct ttest){ .outcome = TTEST_NOT_DONE };
	if (base->n < 2 || new->n < 2) {
		out->why_not = "fewer than 2 samples";
		return;
	}
	out->diff = new->mean - base->mean;
	ttest_means(base, new, kind, &m);
	se = sqrt(m.va + m.vb);
	if (se == 0) {
		constant_sets(out, exact);
		if (out->outcome == TTEST_NOT_DONE)
			return;
	} else {
		out->df = diff_df(&m);
		out->t = out->diff / se;
		out->p = ttest_p(fabs(out->t), out->df);
		out->ci_half = gsl_cdf_tdist_Qinv(alpha / 2, out->df) * se;
		out->mde = out->ci_half + gsl_cdf_tdist_Qinv(1 - TTEST_POWER, out->df) * se;
		out->outcome = out->p < alpha ? TTEST_DIFFERENCE : TTEST_NO_DIFFERENCE;
	}
	change_interval(&m, alpha / 2, &out->change);
	percentages(base, out);
}
