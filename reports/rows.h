/*
 * Which rows a metric's table has, shared by the text and markdown tables:
 * per swept value, the rows min mean stddev max range (the munlock thread's
 * block, unchanged), then cv, then median and percentiles for latency
 * distributions.
 */
#ifndef MMDELTA_ROWS_H
#define MMDELTA_ROWS_H

#include <stddef.h>

#include "report.h"
#include "statrows.h"
#include "units.h"

struct row {
	size_t metric, param;
	enum stat_id stat;
};

/* Rows of metric m into *out (caller frees); returns their number. */
size_t metric_rows(const struct bench_cmp *b, size_t m, struct row **out);
/* The display unit of metric m, from the baseline's means; the primary
 * metric (m == 0) always shows in its own unit. */
void metric_scale(const struct bench_cmp *b, size_t m, struct scale *sc);
/* "Elapsed", "Elapsed-2", "Populate(ms)", "Elapsed-2(µs)": no stat name. */
void metric_label(const struct bench_cmp *b, size_t m, size_t p,
		  char *buf, size_t len);

#endif
