#include "meanci.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

int mean_ci_half(const struct summary *s, double level, double *half)
{
	if (s->n < 2 || !s->has_stddev)
		return -1;
	*half = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, (double)(s->n - 1)) *
		s->stddev / sqrt((double)s->n);
	return 0;
}

/* The detectable change, in percent, of two runs of n iterations at cv. */
static double change_seen(double cv, unsigned n)
{
	return 100.0 * gsl_cdf_tdist_Pinv(0.975, 2.0 * n - 2.0) * cv * sqrt(2.0 / n);
}

unsigned iterations_for(double cv, double pct, unsigned max, double *seen)
{
	unsigned n = 2;

	if (max < 2)
		max = 2;
	while (n < max && change_seen(cv, n) > pct)
		n++;
	*seen = change_seen(cv, n);
	return n;
}
