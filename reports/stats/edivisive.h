/*
 * Change points in a series of runs: E-divisive means (Matteson & James
 * 2014) to place candidates, and a two-sample t-test in place of the
 * permutation test to keep or drop them, as Apache Otava (formerly Hunter)
 * does.  Each run is one point of the series, given by its samples' count,
 * mean and variance, so that the test sees the samples and not only the
 * means (see seg_test).
 */
#ifndef MMDELTA_EDIVISIVE_H
#define MMDELTA_EDIVISIVE_H

#include <stddef.h>

#include "segtest.h"

struct ed_opts {
	double max_p;		/* a change point is kept when p <= max_p */
	size_t min_seg;		/* runs on each side of a change point, at least */
	size_t window;		/* runs E-divisive looks at at once */
	int keep_outliers;	/* 1: no run is set aside (outliers.h), the plain method */
};

/*
 * seg_compare, and p_scan: the test's p times the number of positions a
 * change point could take in [a, b) with min_seg runs a side (Bonferroni).
 * E-divisive places the point where the two sides differ most, so the
 * plain p of that position is the smallest of many: over 500 runs of one
 * level it falls below 0.001 in about one series in six.
 */
void ed_test(const struct run_point *pt, size_t a, size_t t, size_t b, size_t min_seg,
	     struct seg_test *out);

/*
 * The E-divisive statistic q-hat of splitting x[a, b) at every t with
 * min_seg <= t - a and min_seg <= b - t; returns the best t, or 0 when the
 * segment is too short to split (q receives its q-hat).
 */
size_t ed_best_split(const double *x, size_t a, size_t b, size_t min_seg,
		     double *q);

/*
 * The change points of pt[0, n), ascending, into cp (room for n);
 * returns how many.  Windows of o->window runs, half overlapping, are split
 * top-down while the t-test finds the best split significant at 10 * max_p;
 * then the weakest points are removed bottom-up until every remaining one
 * is significant against its neighbours: p_scan <= max_p.
 */
size_t ed_change_points(const struct run_point *pt, size_t n,
			const struct ed_opts *o, size_t *cp);

#endif
