/*
 * The HTML page's first screen: the result.  Per bench, every significant
 * change of a mean and every gate verdict, one row each (metric, run,
 * change with its interval, mark), linked to the metric's table below; the
 * counters that changed in one line; a bench with neither says so.  The
 * systems and configs come after it (htmlpage.h).
 */
#ifndef MMDELTA_HTMLSUMMARY_H
#define MMDELTA_HTMLSUMMARY_H

#include <stdio.h>

#include "compare/report.h"
#include "gate/gate.h"

/* gate may be NULL (no --gate). */
void html_summary(FILE *f, const struct report *rep, const struct gate *gate);
/* "Gate (5%): <span class=...>FAIL: a gated metric regressed</span>" */
void html_gate_verdict(FILE *f, const struct gate *g);

#endif
