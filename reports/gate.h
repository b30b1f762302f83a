/*
 * The CI gate: a gated metric of a run REGRESSES when its mean is worse than
 * the baseline's by more than the gate's percentage AND the t-test finds the
 * difference significant; it is an improvement when better by more than the
 * percentage and significant; otherwise there is no significant change.
 * Gated metrics are each bench's primary one (first in metrics.tsv) unless
 * named.  A gated metric that cannot be tested is an input error: a CI check
 * must not pass because it had nothing to check.
 */
#ifndef MMDELTA_GATE_H
#define MMDELTA_GATE_H

#include <stddef.h>

#include "report.h"

enum gate_verdict { GATE_NO_CHANGE, GATE_IMPROVEMENT, GATE_REGRESSION };

struct gate_result {
	size_t bench, metric, param, run;
	enum gate_verdict verdict;
	int has_pct;
	double pct;		/* mean, positive = better */
};

struct gate {
	double pct;
	char *const *metrics;	/* --gate-metric names; none: primary metrics */
	size_t n_metrics;
	struct gate_result *res;
	size_t n_res;
};

int gate_evaluate(const struct report *rep, struct gate *g, struct err *e);
void gate_free(struct gate *g);
int gate_regressed(const struct gate *g);
const char *gate_verdict_name(enum gate_verdict v);
/* "timedmunlock elapsed 3.11-rc3-1: REGRESSION (mean -43.37%, gate 5%, p=1.2e-05)" */
void gate_line(const struct report *rep, const struct gate_result *gr,
	       double gate_pct, char *buf, size_t len);
/* "elapsed" or "elapsed-2" for a swept value */
void gate_metric_name(const struct bench_cmp *b, size_t m, size_t p,
		      char *buf, size_t len);

#endif
