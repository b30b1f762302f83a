/*
 * The change of a run's mean against the baseline's, in percent of the
 * baseline's |mean|, and its confidence interval by Fieller's theorem.
 *
 * Dividing the difference's interval by the baseline mean (what ministat
 * prints) treats that mean as exact; it is a sample mean too, and with a
 * noisy baseline the percentage's interval is wider and lopsided.  Fieller's
 * interval for the ratio a/b of two independent normal means is the set of
 * ratios r that a t-test of a - r*b = 0 does not reject; it is exact for
 * normal samples and needs no linearisation (the delta method's).  When the
 * baseline mean itself is not distinguishable from 0 the set is unbounded,
 * and no percentage is given.  With Welch's test the degrees of freedom are
 * Welch-Satterthwaite's for var(a - r*b) at the estimated ratio.
 */
#ifndef MMDELTA_CHANGE_H
#define MMDELTA_CHANGE_H

/* Two independent means, as the tests see them. */
struct two_means {
	double a, va;		/* the run's mean and its squared standard error */
	double b, vb;		/* the baseline's */
	double na, nb;		/* sample counts (Welch-Satterthwaite) */
	double df_pooled;	/* > 0: Student's pooled test, df = na + nb - 2 */
};

struct change_ci {
	int bounded;		/* 0: the baseline mean is not distinguishable from 0 */
	double lo, hi;		/* 100 * (new - base) / |base|, lo <= hi */
	double df, q;		/* the t distribution's df and critical value used */
};

/*
 * Fieller's interval of the change with the upper tail `tail` beyond each
 * bound (0.025 for a two-sided 95% interval).  Both standard errors 0: the
 * change itself, exact (the caller decides whether zero variance is exact).
 */
void change_interval(const struct two_means *m, double tail, struct change_ci *out);

/* 100 * (new - base) / |base|; the base must not be 0. */
double change_pct(double base, double new);

#endif
