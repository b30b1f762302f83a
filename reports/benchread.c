/*
 * Reading one bench across runs.  The metrics compared are the baseline's
 * that every run declares, in the baseline's order: monitors add counters
 * (vmstat_*) that come and go between runs, and those must not stop a
 * comparison.  The primary metric must be in every run, and a metric that
 * two runs describe differently (unit, direction) is an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct declared {
	struct metric_def *m;
	size_t n;
};

static const struct metric_def *find(const struct declared *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->m[i].name, name))
			return &d->m[i];
	return NULL;
}

static int same_def(const struct metric_def *a, const struct metric_def *b)
{
	return !strcmp(a->label, b->label) && !strcmp(a->unit, b->unit) &&
	       a->higher_is_better == b->higher_is_better;
}

static int differs(const char *path, const struct metric_def *m,
		   const struct metric_def *base, struct err *e)
{
	return err_set(e, "%s: metric '%s' (%s, %s, %s) differs from the baseline's (%s, %s, %s)",
		       path, m->name, m->label, m->unit, m->higher_is_better ? "higher" : "lower",
		       base->label, base->unit, base->higher_is_better ? "higher" : "lower");
}

/* Keep the baseline's metrics that every run declares alike; note the rest. */
static int reconcile(struct report *rep, struct bench_data *b,
		     const struct declared *d, struct err *e)
{
	const struct declared *base = &d[0];
	char path[4096];

	b->metrics = calloc(base->n, sizeof(*b->metrics));
	if (!b->metrics)
		abort();
	for (size_t i = 0; i < base->n; i++) {
		const struct metric_def *bm = &base->m[i];
		int everywhere = 1;

		for (size_t r = 1; r < rep->n_runs; r++) {
			const struct metric_def *m = find(&d[r], bm->name);

			snprintf(path, sizeof(path), "%s/%s/metrics.tsv", rep->runs[r].path, b->name);
			if (m && !same_def(m, bm))
				return differs(path, m, bm, e);
			if (!m && i == 0)
				return err_set(e, "%s: no '%s', the baseline's primary metric", path, bm->name);
			if (!m)
				note_missing(rep, r, b->name, bm->name);
			everywhere &= m != NULL;
		}
		if (everywhere)
			b->metrics[b->n_metrics++] = (struct metric_def){
				strdup(bm->name), strdup(bm->label), strdup(bm->unit), bm->higher_is_better
			};
	}
	for (size_t r = 1; r < rep->n_runs; r++)
		for (size_t i = 0; i < d[r].n; i++)
			if (!find(base, d[r].m[i].name))
				note_missing(rep, 0, b->name, d[r].m[i].name);
	return 0;
}

static int read_all(struct report *rep, struct bench_data *b, struct declared *d,
		    struct err *e)
{
	char path[4096];

	for (size_t r = 0; r < rep->n_runs; r++) {
		snprintf(path, sizeof(path), "%s/%s/metrics.tsv", rep->runs[r].path, b->name);
		if (metrics_read(path, &d[r].m, &d[r].n, e))
			return -1;
	}
	if (reconcile(rep, b, d, e))
		return -1;
	for (size_t r = 0; r < rep->n_runs; r++) {
		snprintf(path, sizeof(path), "%s/%s/samples.tsv", rep->runs[r].path, b->name);
		if (samples_read(b, r, path, d[r].m, d[r].n, e))
			return -1;
		for (size_t m = 1; m < b->n_metrics; m++)
			if (samples_of(b, r, m) == 0)
				note_missing(rep, r, b->name, b->metrics[m].name);
	}
	return 0;
}

int bench_read(struct report *rep, struct bench_data *b, struct err *e)
{
	struct declared *d = calloc(rep->n_runs, sizeof(*d));
	int ret;

	if (!d)
		abort();
	ret = read_all(rep, b, d, e);
	for (size_t r = 0; r < rep->n_runs; r++)
		metrics_free(d[r].m, d[r].n);
	free(d);
	return ret;
}
