/*
 * The significance test between two neighbouring segments of a series of
 * runs (segtest.c): each run is one point, given by its samples' count,
 * mean and variance, so that the test sees the samples and not only the
 * means.
 */
#ifndef MMDELTA_SEGTEST_H
#define MMDELTA_SEGTEST_H

#include <stddef.h>

/* One run of a series: the summary of its samples (var: n-1 estimate). */
struct run_point {
	size_t n;
	double mean, var;
};

/* The comparison of two neighbouring segments [a, t) and [t, b). */
struct seg_test {
	size_t a, t, b;
	double before, after;	/* mean of the run means on each side */
	double diff, ci_half;	/* after - before, half width of its 95% interval */
	double df, p;
	double p_scan;		/* p for the best of the positions [a, b) offered (ed_test) */
	int exact;		/* both sides constant: no noise, p is 0 or 1 */
	int by_runs;		/* run means scatter more than their samples explain */
};

/* Compare runs pt[a, t) with pt[t, b); a < t < b. */
void seg_compare(const struct run_point *pt, size_t a, size_t t, size_t b,
		 struct seg_test *out);

#endif
