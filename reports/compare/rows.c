/* The rows of a bench's table (see rows.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "base/xalloc.h"

/*
 * Percentiles of fewer than 20 samples are the max under another name, and
 * only times are latency distributions; both must hold in every run.
 */
#define DIST_MIN_SAMPLES 20

static int is_time_unit(const char *u)
{
	return !strcmp(u, "s") || !strcmp(u, "ms") || !strcmp(u, "us") ||
	       !strcmp(u, "µs") || !strcmp(u, "ns");
}

static int is_distribution(const struct bench_cmp *b, size_t m)
{
	const struct bench_data *d = &b->data;

	if (!is_time_unit(d->metrics[m].unit))
		return 0;
	for (size_t p = 0; p < d->n_params; p++)
		for (size_t r = 0; r < d->n_runs; r++) {
			size_t n = report_cell(b, p, r, m)->s.n;

			if (n && n < DIST_MIN_SAMPLES)
				return 0;
		}
	return 1;
}

size_t metric_rows(const struct bench_cmp *b, size_t m, struct row **out)
{
	const struct bench_data *d = &b->data;
	enum stat_id last = is_distribution(b, m) ? ST_P99 : ST_COEFFVAR;
	size_t n = 0;

	*out = xcalloc(d->n_params * ST_COUNT, sizeof(**out));
	for (size_t p = 0; p < d->n_params; p++)
		for (enum stat_id s = ST_MIN; s <= last; s++)
			(*out)[n++] = (struct row){ m, p, s };
	return n;
}

void metric_scale(const struct bench_cmp *b, size_t m, struct scale *sc)
{
	double least = 0;

	for (size_t p = 0; p < b->data.n_params; p++)
		for (size_t r = 0; r < b->data.n_runs; r++) {
			const struct summary *s = &report_cell(b, p, r, m)->s;
			double mag = fabs(s->mean);

			if (s->n && mag > 0 && (least == 0 || mag < least))
				least = mag;
		}
	unit_scale(b->data.metrics[m].unit, least, sc);
}

void metric_label(const struct bench_cmp *b, size_t m, size_t p,
		  char *buf, size_t len)
{
	point_name(b->data.metrics[m].label, b->data.params[p], buf, len);
}

void metric_header(const struct bench_cmp *b, size_t m, char *buf, size_t len)
{
	const struct metric_def *md = &b->data.metrics[m];
	struct scale sc;

	metric_scale(b, m, &sc);
	snprintf(buf, len, "%s [%s]", md->label, *sc.unit ? sc.unit : md->unit);
}

int metric_constant(const struct bench_cmp *b, size_t m)
{
	for (size_t p = 0; p < b->data.n_params; p++)
		for (size_t r = 0; r < b->data.n_runs; r++) {
			const struct summary *s = &report_cell(b, p, r, m)->s;

			if (!s->n || s->min != s->max || s->min != report_cell(b, p, 0, m)->s.min)
				return 0;
		}
	return 1;
}

int mean_marked(const struct bench_cmp *b, size_t m, const struct cmp_cell *c)
{
	return c->test.outcome == TTEST_DIFFERENCE && b->data.metrics[m].better != BETTER_NONE;
}

static int any_difference(const struct bench_cmp *b, size_t m)
{
	for (size_t p = 0; p < b->data.n_params; p++)
		for (size_t r = 1; r < b->data.n_runs; r++)
			if (report_cell(b, p, r, m)->test.outcome == TTEST_DIFFERENCE)
				return 1;
	return 0;
}

static int is_shown(const struct report *rep, const struct bench_cmp *b, size_t m)
{
	return !*b->data.metrics[m].monitor || rep->opt.all_metrics || any_difference(b, m);
}

size_t shown_metrics(const struct report *rep, const struct bench_cmp *b,
		     size_t *order)
{
	size_t n = 0;

	for (int monitors = 0; monitors < 2; monitors++)
		for (size_t m = 0; m < b->data.n_metrics; m++)
			if (!*b->data.metrics[m].monitor == !monitors && is_shown(rep, b, m))
				order[n++] = m;
	return n;
}

