/*
 * Summary statistics of one sample set (one metric, one parameter value, one
 * run).  Everything the tables, CSV and JSON print comes from here, so the
 * formats cannot disagree.
 */
#ifndef MMDELTA_STATS_H
#define MMDELTA_STATS_H

#include <stddef.h>

struct summary {
	size_t n;
	double min, max, mean, range;
	double median, p90, p95, p99;
	double q1, q3;		/* quartiles: the box of a box plot */
	/* stddev is the n-1 estimate; both are meaningless for n < 2 */
	int has_stddev;
	double stddev;
	/* stddev / mean in percent; undefined for a zero mean */
	int has_coeffvar;
	double coeffvar;
};

/*
 * Summarize n values (n >= 1).  x is sorted in place, because the median and
 * percentiles need sorted data and callers own throwaway copies.
 */
void summarize(double *x, size_t n, struct summary *s);

#endif
