/*
 * Reading the history into series (see histseries.h).  Samples are read in
 * their table's key order (run, metric, swept value), so each run's summary
 * for a series is built in one pass without sorting the samples; only the
 * per-run summaries are sorted into series.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "histdb.h"
#include "histseries.h"

static char *dup_col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	char *s = strdup(t ? (const char *)t : "");

	if (!s)
		abort();
	return s;
}

static void *grow(void *p, size_t n, size_t size)
{
	/* doubling capacity: n is a count of used slots, grown when a power of 2 */
	if (n && (n & (n - 1)))
		return p;
	p = realloc(p, (n ? 2 * n : 1) * size);
	if (!p)
		abort();
	return p;
}

/* "2026-11-30T07:08:20+00:00" (date -Is) -> seconds since 1970, UTC. */
static double iso_epoch(const char *s)
{
	struct tm tm = { 0 };
	int oh = 0, om = 0, used = 0;
	char sign = '+';

	if (sscanf(s, "%d-%d-%dT%d:%d:%d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &used) != 6)
		return 0;
	sscanf(s + used, "%c%d:%d", &sign, &oh, &om);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm) - (sign == '-' ? -1 : 1) * (oh * 3600.0 + om * 60.0);
}

static const char *intern(struct hist_data *d, const char *s)
{
	for (size_t i = 0; i < d->n_params; i++)
		if (!strcmp(d->params[i], s))
			return d->params[i];
	d->params = grow(d->params, d->n_params, sizeof(char *));
	d->params[d->n_params] = strdup(s);
	if (!d->params[d->n_params])
		abort();
	return d->params[d->n_params++];
}

static int fail(sqlite3 *db, sqlite3_stmt *st, struct err *e)
{
	sqlite3_finalize(st);
	return histdb_fail(db, "reading the history", e);
}

/* Runs by id: ids index a table (runs are never many millions). */
static int load_runs(sqlite3 *db, const struct hist_filter *f, struct hist_data *d,
		     size_t **by_id, size_t *max_id, struct err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT id, name, start_time, host, clock, coalesce(qemu_version, ''),"
			       " kernel_release, vm_image, (SELECT value FROM meta WHERE run_id = id"
			       " AND key = 'configs'), (SELECT value FROM meta WHERE run_id = id AND key = ?),"
			       " (SELECT value FROM meta WHERE run_id = id AND key = 'command')"
			       " FROM runs ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return fail(db, NULL, e);
	sqlite3_bind_text(st, 1, f->order_by ? f->order_by : "", -1, SQLITE_STATIC);
	*max_id = 0;
	*by_id = NULL;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t id = (size_t)sqlite3_column_int64(st, 0);
		struct hrun *r;
		char machine[512];

		d->runs = grow(d->runs, d->n_runs, sizeof(*d->runs));
		r = &d->runs[d->n_runs];
		*r = (struct hrun){ (long long)id, dup_col(st, 1), dup_col(st, 2), dup_col(st, 3), dup_col(st, 4),
				    dup_col(st, 6), sqlite3_column_type(st, 7) == SQLITE_NULL ? NULL : dup_col(st, 7),
				    dup_col(st, 8), sqlite3_column_type(st, 9) == SQLITE_NULL ? NULL : dup_col(st, 9), 0, NULL,
				    sqlite3_column_type(st, 10) == SQLITE_NULL ? NULL : dup_col(st, 10) };
		r->epoch = iso_epoch(r->start);
		/* icount figures do not depend on the host: the emulator is the machine */
		if (!strcmp(r->clock, "icount"))
			snprintf(machine, sizeof(machine), "icount, qemu %s", sqlite3_column_text(st, 5));
		r->machine = strdup(!strcmp(r->clock, "icount") ? machine : r->host);
		*by_id = realloc(*by_id, (id + 1) * sizeof(**by_id));
		if (!*by_id || !r->machine)
			abort();
		for (size_t i = *max_id ? *max_id + 1 : 0; i < id; i++)
			(*by_id)[i] = (size_t)-1;
		(*by_id)[id] = d->n_runs++;
		*max_id = id;
	}
	if (rc != SQLITE_DONE)
		return fail(db, st, e);
	sqlite3_finalize(st);
	return 0;
}

static int load_metrics(sqlite3 *db, const struct hist_filter *f, struct hist_data *d,
			struct err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT id, bench, name, label, unit, direction, position FROM metrics"
			       " WHERE (?1 IS NULL OR bench = ?1) AND (?2 IS NULL OR name = ?2) ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(db, NULL, e);
	sqlite3_bind_text(st, 1, f->bench, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, f->metric, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		d->metrics = grow(d->metrics, d->n_metrics, sizeof(*d->metrics));
		d->metrics[d->n_metrics++] = (struct hmetric){
			sqlite3_column_int64(st, 0), dup_col(st, 1), dup_col(st, 2), dup_col(st, 3),
			dup_col(st, 4), dup_col(st, 5), sqlite3_column_int(st, 6) };
	}
	if (rc != SQLITE_DONE)
		return fail(db, st, e);
	sqlite3_finalize(st);
	return 0;
}

