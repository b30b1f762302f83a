/*
 * The confidence interval of one sample set's mean, for ITERATIONS=auto:
 * run.sh keeps iterating until this interval is narrower than CI_TARGET;
 * and, from a known spread, the iterations an A/B of two kernels needs
 * (a --kernel run under icount, drivers/vm/resolution.sh).
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

/*
 * The smallest n in [2, max] whose two runs of n iterations each, at
 * coefficient of variation cv, tell apart means pct percent apart: the half
 * width of the 95% interval of their difference, t(0.975, 2n - 2) * cv *
 * sqrt(2 / n), is at most pct / 100.  max when no n up to it does.  *seen
 * is that half width at the n returned, in percent: the smallest change
 * the count can see.  max below 2 is taken as 2.
 */
unsigned iterations_for(double cv, double pct, unsigned max, double *seen);

#endif
