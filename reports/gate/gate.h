/*
 * The CI gate: three verdicts read off the confidence interval of the
 * change of a gated metric's mean (change.h; positive = better here, as in
 * the tables):
 *   pass          the interval's bad end is within PCT: a regression larger
 *                 than PCT is excluded at the interval's confidence;
 *   REGRESSION    the interval's good end is beyond PCT: a regression
 *                 larger than PCT is proven;
 *   inconclusive  the interval straddles PCT (or the baseline mean is not
 *                 distinguishable from 0, so no percentage exists): more
 *                 iterations are needed.
 * A pass whose whole interval is better than the baseline is an
 * improvement.  Gated metrics are each bench's primary one (first in
 * metrics.tsv) unless named.  A gated metric that cannot be tested is an
 * input error: a CI check must not pass because it had nothing to check.
 * A run made by run.sh's sequential mode (seqdesign.h) is judged with the
 * repeated confidence interval of its last look, the interval its
 * iterations were stopped by.
 */
#ifndef MMDELTA_GATE_H
#define MMDELTA_GATE_H

#include <stddef.h>

#include "seqdesign.h"
#include "compare/report.h"

enum gate_verdict { GATE_PASS, GATE_REGRESSION, GATE_INCONCLUSIVE };

/* What an inconclusive verdict does to the exit status (--inconclusive). */
enum gate_policy { GATE_INCONCLUSIVE_EXIT3, GATE_INCONCLUSIVE_PASS, GATE_INCONCLUSIVE_FAIL };

#define GATE_EXIT_INCONCLUSIVE 3

struct gate_result {
	size_t bench, metric, param, run;
	enum gate_verdict verdict;
	int improvement;	/* pass, and the whole interval is better */
	int exact;		/* constant samples, exact clock: no interval needed */
	int has_pct;		/* 0: the baseline mean is not distinguishable from 0 */
	double pct, lo, hi;	/* change of the mean and its interval, positive = better */
	double conf;		/* the interval's confidence in percent */
	long more;		/* inconclusive: iterations per run likely to decide; -1 none */
	struct seq_design seq;	/* seq.max > 0: judged at look seq.look of a sequential run */
};

struct gate {
	double pct;
	enum gate_policy policy;
	char *const *metrics;	/* --gate-metric names; none: primary metrics */
	size_t n_metrics;
	struct seq_design seq;	/* max > 0: every run is sequential with this design */
	struct gate_result *res;
	size_t n_res;
};

int gate_evaluate(const struct report *rep, struct gate *g, struct err *e);
/* Judge one cell (bench bi, metric m, param p, run r) and append its result. */
int gate_judge(const struct report *rep, struct gate *g, size_t bi, size_t m,
	       size_t p, size_t r, struct err *e);
/*
 * The verdict on the summaries alone, with the interval leaving `tail` on
 * each side (0.025: 95%), for a metric that is `better` lower or higher.
 */
enum gate_verdict gate_decide(const struct summary *base, const struct summary *new,
			      enum ttest_kind kind, double tail, enum better better, double pct);
void gate_free(struct gate *g);
/* 0 pass, 1 a regression, 3 inconclusive (as the policy maps it). */
int gate_status(const struct gate *g);
int gate_regressed(const struct gate *g);
int gate_inconclusive(const struct gate *g);

#endif
