/*
 * compare.sh --profile: where a bench's work changed, per function, between
 * the baseline and each other run (docs/compare.md).  Built once from the
 * runs' profiles (profread.h) and the report's samples, and read by every
 * renderer, so the formats agree.
 *   insns    instructions per iteration, exact: the functions whose count
 *            changed most, then one [rest] row, so the rows add up to the
 *            total; per page or per operation where the bench counts them
 *   samples  perf's self share per iteration: each function tested like
 *            any metric (Welch, the report's alpha); only the significant
 */
#ifndef MMDELTA_WHERE_H
#define MMDELTA_WHERE_H

#include <stddef.h>

#include "base/err.h"
#include "compare/report.h"
#include "profile/profread.h"
#include "stats/ttest.h"

#define WHERE_TOP 10

struct where_row {
	char *name;		/* a function, [user], [unknown], or [rest] */
	double base, new;	/* means per iteration */
	double change;		/* new - base */
	double share;		/* insns: change / the total's change (NaN when it is 0) */
	struct ttest test;	/* samples: Welch's test of the shares */
};

struct where_block {
	size_t bench;		/* rep->benches index */
	size_t run;		/* the run compared with run 0 */
	enum profile_kind kind;
	const char *none;	/* no block: why (the monitor to add) */
	char event[32];		/* samples: perf's event */
	int skid;		/* samples without hardware counters: cpu-clock skid */
	size_t n_base, n_new;	/* profiled iterations */
	const char *per;	/* "page", "op" or NULL */
	double base_units, new_units;	/* pages or operations per iteration */
	struct where_row *rows;	/* largest |change| first; insns: [rest] last */
	size_t n;
	size_t n_tested, n_significant;	/* samples: functions tested, and changed */
	struct where_row total;	/* insns: every instruction */
};

struct where {
	struct where_block *blocks;	/* bench by bench, run by run */
	size_t n;
	size_t top;
};

int where_build(const struct report *rep, size_t top, struct where *w, struct err *e);
void where_free(struct where *w);

#endif
