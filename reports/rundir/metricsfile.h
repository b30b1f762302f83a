/*
 * BENCH/metrics.tsv, the bench's --describe output plus the monitors'
 * metrics: one line per metric,
 *   name<TAB>label<TAB>unit<TAB>lower|higher|none[<TAB>monitor]
 * "none" is a counter that is neither better nor worse (pages, vmstat_*):
 * no colour, no star, never gated.  The fifth field names the monitor that
 * recorded the metric; the bench's own metrics have none.
 */
#ifndef MMDELTA_METRICSFILE_H
#define MMDELTA_METRICSFILE_H

#include <stddef.h>

#include "base/err.h"

enum better { BETTER_LOWER, BETTER_HIGHER, BETTER_NONE };

struct metric_def {
	char *name;		/* samples.tsv key: "elapsed" */
	char *label;		/* table label: "Elapsed" */
	char *unit;		/* SI base unit: s, ns, bytes, count, ops/s */
	enum better better;
	char *monitor;		/* "vmstat"; "" for the bench's own metrics */
};

/* "lower", "higher", "none": the word metrics.tsv, CSV and JSON use. */
const char *better_name(enum better b);
/* A deep copy (the report keeps the baseline's after its file is freed). */
struct metric_def metric_copy(const struct metric_def *m);

/* Parse PATH into *out (n entries); on error *out is untouched, *n is 0. */
int metrics_read(const char *path, struct metric_def **out, size_t *n,
		 struct err *e);
void metrics_free(struct metric_def *m, size_t n);
/* Free one entry's strings (the entry itself belongs to its array). */
void metric_clear(struct metric_def *m);

#endif
