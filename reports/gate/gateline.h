/*
 * The gate's verdicts in words, the same in every format: the verdict line
 * of a gated metric, and what differs from the baseline for it.
 */
#ifndef MMDELTA_GATELINE_H
#define MMDELTA_GATELINE_H

#include <stddef.h>

#include "gate.h"

const char *gate_verdict_name(enum gate_verdict v);
const char *gate_policy_name(enum gate_policy p);
/* "timedmunlock elapsed cand: REGRESSION (mean -6.12%, 95% CI [-7.01%, -5.23%], gate 5%, p=0.000311)" */
void gate_line(const struct report *rep, const struct gate_result *gr,
	       double gate_pct, char *buf, size_t len);
/* "elapsed" or "elapsed-2" for a swept value */
void gate_metric_name(const struct bench_cmp *b, size_t m, size_t p,
		      char *buf, size_t len);
/*
 * The gate's verdict line, and what differs from the baseline for it:
 * "timedmunlock elapsed big: REGRESSION (mean -92.07%, gate 5%, p=1e-09);
 * differs from the baseline: SIZE 512M (baseline 256M)".
 */
void gate_text(const struct report *rep, const struct gate *g,
	       const struct gate_result *gr, char *buf, size_t len);

#endif
