/*
 * The test result of one run against the baseline in ministat's words:
 *   Difference at 95.0% confidence: -1.473 ± 0.026 s, 43.37% ± 0.77% better; detectable at 80% power: 1.1%
 *   No difference proven at 95.0% confidence; detectable at 80% power: 8.2%
 *   No test: fewer than 2 samples (baseline 1, this run 5)
 * Numbers are in the table's display unit, the interval to two significant
 * digits and the difference to the same decimal place.  The difference in
 * the unit has ministat's sign (run - baseline); its percentage of the
 * baseline's mean is unsigned and says "better" or "worse" ("more" or
 * "less" for a counter), the tables' convention in words.  The last clause
 * is the smallest change the samples at hand detect with 80% power
 * (ttest.h).
 */
#ifndef MMDELTA_DIFFTEXT_H
#define MMDELTA_DIFFTEXT_H

#include <stddef.h>

#include "report.h"
#include "rows.h"

void diff_sentence(const struct report *rep, const struct bench_cmp *b,
		   size_t m, size_t p, size_t r, char *buf, size_t len);
/*
 * A constant metric (rows.h) in one line, its value exact in the metric's
 * own unit: "Pages 16384 in every run", "Pages-16M 4096, Pages-32M 8192 in
 * every run".
 */
void constant_sentence(const struct bench_cmp *b, size_t m, char *buf, size_t len);
/*
 * The tables' sign convention, said above them: "Percentages: change
 * against base, positive = better; for the count Pages (neither better nor
 * worse): the plain change."  The counts named are those whose tables
 * pick shows.
 */
void percent_legend(const struct report *rep,
		    size_t (*pick)(const struct report *, const struct bench_cmp *, size_t *),
		    char *buf, size_t len);
/* Decimals that show e to two significant digits (2 for e == 0). */
int sig_decimals(double e);

#endif
