/*
 * BENCH/metrics.tsv, the bench's --describe output plus the monitors'
 * counters: one line per metric, "name<TAB>label<TAB>unit<TAB>direction".
 */
#ifndef MMDELTA_METRICSFILE_H
#define MMDELTA_METRICSFILE_H

#include <stddef.h>

#include "err.h"

struct metric_def {
	char *name;		/* samples.tsv key: "elapsed" */
	char *label;		/* table label: "Elapsed" */
	char *unit;		/* SI base unit: s, ns, bytes, count, ops/s */
	int higher_is_better;
};

/* Parse PATH into *out (n entries); on error *out is untouched, *n is 0. */
int metrics_read(const char *path, struct metric_def **out, size_t *n,
		 struct err *e);
void metrics_free(struct metric_def *m, size_t n);

#endif
