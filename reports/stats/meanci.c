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
