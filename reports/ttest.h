/*
 * Two-sample t-tests of a run against the baseline: Welch's (the default,
 * no equal-variance assumption) and Student's pooled test (what ministat
 * prints, so ministat can serve as the independent oracle in tests).
 */
#ifndef MMDELTA_TTEST_H
#define MMDELTA_TTEST_H

#include "stats.h"

enum ttest_kind { TTEST_WELCH, TTEST_STUDENT };

enum ttest_outcome {
	TTEST_NOT_DONE,		/* fewer than 2 samples on a side */
	TTEST_NO_DIFFERENCE,
	TTEST_DIFFERENCE,
};

struct ttest {
	enum ttest_outcome outcome;
	const char *why_not;	/* TTEST_NOT_DONE: a reason, for the reader */
	double diff;		/* mean(new) - mean(base), ministat's sign */
	double ci_half;		/* half width of the confidence interval of diff */
	double df, t, p;	/* t and df are 0 when the variances are both 0 */
	/* diff and ci_half relative to the baseline mean, in percent, as ministat
	 * prints them; undefined when the baseline mean is 0 */
	int has_pct;
	double diff_pct, ci_half_pct;
};

/* alpha is the two-sided level (0.05 gives a 95% interval). */
void ttest_compare(const struct summary *base, const struct summary *new,
		   enum ttest_kind kind, double alpha, struct ttest *out);

const char *ttest_kind_name(enum ttest_kind kind);

#endif
