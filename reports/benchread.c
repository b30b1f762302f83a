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

#include "benchread.h"
#include "samplesfile.h"
#include "xalloc.h"

struct declared {
	struct metric_def *m;
	size_t n;
};

/* What every step needs: the runs, where notes go, and the declarations. */
struct reading {
	const struct run_info *runs;
	size_t n_runs;
	struct missing_list *miss;
	struct declared *d;	/* per run */
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
	       a->better == b->better;
}

static int differs(const char *path, const struct metric_def *m,
		   const struct metric_def *base, struct err *e)
{
	return err_set(e, "%s: metric '%s' (%s, %s, %s) differs from the baseline's (%s, %s, %s)",
		       path, m->name, m->label, m->unit, better_name(m->better),
		       base->label, base->unit, better_name(base->better));
}

/* Keep the baseline's metrics that every run declares alike; note the rest. */
static int reconcile(const struct reading *rd, struct bench_data *b, struct err *e)
{
	const struct declared *d = rd->d, *base = &d[0];
	char path[4096];

	b->metrics = xcalloc(base->n, sizeof(*b->metrics));
	for (size_t i = 0; i < base->n; i++) {
		const struct metric_def *bm = &base->m[i];
		int everywhere = 1;

		for (size_t r = 1; r < rd->n_runs; r++) {
			const struct metric_def *m = find(&d[r], bm->name);

			snprintf(path, sizeof(path), "%s/%s/metrics.tsv", rd->runs[r].path, b->name);
			if (m && !same_def(m, bm))
				return differs(path, m, bm, e);
			if (!m && i == 0)
				return err_set(e, "%s: no '%s', the baseline's primary metric", path, bm->name);
			if (!m)
				missing_add(rd->miss, r, b->name, bm->name);
			everywhere &= m != NULL;
		}
		if (everywhere)
			b->metrics[b->n_metrics++] = metric_copy(bm);
	}
	for (size_t r = 1; r < rd->n_runs; r++)
		for (size_t i = 0; i < d[r].n; i++)
			if (!find(base, d[r].m[i].name))
				missing_add(rd->miss, 0, b->name, d[r].m[i].name);
	return 0;
}

static int read_all(const struct reading *rd, struct bench_data *b, struct err *e)
{
	char path[4096];

	for (size_t r = 0; r < rd->n_runs; r++) {
		snprintf(path, sizeof(path), "%s/%s/metrics.tsv", rd->runs[r].path, b->name);
		if (metrics_read(path, &rd->d[r].m, &rd->d[r].n, e))
			return -1;
	}
	if (reconcile(rd, b, e))
		return -1;
	for (size_t r = 0; r < rd->n_runs; r++) {
		snprintf(path, sizeof(path), "%s/%s/samples.tsv", rd->runs[r].path, b->name);
		if (samples_read(b, r, path, rd->d[r].m, rd->d[r].n, e))
			return -1;
		for (size_t m = 1; m < b->n_metrics; m++)
			if (samples_of(b, r, m) == 0)
				missing_add(rd->miss, r, b->name, b->metrics[m].name);
	}
	return 0;
}

int bench_read(struct bench_data *b, const struct run_info *runs,
	       struct missing_list *miss, struct err *e)
{
	struct reading rd = { runs, b->n_runs, miss, xcalloc(b->n_runs, sizeof(*rd.d)) };
	int ret = read_all(&rd, b, e);

	for (size_t r = 0; r < rd.n_runs; r++)
		metrics_free(rd.d[r].m, rd.d[r].n);
	free(rd.d);
	return ret;
}
