/*
 * The confidence interval of one sample set's mean, for ITERATIONS=auto:
 * run.sh keeps iterating until this interval is narrower than CI_TARGET.
 */
#ifndef MMDELTA_MEANCI_H
#define MMDELTA_MEANCI_H
#include "stats.h"

/*
 * Half width of the two-sided interval at level (0.95) of s's mean:
 * t(1 - (1 - level) / 2, n - 1) * stddev / sqrt(n).  Returns -1 when
 * n < 2 (no interval), else 0.
 */
int mean_ci_half(const struct summary *s, double level, double *half);

#endif
