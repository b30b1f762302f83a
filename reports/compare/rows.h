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
#include "units.h"
#include "stats/statrows.h"

struct row {
	size_t metric, param;
	enum stat_id stat;
};

/* One run's value in a row, as every table shows it. */
struct row_cell {
	int has_value;	/* 0: "-" (no samples) when !na, "n/a" when na */
	int na;
	double v;	/* in the block's display unit; cv stays a percentage */
	int has_pct;	/* change from the baseline, better positive */
	double pct;
	int marked;	/* a significant change of the mean */
};

/* Rows of metric m into *out (caller frees); returns their number. */
size_t metric_rows(const struct bench_cmp *b, size_t m, struct row **out);
/*
 * The display unit of metric m, one for its whole block: the largest step
 * that keeps the smallest non-zero mean of any run and swept value at or
 * above 1, so that two decimals carry at least three significant digits
 * (a 12 µs munlock reads 12.00 µs, not 0.00 s).
 */
void metric_scale(const struct bench_cmp *b, size_t m, struct scale *sc);
/* "Elapsed", "Elapsed-2": the row label without the stat name. */
void metric_label(const struct bench_cmp *b, size_t m, size_t p,
		  char *buf, size_t len);
/* "Elapsed [s]", "ns/page [µs]", "Pages [M]": the block's header label. */
void metric_header(const struct bench_cmp *b, size_t m, char *buf, size_t len);
/* Run r's cell of row rw, scaled by the block's unit sc. */
void row_cell(const struct bench_cmp *b, const struct row *rw, size_t r,
	      const struct scale *sc, struct row_cell *out);
/*
 * Metric m is one number in every sample of every run at each swept value
 * (Pages of one SIZE): the tables print it as one line, "Pages 16384 in
 * every run", not rows of zeros and a test of nothing.
 */
int metric_constant(const struct bench_cmp *b, size_t m);
/* A significant change of the mean, starred or coloured: never a counter's. */
int mean_marked(const struct bench_cmp *b, size_t m, const struct cmp_cell *c);
/*
 * The metrics the tables show, in order into order[] (room for n_metrics):
 * the bench's own, then a monitor's only where some run differs from the
 * baseline significantly (all of them with --all-metrics).
 */
size_t shown_metrics(const struct report *rep, const struct bench_cmp *b,
		     size_t *order);
/*
 * The tables text and markdown print by default (changes.h): in a bench
 * where something changed, its primary metric (its first own one) and its
 * own metrics that changed by the threshold or more (a monitor's counters
 * that changed are lines of the summary); all of shown_metrics with
 * --all-metrics.  Returns how many; 0 for a bench where nothing changed
 * (no tables at all).
 */
size_t table_metrics(const struct report *rep, const struct bench_cmp *b,
		     size_t *order);
/*
 * Sweep point p of bench b has a table row by default: something of the
 * bench changed there by the threshold or more (every point with
 * --all-metrics, and the one point of an unswept bench).
 */
int point_shown(const struct report *rep, const struct bench_cmp *b, size_t p);
/* metric_rows of the points point_shown keeps (caller frees). */
size_t table_rows(const struct report *rep, const struct bench_cmp *b, size_t m, struct row **out);
/* The bench's primary metric: its first own metric (metrics.tsv's first line). */
size_t primary_metric(const struct bench_cmp *b);
/* "38 vmstat metrics": what shown_metrics left out; 0 when nothing. */
int hidden_metrics(const struct report *rep, const struct bench_cmp *b,
		   char *buf, size_t len);

#endif
