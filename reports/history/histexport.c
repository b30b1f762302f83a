/*
 * The data files the trend charts are drawn from (reports/history/trend.gp): per
 * series every sample at its run's position, the segment means between
 * change points, and the change points with the runs around them.  Values
 * are in the unit the chart shows (units.c), as everywhere in the reports.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histexport.h"
#include "compare/units.h"

static FILE *open_out(const char *dir, size_t i, const char *ext, struct err *e)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/s%zu.%s", dir, i, ext);
	f = fopen(path, "w");
	if (!f)
		err_set(e, "%s: cannot write", path);
	return f;
}

/* Every sample at its run's position, 1 after it when the run is set aside
 * as an outlier; *lo, *hi their range (the chart's y range). */
static int samples(sqlite3 *db, FILE *f, const struct hist_data *d, const struct hseries *s,
		   const unsigned char *outlier, double div, double *lo, double *hi, struct err *e)
{
	sqlite3_stmt *st;

	*lo = INFINITY;
	*hi = -INFINITY;
	if (sqlite3_prepare_v2(db, "SELECT value FROM samples WHERE run_id = ? AND metric_id = ?"
			       " AND param = ?", -1, &st, NULL) != SQLITE_OK)
		return err_set(e, "reading samples: %s", sqlite3_errmsg(db));
	for (size_t x = 0; x < s->n; x++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, d->runs[s->run[x]].id);
		sqlite3_bind_int64(st, 2, s->metric->id);
		sqlite3_bind_text(st, 3, s->param, -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW) {
			double v = sqlite3_column_double(st, 0) / div;

			fprintf(f, "%zu\t%.9g\t%d\n", x + 1, v, outlier[x]);
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	}
	sqlite3_finalize(st);
	return 0;
}

/* Where the chart puts the border before run `after`: half way from the
 * last run kept before it (an outlier between them belongs to neither). */
static double border(const unsigned char *outlier, size_t after)
{
	size_t before = after;

	while (before > 0 && outlier[--before])
		;
	return (double)(before + after) / 2 + 1;
}

/* Each segment a horizontal step over its runs, blank lines between; its
 * mean is that of its runs not set aside. */
static void segments(FILE *f, const struct hseries *s, const size_t *cp, size_t k,
		     const unsigned char *outlier, double div)
{
	for (size_t j = 0; j <= k; j++) {
		size_t a = j ? cp[j - 1] : 0, b = j < k ? cp[j] : s->n, n = 0;
		double sum = 0;

		for (size_t i = a; i < b; i++)
			if (!outlier[i]) {
				sum += s->pt[i].mean;
				n++;
			}
		fprintf(f, "%.1f\t%.9g\n%.1f\t%.9g\n\n\n", j ? border(outlier, a) : 0.5, sum / (double)n / div,
			j < k ? border(outlier, b) : (double)s->n + 0.5, sum / (double)n / div);
	}
}

/* x, last run before, first after, change % (positive = better), its
 * interval, p, the means before and after, regression (1/0). */
static void changes(FILE *f, const struct hist_data *d, const struct hist_changes *c,
		    const struct hseries *s, double div)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct hchange *h = &c->c[i];

		if (h->s != s)
			continue;
		fprintf(f, "%.1f\t%s\t%s\t%.2f\t%.2f\t%.3g\t%.6g\t%.6g\t%d\n",
			(double)(h->before + h->after) / 2 + 1, d->runs[s->run[h->before]].name,
			d->runs[s->run[h->after]].name,
			h->has_pct ? h->pct : 0.0, h->has_pct ? h->ci_pct : 0.0, h->t.p,
			h->t.before / div, h->t.after / div, h->regression);
	}
}

/* The outliers: run, its mean, percent off its level. */
static void outliers(FILE *f, const struct hist_data *d, const struct hist_changes *c,
		     const struct hseries *s, double div)
{
	for (size_t i = 0; i < c->n_outliers; i++) {
		const struct houtlier *o = &c->o[i];

		if (o->s == s)
			fprintf(f, "%s\t%.6g\t%+.1f\n", d->runs[s->run[o->run]].name, s->pt[o->run].mean / div, o->pct);
	}
}

/* Run names under the axis: about twelve, evenly spaced, and the newest. */
static void tics(FILE *f, const struct hist_data *d, const struct hseries *s)
{
	size_t every = s->n > 12 ? (s->n + 11) / 12 : 1;

	for (size_t x = 0; x < s->n; x++)
		if (x % every == 0 || x + 1 == s->n)
			fprintf(f, "%zu\t%s\n", x + 1, d->runs[s->run[x]].name);
}

static double magnitude(const struct hseries *s)
{
	double m = 0;

	for (size_t i = 0; i < s->n; i++)
		m = fmax(m, fabs(s->pt[i].mean));
	return m;
}

static int one(sqlite3 *db, const char *dir, size_t i, const struct hist_data *d,
	       const struct hist_changes *c, FILE *index, struct err *e)
{
	const struct hseries *s = &d->series[i];
	FILE *f[5] = { open_out(dir, i, "dat", e), open_out(dir, i, "seg", e),
		       open_out(dir, i, "cp", e), open_out(dir, i, "tics", e), open_out(dir, i, "out", e) };
	struct scale sc;
	double lo = 0, hi = 0;
	int ret = 0;

	unit_scale(s->metric->unit, magnitude(s), &sc);
	if (!f[0] || !f[1] || !f[2] || !f[3] || !f[4])
		ret = -1;
	else
		ret = samples(db, f[0], d, s, c->outlier_per_series[i], sc.div, &lo, &hi, e);
	if (!ret) {
		segments(f[1], s, c->cp_per_series[i], c->n_per_series[i], c->outlier_per_series[i], sc.div);
		changes(f[2], d, c, s, sc.div);
		tics(f[3], d, s);
		outliers(f[4], d, c, s, sc.div);
		/* the unit is often "" (a count in ones): trend.sh keeps empty fields */
		fprintf(index, "%zu\t%s\t%s\t%s\t%s\t%lld\t%s\t%s\t%s\t%zu\t%zu\t%s\t%s\t%.9g\t%.9g\t%zu\n", i,
			s->metric->bench, s->metric->name, s->param, s->machine, s->config,
			s->metric->label, sc.unit, s->metric->direction, s->n, c->n_per_series[i],
			d->runs[s->run[0]].name, d->runs[s->run[s->n - 1]].name, isfinite(lo) ? lo : 0,
			isfinite(hi) ? hi : 0, s->n - c->kept_per_series[i]);
	}
	for (int k = 0; k < 5; k++)
		if (f[k] && fclose(f[k]) && !ret)
			ret = err_set(e, "%s: write failed", dir);
	return ret;
}

int hist_export(sqlite3 *db, const char *dir, const struct hist_data *d,
		const struct hist_changes *c, struct err *e)
{
	char path[4096];
	FILE *index;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/series.tsv", dir);
	index = fopen(path, "w");
	if (!index)
		return err_set(e, "%s: cannot write", path);
	for (size_t i = 0; i < d->n_series && !ret; i++)
		ret = one(db, dir, i, d, c, index, e);
	if (fclose(index) && !ret)
		ret = err_set(e, "%s: write failed", path);
	return ret;
}
