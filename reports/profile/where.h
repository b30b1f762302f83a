/*
 * compare.sh --profile: where a bench's work changed, per function, between
 * the baseline and each other run, at each sweep point (docs/compare.md).
 * Built once from the runs' profiles (profread.h) and the report's samples,
 * and read by every renderer, so the formats agree.  Every row is tested
 * across iterations, and so is the block's total:
 *   insns    instructions per iteration, exact counts: Welch's test of each
 *            function's per-iteration counts; counts equal in every
 *            iteration of both runs are exact, so different means are a
 *            certain change and equal ones none (ttest.h).  Significant
 *            functions first, then the others, by |change|, up to top; then
 *            one [rest] row, so the rows add up to the total, which is
 *            tested too and set against the bench's icount resolution
 *            (resolution.h).  Per page or per operation where the bench
 *            counts them.
 *   samples  perf's self share per iteration: each function tested like
 *            any metric (Welch, the report's alpha); only the significant
 *            shown.  The block's total is the bench's primary metric.
 * Either kind also carries the primary metric's verdict as its table gives
 * it, so that a block under a table that says "No difference proven" says
 * so first, and the rows are not read as a change.  Each row is work or
 * interleaving (interleave.h); an insns block splits its total so too.  A
 * point whose runs both counted the bench's task regions (harness.h) gets
 * a second insns block of those, built the same way.
 */
#ifndef MMDELTA_WHERE_H
#define MMDELTA_WHERE_H

#include <stddef.h>

#include "base/err.h"
#include "compare/report.h"
#include "profile/profread.h"
#include "stats/resolution.h"
#include "stats/ttest.h"

#define WHERE_TOP 10

struct where_row {
	char *name;		/* a function, [user], [unknown], [rest], or the total */
	double base, new;	/* means per iteration */
	double change;		/* new - base */
	double share;		/* insns: change / the total's change (NaN when it is 0) */
	struct ttest test;	/* across the iterations of the two runs */
	int interleaving;	/* 1: interleaving, 0: work, -1: both ([rest], the total) */
};

/* Is the row's change significant at the report's alpha? */
int where_significant(const struct where_row *r);

struct where_block {
	size_t bench;		/* rep->benches index */
	size_t param;		/* its params index: one block per sweep point */
	char point[192];	/* "PATTERN=mprotect", or "" for a bench that sweeps nothing */
	size_t run;		/* the run compared with run 0 */
	enum profile_kind kind;
	char *none;		/* no block: why, from what the runs recorded */
	char event[32];		/* samples: perf's event */
	int skid;		/* samples without hardware counters: cpu-clock skid */
	size_t n_base, n_new;	/* profiled iterations */
	size_t regions[2];	/* insns: regions per iteration, base and new, when the same in each (0: unknown) */
	const char *per;	/* "page", "op" or NULL */
	double base_units, new_units;	/* pages or operations per iteration */
	struct where_row *rows;	/* insns: [rest] last */
	size_t n;
	size_t n_tested, n_significant;	/* functions tested, and changed */
	/* insns: every instruction; samples: the bench's primary metric (its
	 * label as the name), so that the block says whether the work changed */
	struct where_row total;
	int has_resolution;	/* insns between two icount runs, in the table */
	struct resolution resolution;	/* the bench's primary metric's spread */
	double runs_range;	/* the widest (max - min) / mean of its iterations in either run */
	int beyond_resolution;	/* |total change| > where_total_range() */
	char primary[256];	/* the primary metric as its table names it: "Elapsed-mprotect" */
	struct ttest primary_test;	/* its table's test at this point */
	int primary_beyond;	/* between icount runs: its change beyond the wider range */
	/* insns: the total split, every function counted, each part tested as the total is */
	struct where_row work, interleaved;
	int of_tasks;		/* this is a block of the bench's task regions */
	size_t task_regions[2];	/* task regions per iteration, fewest and most in either run (0: unknown) */
	struct where_block *tasks;	/* the point's task regions' block, or NULL */
};

/*
 * Did the bench's figure change, as the tables judge it: its primary
 * metric's change significant, or beyond the bench's icount resolution.
 */
int where_primary_changed(const struct where_block *w);
/* The spread a change must pass: resolution.tsv's range, or the runs' own where wider. */
double where_range(const struct where_block *w);
/* The spread the total's change must pass: resolution.tsv's alone for an exact total. */
double where_total_range(const struct where_block *w);
/* Did the total, or a part of it (work, interleaved), change: its test, or beyond the resolution? */
int where_part_changed(const struct where_block *w, const struct where_row *part);
/* insns: the work's own test finds no change while the total or the interleaving changed. */
int where_only_interleaving(const struct where_block *w);

struct where {
	struct where_block *blocks;	/* bench by bench, point by point, run by run */
	size_t n;
	size_t top;
};

int where_build(const struct report *rep, size_t top, struct where *w, struct err *e);
void where_free(struct where *w);

#endif