/* One run's summary of one metric and swept value, before grouping. */
struct cell {
	size_t run, metric;
	const char *param;
	long long config;
	struct run_point pt;
	double m2;
};

struct cells {
	struct cell *c;
	size_t n;
};

/* Welford's update: one pass, no cancellation at large means. */
static void cell_add(struct cell *c, double v)
{
	double delta = v - c->pt.mean;

	c->pt.n++;
	c->pt.mean += delta / (double)c->pt.n;
	c->m2 += delta * (v - c->pt.mean);
	c->pt.var = c->pt.n > 1 ? c->m2 / (double)(c->pt.n - 1) : 0;
}

static size_t metric_index(const struct hist_data *d, long long id)
{
	size_t lo = 0, hi = d->n_metrics;

	while (lo < hi) {	/* metrics are loaded in id order */
		size_t mid = (lo + hi) / 2;

		if (d->metrics[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->n_metrics && d->metrics[lo].id == id ? lo : (size_t)-1;
}

static int config_of(sqlite3_stmt *pts, long long run, const char *bench, const char *param,
		     long long *cfg)
{
	sqlite3_reset(pts);
	sqlite3_bind_int64(pts, 1, run);
	sqlite3_bind_text(pts, 2, bench, -1, SQLITE_STATIC);
	sqlite3_bind_text(pts, 3, param, -1, SQLITE_STATIC);
	if (sqlite3_step(pts) != SQLITE_ROW)
		return -1;
	*cfg = sqlite3_column_int64(pts, 0);
	return 0;
}

static int load_cells(sqlite3 *db, const struct hist_filter *f, struct hist_data *d,
		      const size_t *by_id, size_t max_id, struct cells *out, struct err *e)
{
	sqlite3_stmt *st, *pts;
	struct cell *cur = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT run_id, metric_id, param, value FROM samples WHERE metric_id IN"
			       " (SELECT id FROM metrics WHERE (?1 IS NULL OR bench = ?1) AND"
			       " (?2 IS NULL OR name = ?2))", -1, &st, NULL) != SQLITE_OK)
		return fail(db, NULL, e);
	if (sqlite3_prepare_v2(db, "SELECT config_id FROM points WHERE run_id = ? AND bench = ? AND param = ?",
			       -1, &pts, NULL) != SQLITE_OK)
		return fail(db, st, e);
	sqlite3_bind_text(st, 1, f->bench, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, f->metric, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long run_id = sqlite3_column_int64(st, 0);
		size_t m = metric_index(d, sqlite3_column_int64(st, 1));
		const char *param = (const char *)sqlite3_column_text(st, 2);

		if (run_id < 0 || (size_t)run_id > max_id || by_id[run_id] == (size_t)-1 || m == (size_t)-1)
			continue;
		if (!cur || cur->run != by_id[run_id] || cur->metric != m || strcmp(cur->param, param)) {
			out->c = grow(out->c, out->n, sizeof(*out->c));
			cur = &out->c[out->n++];
			*cur = (struct cell){ .run = by_id[run_id], .metric = m, .param = intern(d, param) };
			if (config_of(pts, run_id, d->metrics[m].bench, param, &cur->config))
				cur->config = -1;
		}
		cell_add(cur, sqlite3_column_double(st, 3));
	}
	sqlite3_finalize(pts);
	if (rc != SQLITE_DONE)
		return fail(db, st, e);
	sqlite3_finalize(st);
	return 0;
}

struct sort_ctx {
	const struct hist_data *d;
	int by_key;
};

static int cmp_cell(const void *pa, const void *pb, void *arg)
{
	const struct cell *a = pa, *b = pb;
	const struct sort_ctx *x = arg;
	const struct hrun *ra = &x->d->runs[a->run], *rb = &x->d->runs[b->run];
	int c;

	if (a->metric != b->metric)
		return a->metric < b->metric ? -1 : 1;
	if ((c = strcmp(a->param, b->param)) || (c = strcmp(ra->machine, rb->machine)))
		return c;
	if (a->config != b->config)
		return a->config < b->config ? -1 : 1;
	/* kernel_version and releases sort as versions: 6.1.10 after 6.1.9 */
	if (x->by_key && (c = strverscmp(ra->order, rb->order)))
		return c;
	if (ra->epoch != rb->epoch)
		return ra->epoch < rb->epoch ? -1 : 1;
	return strcmp(ra->name, rb->name);
}

static void note_split(struct hist_data *d, const struct hseries *prev, const struct hseries *s)
{
	const char *bench = s->metric->bench;

	for (size_t i = 0; i < d->n_splits; i++) {
		struct hsplit *sp = &d->splits[i];

		if (!strcmp(sp->bench, bench) && sp->param == s->param && !strcmp(sp->machine, s->machine)) {
			/* each further config of the same metric is a new one (sorted) */
			sp->n_configs += sp->metric == s->metric;
			return;
		}
	}
	d->splits = grow(d->splits, d->n_splits, sizeof(*d->splits));
	d->splits[d->n_splits++] = (struct hsplit){ s->metric, bench, s->param, s->machine,
						    { prev->config, s->config }, 2 };
}

static void group(struct hist_data *d, struct cells *cs)
{
	for (size_t i = 0; i < cs->n;) {
		size_t j = i;
		struct hseries *s;
		const struct cell *c = &cs->c[i];

		while (j < cs->n && cs->c[j].metric == c->metric && cs->c[j].param == c->param &&
		       !strcmp(d->runs[cs->c[j].run].machine, d->runs[c->run].machine) &&
		       cs->c[j].config == c->config)
			j++;
		d->series = grow(d->series, d->n_series, sizeof(*d->series));
		s = &d->series[d->n_series++];
		*s = (struct hseries){ &d->metrics[c->metric], c->param, d->runs[c->run].machine,
				       c->config, j - i, malloc((j - i) * sizeof(size_t)),
				       malloc((j - i) * sizeof(struct run_point)) };
		if (!s->run || !s->pt)
			abort();
		for (size_t k = i; k < j; k++) {
			s->run[k - i] = cs->c[k].run;
			s->pt[k - i] = cs->c[k].pt;
		}
		if (d->n_series > 1 && s[-1].metric == s->metric && s[-1].param == s->param &&
		    !strcmp(s[-1].machine, s->machine))
			note_split(d, &s[-1], s);
		i = j;
	}
}

int hist_load(sqlite3 *db, const struct hist_filter *f, struct hist_data *d,
	      struct err *e)
{
	struct cells cs = { 0 };
	size_t *by_id = NULL, max_id = 0, kept = 0;
	struct sort_ctx x = { d, f->order_by != NULL };
	int ret;

	*d = (struct hist_data){ 0 };
	/* one read transaction: every scan sees the same runs while ingests go on */
	ret = histdb_exec(db, "BEGIN", e);
	if (!ret)
		ret = load_runs(db, f, d, &by_id, &max_id, e);
	if (!ret)
		ret = load_metrics(db, f, d, e);
	if (!ret)
		ret = load_cells(db, f, d, by_id, max_id, &cs, e);
	sqlite3_exec(db, ret ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL);
	free(by_id);
	for (size_t i = 0; i < cs.n; i++)	/* --order-by: runs without the key cannot be placed */
		if (!f->order_by || d->runs[cs.c[i].run].order)
			cs.c[kept++] = cs.c[i];
	for (size_t i = 0; f->order_by && i < d->n_runs; i++)
		d->unordered += d->runs[i].order == NULL;
	cs.n = kept;
	if (!ret) {
		qsort_r(cs.c, cs.n, sizeof(*cs.c), cmp_cell, &x);
		group(d, &cs);
	}
	free(cs.c);
	return ret;
}

char *hist_config_text(sqlite3 *db, long long id)
{
	sqlite3_stmt *st;
	char *text = NULL;

	if (sqlite3_prepare_v2(db, "SELECT text FROM configs WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return strdup("");
	sqlite3_bind_int64(st, 1, id);
	text = strdup(sqlite3_step(st) == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : "");
	sqlite3_finalize(st);
	return text;
}

void hist_data_free(struct hist_data *d)
{
	for (size_t i = 0; i < d->n_runs; i++) {
		struct hrun *r = &d->runs[i];

		free(r->name), free(r->start), free(r->host), free(r->clock), free(r->kernel);
		free(r->image), free(r->configs), free(r->order), free(r->machine), free(r->command);
	}
	for (size_t i = 0; i < d->n_metrics; i++) {
		struct hmetric *m = &d->metrics[i];

		free(m->bench), free(m->name), free(m->label), free(m->unit), free(m->direction);
	}
	for (size_t i = 0; i < d->n_series; i++)
		free(d->series[i].run), free(d->series[i].pt);
	for (size_t i = 0; i < d->n_params; i++)
		free(d->params[i]);
	free(d->runs), free(d->metrics), free(d->series), free(d->splits), free(d->params);
	*d = (struct hist_data){ 0 };
}