size_t primary_metric(const struct bench_cmp *b)
{
	for (size_t m = 0; m < b->data.n_metrics; m++)
		if (!*b->data.metrics[m].monitor)
			return m;
	return 0;
}

/* Where b is in rep, for the changes' indices; n_benches when it is not. */
static size_t bench_index(const struct report *rep, const struct bench_cmp *b)
{
	for (size_t i = 0; i < rep->n_benches; i++)
		if (&rep->benches[i] == b)
			return i;
	return rep->n_benches;
}

int point_shown(const struct report *rep, const struct bench_cmp *b, size_t p)
{
	size_t i = bench_index(rep, b);

	if (rep->opt.all_metrics || b->data.n_params == 1 || i == rep->n_benches)
		return 1;
	for (size_t k = 0; k < rep->changes.n; k++) {
		const struct change *c = &rep->changes.c[k];

		if (c->bench == i && c->param == p && !c->under)
			return 1;
	}
	return 0;
}

size_t table_rows(const struct report *rep, const struct bench_cmp *b, size_t m, struct row **out)
{
	size_t n = metric_rows(b, m, out), kept = 0;

	for (size_t i = 0; i < n; i++)
		if (point_shown(rep, b, (*out)[i].param))
			(*out)[kept++] = (*out)[i];
	return kept;
}

size_t table_metrics(const struct report *rep, const struct bench_cmp *b,
		     size_t *order)
{
	size_t i = bench_index(rep, b), n = 0, all = shown_metrics(rep, b, order);

	if (rep->opt.all_metrics)
		return all;
	if (i == rep->n_benches || !bench_changed(rep, i))
		return 0;
	/* a monitor's counters that changed are in the summary's lines */
	for (size_t k = 0; k < all; k++)
		if (order[k] == primary_metric(b) ||
		    (!*b->data.metrics[order[k]].monitor && metric_changed(rep, i, order[k])))
			order[n++] = order[k];
	return n;
}

int hidden_metrics(const struct report *rep, const struct bench_cmp *b,
		   char *buf, size_t len)
{
	size_t o = 0, count;

	*buf = '\0';
	for (size_t m = 0; m < b->data.n_metrics; m++) {
		const char *mon = b->data.metrics[m].monitor;
		int first = 1;

		if (is_shown(rep, b, m))
			continue;
		/* count each monitor once, at its first hidden metric */
		for (size_t k = 0; k < m && first; k++)
			first = is_shown(rep, b, k) || strcmp(b->data.metrics[k].monitor, mon);
		if (!first)
			continue;
		count = 0;
		for (size_t k = m; k < b->data.n_metrics; k++)
			count += !is_shown(rep, b, k) && !strcmp(b->data.metrics[k].monitor, mon);
		if (o < len)
			o += snprintf(buf + o, len - o, "%s%zu %s metric%s", o ? ", " : "",
				      count, mon, count == 1 ? "" : "s");
	}
	return o > 0;
}

void row_cell(const struct bench_cmp *b, const struct row *rw, size_t r,
	      const struct scale *sc, struct row_cell *out)
{
	const struct cmp_cell *c = report_cell(b, rw->param, r, rw->metric);
	const struct cmp_cell *base = report_cell(b, rw->param, 0, rw->metric);

	*out = (struct row_cell){ 0 };
	if (c->s.n == 0)
		return;
	if (!stat_value(&c->s, rw->stat, &out->v)) {
		out->na = 1;
		return;
	}
	out->has_value = 1;
	/* cv is a percentage of its own and is not scaled */
	if (rw->stat != ST_COEFFVAR)
		out->v /= sc->div;
	out->has_pct = base->s.n && stat_pct(&base->s, &c->s, rw->stat,
					     b->data.metrics[rw->metric].better, &out->pct);
	out->marked = rw->stat == ST_MEAN && mean_marked(b, rw->metric, c);
}
