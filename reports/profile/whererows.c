/*
 * A function's count is a count, exact under any clock, so the insns rows
 * are tested with ttest.h's exact rule: a function whose count is the same
 * in every iteration of both runs changed for certain if the two counts
 * differ (p 0) and not at all if they are equal (p 1).  perf's shares are
 * estimates from samples; two constant sets of them give no test.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile/interleave.h"
#include "profile/whererows.h"
#include "stats/stats.h"

static void summary_of(const double *v, size_t n, struct summary *s)
{
	double *copy = xcalloc(n ? n : 1, sizeof(double));

	if (v)
		memcpy(copy, v, n * sizeof(double));
	summarize(copy, n, s);
	free(copy);
}

/* A row's means and test from its per-iteration values (NULL: 0 in every iteration). */
static void row_test(struct where_row *r, const double *vb, size_t nb, const double *vn, size_t nn, double alpha,
		     int exact)
{
	struct summary sb, sn;

	summary_of(vb, nb, &sb);
	summary_of(vn, nn, &sn);
	r->base = sb.mean;
	r->new = sn.mean;
	r->change = r->new - r->base;
	ttest_compare(&sb, &sn, TTEST_WELCH, alpha, exact, &r->test);
}

static const double *values(const struct iter_profiles *p, const char *name)
{
	const struct func_series *f = profiles_find(p, name);

	return f ? f->v : NULL;
}

/* Every function either run has, tested. */
static struct where_row *rows_all(const struct iter_profiles *pb, const struct iter_profiles *pn, double alpha,
				  int exact, size_t *n)
{
	struct where_row *rows = xcalloc(pb->n + pn->n + 1, sizeof(*rows));
	size_t i = 0, j = 0;

	*n = 0;
	while (i < pb->n || j < pn->n) {
		int c = i == pb->n ? 1 : j == pn->n ? -1 : strcmp(pb->f[i].name, pn->f[j].name);
		struct where_row *r = &rows[(*n)++];

		r->name = xstrdup(c <= 0 ? pb->f[i].name : pn->f[j].name);
		r->interleaving = profile_interleaving(r->name);
		row_test(r, values(pb, r->name), pb->n_iter, values(pn, r->name), pn->n_iter, alpha, exact);
		i += c <= 0;
		j += c >= 0;
	}
	return rows;
}

/* Significant first, then by |change|, then by name. */
static int by_change(const void *pa, const void *pb)
{
	const struct where_row *a = pa, *b = pb;
	double x = fabs(a->change), y = fabs(b->change);

	if (where_significant(a) != where_significant(b))
		return where_significant(a) ? -1 : 1;
	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(a->name, b->name);
}

void rows_free(struct where_row *rows, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		free(rows[i].name);
}

/* Per iteration: the total less the rows shown, so that [rest] is tested as a row. */
static double *rest_values(const struct iter_profiles *p, const struct where_row *shown, size_t n)
{
	double *v = xcalloc(p->n_iter ? p->n_iter : 1, sizeof(double));

	profiles_totals(p, v);
	for (size_t k = 0; k < n; k++) {
		const double *f = values(p, shown[k].name);

		for (size_t i = 0; f && i < p->n_iter; i++)
			v[i] -= f[i];
	}
	return v;
}

/* Per iteration: the sum over the functions that are interleaving (want 1) or work (want 0). */
static double *part_values(const struct iter_profiles *p, int want)
{
	double *v = xcalloc(p->n_iter ? p->n_iter : 1, sizeof(double));

	for (size_t f = 0; f < p->n; f++) {
		if (profile_interleaving(p->f[f].name) != want)
			continue;
		for (size_t i = 0; i < p->n_iter; i++)
			v[i] += p->f[f].v[i];
	}
	return v;
}

/* The total's work and interleaving, each tested as the total is. */
static void split_total(struct where_block *w, const struct iter_profiles *pb, const struct iter_profiles *pn,
			double alpha)
{
	struct where_row *part[2] = { &w->work, &w->interleaved };

	for (int k = 0; k < 2; k++) {
		double *vb = part_values(pb, k), *vn = part_values(pn, k);

		part[k]->name = xstrdup(k ? "interleaving" : "work");
		part[k]->interleaving = k;
		row_test(part[k], vb, pb->n_iter, vn, pn->n_iter, alpha, 1);
		part[k]->share = w->total.change == 0 ? NAN : part[k]->change / w->total.change;
		free(vb);
		free(vn);
	}
}

static void count_significant(struct where_block *w, const struct where_row *rows, size_t n)
{
	w->n_tested = n;
	w->n_significant = 0;
	for (size_t i = 0; i < n; i++)
		w->n_significant += where_significant(&rows[i]);
}

void rows_insns(struct where_block *w, const struct iter_profiles *pb, const struct iter_profiles *pn,
		double alpha, size_t top)
{
	size_t n, keep;
	struct where_row *rows = rows_all(pb, pn, alpha, 1, &n);
	double *rb = rest_values(pb, NULL, 0), *rn = rest_values(pn, NULL, 0);

	count_significant(w, rows, n);
	w->total.name = xstrdup("total");
	w->total.interleaving = -1;
	row_test(&w->total, rb, pb->n_iter, rn, pn->n_iter, alpha, 1);
	free(rb);
	free(rn);
	qsort(rows, n, sizeof(*rows), by_change);
	keep = top < n ? top : n;
	rows_free(rows, keep, n);
	rb = rest_values(pb, rows, keep);
	rn = rest_values(pn, rows, keep);
	rows[keep].name = xstrdup("[rest]");
	rows[keep].interleaving = -1;
	row_test(&rows[keep], rb, pb->n_iter, rn, pn->n_iter, alpha, 1);
	free(rb);
	free(rn);
	w->n = keep + 1;
	w->total.share = w->total.change != 0 ? 1 : NAN;
	for (size_t i = 0; i < w->n; i++)
		rows[i].share = w->total.change == 0 ? NAN : rows[i].change == 0 ? 0 : rows[i].change / w->total.change;
	w->rows = rows;
	split_total(w, pb, pn, alpha);
}

void rows_samples(struct where_block *w, const struct iter_profiles *pb, const struct iter_profiles *pn,
		  double alpha, size_t top)
{
	size_t n, k = 0;
	struct where_row *rows = rows_all(pb, pn, alpha, 0, &n);

	count_significant(w, rows, n);
	for (size_t i = 0; i < n; i++) {
		if (where_significant(&rows[i]))
			rows[k++] = rows[i];
		else
			free(rows[i].name);
	}
	qsort(rows, k, sizeof(*rows), by_change);
	rows_free(rows, top < k ? top : k, k);
	w->n = top < k ? top : k;
	for (size_t i = 0; i < w->n; i++)
		rows[i].share = NAN;
	w->rows = rows;
}
