/* Summary statistics, computed with GSL so nothing is a hand-rolled estimate. */
#include <math.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

void summarize(double *x, size_t n, struct summary *s)
{
	gsl_sort(x, 1, n);
	s->n = n;
	s->min = x[0];
	s->max = x[n - 1];
	s->range = s->max - s->min;
	s->mean = gsl_stats_mean(x, 1, n);
	/* Linear interpolation between order statistics (R's type 7, GSL's
	 * definition); with the values sorted, the median is the 0.5 quantile. */
	s->median = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.5);
	s->q1 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.25);
	s->q3 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.75);
	s->p90 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.90);
	s->p95 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.95);
	s->p99 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.99);
	s->has_stddev = n >= 2;
	s->stddev = s->has_stddev ? gsl_stats_sd_m(x, 1, n, s->mean) : 0.0;
	s->has_coeffvar = s->has_stddev && s->mean != 0.0;
	s->coeffvar = s->has_coeffvar ? 100.0 * s->stddev / fabs(s->mean) : 0.0;
}
