/*
 * The comparison itself: every summary and every test of every common bench,
 * computed once.  The renderers (text, markdown, CSV, JSON) and the gate only
 * read this, so all formats carry the same numbers.
 */
#ifndef MMDELTA_REPORT_H
#define MMDELTA_REPORT_H

#include "changes.h"
#include "differ.h"
#include "rundir/benchdata.h"
#include "rundir/kvfile.h"
#include "rundir/missing.h"
#include "rundir/runinfo.h"
#include "stats/stats.h"
#include "stats/ttest.h"

struct cmp_cell {
	struct summary s;	/* s.n == 0: the run has no samples here */
	struct ttest test;	/* against the baseline (run 0); not in run 0 */
};

struct bench_cmp {
	struct bench_data data;
	struct cmp_cell *cells;	/* indexed like data.cells */
	struct kvlist *config;	/* per run: BENCH/config, empty without one */
	char aliases[512];	/* counters shown once: "nr_mlock = nr_unevictable" (aliases.h) */
};

struct report_opts {
	double alpha;
	enum ttest_kind test;
	int allow_partial;
	int unlike_clocks;	/* compare runs of different clocks (said first) */
	int all_metrics;	/* tables show every monitor metric, not only changed ones */
	int warmups;		/* read warmup.tsv too (the run-sequence plots) */
	double threshold;	/* percent: a change under it is too small to matter */
};

struct where;	/* profile/where.h: compare.sh --profile's blocks */

struct report {
	struct report_opts opt;
	struct run_info *runs;
	size_t n_runs;
	struct bench_cmp *benches;
	size_t n_benches;
	struct missing_list missing;	/* benches and metrics some run lacks */
	struct difference_list differences;	/* configs and systems that differ */
	struct change_list changes;	/* what changed, the summary's lines */
	const struct where *where;	/* --profile: set by mmstat; NULL without */
};

int report_build(struct report *rep, char *const *paths, size_t n_paths,
		 const struct report_opts *opt, struct err *e);
void report_free(struct report *rep);
const struct cmp_cell *report_cell(const struct bench_cmp *b, size_t param,
				   size_t run, size_t metric);
/* Confidence level in percent, as ministat prints it: 95.0 */
double report_confidence(const struct report *rep);
/* NAME, or NAME-VALUE at a swept value: "Elapsed", "elapsed-2" */
void point_name(const char *name, const char *param, char *buf, size_t len);

#endif
