/*
 * Reading one bench across runs.  The metrics compared are every metric some
 * run declares: the baseline's in its order, then those only later runs
 * have.  A run that lacks one (its monitor did not run there, or a counter
 * it never saw) shows it as absent; the other runs are still compared.  A
 * metric no run has a sample of (a counter seen only in warm-ups) is left
 * out.  The primary metric must be in every run, and a metric that two runs
 * describe differently (unit, direction) is an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchread.h"
#include "samplesfile.h"
#include "tsv.h"
#include "base/xalloc.h"

/* A monitor that could not run for the bench: BENCH/monitors/skipped. */
struct skip {
	char *monitor, *why;
};

/* One run's BENCH/metrics.tsv and BENCH/monitors/skipped. */
struct declared {
	struct metric_def *m;
	size_t n;
	struct skip *skipped;
	size_t n_skipped;
};

/* What every step needs: the runs, where notes go, and the declarations. */
struct reading {
	const struct run_info *runs;
	size_t n_runs;
	int warmups;
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

/* "monitor-name<TAB>why" lines; no file: every requested monitor ran. */
static int read_skipped(const char *path, struct declared *d, struct err *e)
{
	struct tsv t;
	int r = tsv_open_optional(&t, path, e);

	if (r <= 0)
		return r;
	while ((r = tsv_next(&t, e)) == 1) {
		d->skipped = xreallocarray(d->skipped, d->n_skipped + 1, sizeof(*d->skipped));
		d->skipped[d->n_skipped++] = (struct skip){
			xstrdup(t.field[0]), xstrdup(t.nf > 1 ? t.field[1] : "not available")
		};
	}
	tsv_close(&t);
	return r;
}

static const char *skip_reason(const struct declared *d, const char *monitor)
{
	for (size_t i = 0; *monitor && i < d->n_skipped; i++)
		if (!strcmp(d->skipped[i].monitor, monitor))
			return d->skipped[i].why;
	return NULL;
}

static int read_declared(const struct reading *rd, const char *bench, struct err *e)
{
	char path[4096];

	for (size_t r = 0; r < rd->n_runs; r++) {
		snprintf(path, sizeof(path), "%s/%s/metrics.tsv", rd->runs[r].path, bench);
		if (metrics_read(path, &rd->d[r].m, &rd->d[r].n, e))
			return -1;
		snprintf(path, sizeof(path), "%s/%s/monitors/skipped", rd->runs[r].path, bench);
		if (read_skipped(path, &rd->d[r], e))
			return -1;
	}
	return 0;
}

static int differs(const struct reading *rd, size_t r, const char *bench,
		   const struct metric_def *m, const struct metric_def *first,
		   size_t first_run, struct err *e)
{
	char whose[300];

	if (first_run == 0)
		snprintf(whose, sizeof(whose), "the baseline's");
	else
		snprintf(whose, sizeof(whose), "run '%s''s", rd->runs[first_run].name);
	return err_set(e, "%s/%s/metrics.tsv: metric '%s' (%s, %s, %s) differs from %s (%s, %s, %s)",
		       rd->runs[r].path, bench, m->name, m->label, m->unit, better_name(m->better),
		       whose, first->label, first->unit, better_name(first->better));
}

/* The first run that declares metric `name`. */
static size_t first_declaring(const struct reading *rd, const char *name)
{
	size_t r = 0;

	while (r < rd->n_runs && !find(&rd->d[r], name))
		r++;
	return r;
}

/* Every metric any run declares, alike everywhere it is declared. */
static int reconcile(const struct reading *rd, struct bench_data *b, struct err *e)
{
	const char *primary = rd->d[0].m[0].name;

	for (size_t r = 0; r < rd->n_runs; r++) {
		const struct declared *d = &rd->d[r];

		if (!find(d, primary))
			return err_set(e, "%s/%s/metrics.tsv: no '%s', the baseline's primary metric",
				       rd->runs[r].path, b->name, primary);
		for (size_t i = 0; i < d->n; i++) {
			int m = bench_metric_index(b, d->m[i].name);

			if (m >= 0 && !same_def(&d->m[i], &b->metrics[m]))
				return differs(rd, r, b->name, &d->m[i], &b->metrics[m],
					       first_declaring(rd, d->m[i].name), e);
			if (m < 0) {
				b->metrics = xreallocarray(b->metrics, b->n_metrics + 1, sizeof(*b->metrics));
				b->metrics[b->n_metrics++] = metric_copy(&d->m[i]);
			}
		}
	}
	return 0;
}

/* A run without samples of a metric: absent there, and why when known. */
static void note_absent(const struct reading *rd, const struct bench_data *b)
{
	for (size_t r = 0; r < rd->n_runs; r++)
		for (size_t m = 1; m < b->n_metrics; m++) {
			const struct metric_def *md = &b->metrics[m];
			const char *why = find(&rd->d[r], md->name) ? NULL :
					  skip_reason(&rd->d[r], md->monitor);

			if (samples_of(b, r, m) == 0)
				missing_add(rd->miss, r, b->name, md->name, why ? md->monitor : NULL, why);
		}
}

static int read_all(const struct reading *rd, struct bench_data *b, struct err *e)
{
	char path[4096];

	if (read_declared(rd, b->name, e) || reconcile(rd, b, e))
		return -1;
	for (size_t r = 0; r < rd->n_runs; r++) {
		snprintf(path, sizeof(path), "%s/%s/samples.tsv", rd->runs[r].path, b->name);
		if (samples_read(b, r, path, rd->d[r].m, rd->d[r].n, e))
			return -1;
		/* A partial run (compared with --allow-partial) may have none:
		 * series.sh's commit that did not build keeps its column, '-'. */
		if (!rd->runs[r].partial && samples_check_complete(b, r, path, e))
			return -1;
	}
	bench_drop_unsampled(b);
	note_absent(rd, b);
	for (size_t r = 0; rd->warmups && r < rd->n_runs; r++) {
		snprintf(path, sizeof(path), "%s/%s/warmup.tsv", rd->runs[r].path, b->name);
		if (warmups_read(b, r, path, rd->d[r].m, rd->d[r].n, e))
			return -1;
	}
	return 0;
}

static void declared_free(struct declared *d)
{
	metrics_free(d->m, d->n);
	for (size_t i = 0; i < d->n_skipped; i++) {
		free(d->skipped[i].monitor);
		free(d->skipped[i].why);
	}
	free(d->skipped);
}

int bench_read(struct bench_data *b, const struct run_info *runs, int warmups,
	       struct missing_list *miss, struct err *e)
{
	struct reading rd = { runs, b->n_runs, warmups, miss, xcalloc(b->n_runs, sizeof(*rd.d)) };
	int ret = read_all(&rd, b, e);

	for (size_t r = 0; r < rd.n_runs; r++)
		declared_free(&rd.d[r]);
	free(rd.d);
	return ret;
}
