/*
 * Two-sample t-tests of a run against the baseline: Welch's (the default,
 * no equal-variance assumption) and Student's pooled test (what ministat
 * prints, so ministat can serve as the independent oracle in tests).  Each
 * test also carries the change's Fieller interval (change.h) and the
 * smallest difference the samples at hand would detect.
 */
#ifndef MMDELTA_TTEST_H
#define MMDELTA_TTEST_H

#include "change.h"
#include "stats.h"

enum ttest_kind { TTEST_WELCH, TTEST_STUDENT };

enum ttest_outcome {
	TTEST_NOT_DONE,		/* fewer than 2 samples, or no variance to test with */
	TTEST_NO_DIFFERENCE,
	TTEST_DIFFERENCE,
};

/* Power at which the minimum detectable effect is given. */
#define TTEST_POWER 0.80

struct ttest {
	enum ttest_outcome outcome;
	const char *why_not;	/* TTEST_NOT_DONE: a reason, for the reader */
	int exact;		/* both sets constant and the clock exact: p is 0 or 1 */
	double diff;		/* mean(new) - mean(base), ministat's sign */
	double ci_half;		/* half width of the confidence interval of diff */
	double df, t, p;	/* t and df are 0 when the variances are both 0 */
	/* diff and ci_half relative to |baseline mean|, in percent, as ministat
	 * prints them; undefined when the baseline mean is 0 */
	int has_pct;
	double diff_pct, ci_half_pct;
	struct change_ci change;	/* Fieller's interval of the change */
	/* The difference of means that a test of these sample counts and
	 * spreads finds with TTEST_POWER: (t(1 - alpha/2) + t(power)) * se. */
	double mde, mde_pct;	/* mde_pct: when has_pct */
};

/*
 * alpha is the two-sided level (0.05 gives a 95% interval).  exact: both
 * runs were measured with an exact clock (qemu's icount), so constant sets
 * are exact figures; under a real clock they are its resolution and give
 * no test.
 */
void ttest_compare(const struct summary *base, const struct summary *new,
		   enum ttest_kind kind, double alpha, int exact, struct ttest *out);

/* The two means and their standard errors as the test of `kind` sees them. */
void ttest_means(const struct summary *base, const struct summary *new,
		 enum ttest_kind kind, struct two_means *m);

/* Two-sided p of t with df degrees of freedom, accurate far into the tail
 * (0 only where a double underflows, below about 1e-308). */
double ttest_p(double t, double df);

const char *ttest_kind_name(enum ttest_kind kind);

#endif
