/*
 * What changed: the comparison's first lines (docs/compare.md).  A figure
 * (bench, sweep point, metric, run against the baseline) changed when its
 * test finds a difference, or when, between two icount runs, its mean moved
 * by more than the bench's icount resolution (the widest spread of one
 * kernel's iterations within a boot, drivers/vm/resolution.tsv).  A change
 * smaller than the threshold (--threshold, 0.1% unless told) is real but
 * too small to matter: listed apart, on one line, never in a table of its
 * own.  Everything else is "no difference proven", with the smallest change
 * each bench's samples could have detected.
 */
#ifndef MMDELTA_CHANGES_H
#define MMDELTA_CHANGES_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

struct report;
struct ttest;

/* The default threshold, in percent of the baseline's mean. */
#define CHANGE_THRESHOLD 0.1

struct change {
	size_t bench, param, metric, run;
	int significant;	/* the t-test's difference at --alpha */
	int has_resolution;	/* both runs icount, and the table has the metric */
	int beyond;		/* the mean moved by more than the resolution */
	double range_pct;	/* the resolution, in percent */
	int under;		/* smaller than the threshold */
};

struct change_list {
	struct change *c;
	size_t n;
	size_t unchanged;	/* figures with no difference proven (constant ones too) */
	size_t untested;	/* figures with no test (fewer than 2 samples) */
};

/* Every changed figure of rep, in the tables' order. -1: a malformed resolution table. */
int changes_find(const struct report *rep, struct change_list *out, struct err *e);
void changes_free(struct change_list *l);
/* The test's change of the mean is the threshold or more (from a mean of 0: any). */
int change_matters(const struct report *rep, const struct ttest *t);
/* Metric m of bench b changed by the threshold or more, at some point and run. */
int metric_changed(const struct report *rep, size_t b, size_t m);
/* Some metric of bench b did. */
int bench_changed(const struct report *rep, size_t b);
/*
 * "heaprelease mprotect CPU": the figure's name in the summary, the sweep
 * value between the bench and the metric's label.
 */
void change_name(const struct report *rep, const struct change *c, char *buf, size_t len);
/* "0.36% ± 0.22% worse" (or "exact" without an interval), and the why tags. */
void change_words(const struct report *rep, const struct change *c, char *buf, size_t len);
/*
 * The line of what did not move: "41 figures: no difference proven; the
 * smallest change each bench could detect (its primary metric, 80% power):
 * heaprelease 5.0% (mprotect), 0.050% (madvise); timedmunlock any (exact)".
 */
void unchanged_line(const struct report *rep, char *buf, size_t len);
/* "Significant, under 0.1%: timedmunlock Populate 0.030% worse, ..."; 0 when none. */
int under_line(const struct report *rep, size_t run, char *buf, size_t len);
/* The summary as text: a heading per run, aligned lines, the two closing lines. */
void changes_text(FILE *f, const struct report *rep);
/* The same as a markdown list. */
void changes_markdown(FILE *f, const struct report *rep);
/*
 * "Not shown: the tables of 3 benches where nothing changed; the tables
 * of 12 other metrics; the rows of 1 sweep point where nothing changed
 * (--all-metrics shows every table)."
 * 0 when every table is shown.
 */
int not_shown_line(const struct report *rep, char *buf, size_t len);

#endif
