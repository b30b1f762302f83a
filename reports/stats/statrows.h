/*
 * The statistics a table row can show, and the "positive means better"
 * percentage of each against the baseline (mmtests' convention, so a
 * table reads like the threads' own).
 */
#ifndef MMDELTA_STATROWS_H
#define MMDELTA_STATROWS_H

#include "stats.h"
#include "rundir/metricsfile.h"

enum stat_id {
	ST_MIN, ST_MEAN, ST_STDDEV, ST_MAX, ST_RANGE, ST_COEFFVAR,
	ST_MEDIAN, ST_P90, ST_P95, ST_P99, ST_COUNT
};

/*
 * Row name as printed after the metric label: "min", "mean", ...  The
 * coefficient of variation is "cv" so that "Elapsed cv" fits the 14-column
 * label of the munlock thread's table.
 */
const char *stat_name(enum stat_id id);
/* 0 when the statistic is undefined for s (stddev of one sample). */
int stat_value(const struct summary *s, enum stat_id id, double *v);
/*
 * Percentage of new against base, positive = better: (base - new)*100/|base|
 * where lower is better, (new - base)*100/|base| where higher is better.  Spread
 * (stddev, coeffvar, range) is lower-is-better for every metric with a
 * direction.  A counter (BETTER_NONE) is neither: every row is the plain
 * change (new - base)*100/|base|, so a count that drops to 0 is -100%.  0 when
 * undefined (a statistic missing, or a zero baseline with a non-zero new
 * value).
 */
int stat_pct(const struct summary *base, const struct summary *new,
	     enum stat_id id, enum better better, double *pct);
/* The same formula, for callers that already hold the two values. */
int pct_better(double base, double new, enum better better, double *pct);

#endif
