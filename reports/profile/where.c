/*
 * The baseline is run 0, as in every table.  A function absent from an
 * iteration did nothing there: 0, not a missing value.  Per page: the
 * bench's "pages" metric, or elapsed / ns_per_page; per operation:
 * ops_per_sec x elapsed (heaprelease's OPS x THREADS).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile/where.h"

static double mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

/* The mean of metric a (times b, or divided by it) in one run: NaN if absent. */
static double metric_mean(const struct bench_cmp *b, size_t run, const char *a, const char *c, int divide)
{
	int ia = bench_metric_index(&b->data, a), ic = c ? bench_metric_index(&b->data, c) : -1;
	const struct series *sa, *sc;
	double s = 0;

	if (ia < 0 || (c && ic < 0) || b->data.n_params != 1)
		return NAN;
	sa = bench_cell(&b->data, 0, run, (size_t)ia);
	sc = c ? bench_cell(&b->data, 0, run, (size_t)ic) : NULL;
	if (!sa->n || (sc && sc->n != sa->n))
		return NAN;
	for (size_t i = 0; i < sa->n; i++)
		s += !sc ? sa->v[i] : divide ? sa->v[i] / sc->v[i] : sa->v[i] * sc->v[i];
	return s / (double)sa->n;
}

static void units(const struct bench_cmp *b, struct where_block *w)
{
	static const struct { const char *a, *b; int divide; double scale; const char *per; } ways[] = {
		{ "pages", NULL, 0, 1, "page" },
		{ "elapsed", "ns_per_page", 1, 1e9, "page" },
		{ "ops_per_sec", "elapsed", 0, 1, "op" },
	};

	for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]); i++) {
		double base = metric_mean(b, 0, ways[i].a, ways[i].b, ways[i].divide) * ways[i].scale;
		double new = metric_mean(b, w->run, ways[i].a, ways[i].b, ways[i].divide) * ways[i].scale;

		if (isfinite(base) && isfinite(new) && base > 0 && new > 0) {
			w->per = ways[i].per;
			w->base_units = round(base);
			w->new_units = round(new);
			return;
		}
	}
}

static int by_change(const void *pa, const void *pb)
{
	const struct where_row *a = pa, *b = pb;
	double x = fabs(a->change), y = fabs(b->change);

	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Every function either run has, with its means. */
static struct where_row *rows_all(const struct iter_profiles *pb, const struct iter_profiles *pn, size_t *n)
{
	struct where_row *rows = xcalloc(pb->n + pn->n + 1, sizeof(*rows));
	size_t i = 0, j = 0;

	*n = 0;
	while (i < pb->n || j < pn->n) {
		int c = i == pb->n ? 1 : j == pn->n ? -1 : strcmp(pb->f[i].name, pn->f[j].name);
		struct where_row *r = &rows[(*n)++];

		r->name = xstrdup(c <= 0 ? pb->f[i].name : pn->f[j].name);
		r->base = c <= 0 ? mean(pb->f[i].v, pb->n_iter) : 0;
		r->new = c >= 0 ? mean(pn->f[j].v, pn->n_iter) : 0;
		r->change = r->new - r->base;
		i += c <= 0;
		j += c >= 0;
	}
	return rows;
}

static void rows_free(struct where_row *rows, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		free(rows[i].name);
}

/* insns: the top functions, then [rest] for the others. */
static void block_insns(struct where_block *w, struct where_row *rows, size_t n, size_t top)
{
	struct where_row rest = { .name = xstrdup("[rest]") };

	w->total.name = xstrdup("total");
	for (size_t i = 0; i < n; i++) {
		w->total.base += rows[i].base;
		w->total.new += rows[i].new;
	}
	w->total.change = w->total.new - w->total.base;
	qsort(rows, n, sizeof(*rows), by_change);
	for (size_t i = top < n ? top : n; i < n; i++) {
		rest.base += rows[i].base;
		rest.new += rows[i].new;
	}
	rows_free(rows, top < n ? top : n, n);
	w->n = top < n ? top : n;
	rest.change = rest.new - rest.base;
	rows[w->n++] = rest;
	w->total.share = w->total.change != 0 ? 1 : NAN;
	for (size_t i = 0; i < w->n; i++)
		rows[i].share = w->total.change != 0 ? rows[i].change / w->total.change : NAN;
	w->rows = rows;
}

static void series_summary(const struct func_series *f, size_t n, struct summary *s)
{
	double *v = xcalloc(n ? n : 1, sizeof(double));

	if (f)
		memcpy(v, f->v, n * sizeof(double));
	summarize(v, n, s);
	free(v);
}

/* samples: every function tested; the significant ones kept. */
static void block_samples(struct where_block *w, const struct report *rep, const struct iter_profiles *pb,
			  const struct iter_profiles *pn, struct where_row *rows, size_t n, size_t top)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct summary sb, sn;

		series_summary(profiles_find(pb, rows[i].name), pb->n_iter, &sb);
		series_summary(profiles_find(pn, rows[i].name), pn->n_iter, &sn);
		ttest_compare(&sb, &sn, TTEST_WELCH, rep->opt.alpha, 0, &rows[i].test);
		if (rows[i].test.outcome == TTEST_DIFFERENCE)
			rows[k++] = rows[i];
		else
			free(rows[i].name);
	}
	w->n_tested = n;
	w->n_significant = k;
	qsort(rows, k, sizeof(*rows), by_change);
	rows_free(rows, top < k ? top : k, k);
	w->n = top < k ? top : k;
	w->rows = rows;
}

static void block_build(struct where_block *w, const struct report *rep, const struct iter_profiles *pb,
			const struct iter_profiles *pn, size_t top)
{
	const char *hw = kv_get(&rep->runs[w->run].meta, "hw_counters");
	struct where_row *rows;
	size_t n;

	w->kind = pb->kind;
	w->n_base = pb->n_iter;
	w->n_new = pn->n_iter;
	rows = rows_all(pb, pn, &n);
	if (w->kind == PROFILE_INSNS) {
		units(&rep->benches[w->bench], w);
		block_insns(w, rows, n, top);
		return;
	}
	snprintf(w->event, sizeof(w->event), "%s", pn->event[0] ? pn->event : "cpu-clock");
	w->skid = !strcmp(w->event, "cpu-clock") || (hw && strcmp(hw, "available"));
	block_samples(w, rep, pb, pn, rows, n, top);
}

/* Why a pair has no block: NULL when it has one. */
static const char *no_block(const struct iter_profiles *pb, const struct iter_profiles *pn)
{
	if (pb->kind == PROFILE_NONE && pn->kind == PROFILE_NONE)
		return "no profile in these runs: add --monitors insns to a --kernel run (exact counts under "
		       "icount), or --monitors profile (perf's samples)";
	if (pb->kind == PROFILE_NONE || pn->kind == PROFILE_NONE)
		return "only one of the two runs has a profile: measure both with the same profiling monitor";
	if (pb->kind != pn->kind)
		return "one run has instruction counts (insns), the other perf's samples (profile): not comparable";
	if (pb->n_iter < 2 || pn->n_iter < 2)
		return pb->kind == PROFILE_SAMPLES ? "fewer than 2 profiled iterations in a run: nothing to test" : NULL;
	return NULL;
}

int where_build(const struct report *rep, size_t top, struct where *w, struct err *e)
{
	memset(w, 0, sizeof(*w));
	w->top = top;
	for (size_t b = 0; b < rep->n_benches; b++) {
		struct iter_profiles pb;

		if (profiles_read(rep->runs[0].path, rep->benches[b].data.name, &pb, e))
			return -1;
		for (size_t r = 1; r < rep->n_runs; r++) {
			struct iter_profiles pn;
			struct where_block *blk;

			if (profiles_read(rep->runs[r].path, rep->benches[b].data.name, &pn, e)) {
				profiles_free(&pb);
				return -1;
			}
			w->blocks = xreallocarray(w->blocks, w->n + 1, sizeof(*w->blocks));
			blk = memset(&w->blocks[w->n++], 0, sizeof(*blk));
			blk->bench = b;
			blk->run = r;
			blk->none = no_block(&pb, &pn);
			if (!blk->none)
				block_build(blk, rep, &pb, &pn, top);
			profiles_free(&pn);
		}
		profiles_free(&pb);
	}
	return 0;
}

void where_free(struct where *w)
{
	for (size_t i = 0; i < w->n; i++) {
		rows_free(w->blocks[i].rows, 0, w->blocks[i].n);
		free(w->blocks[i].rows);
		free(w->blocks[i].total.name);
	}
	free(w->blocks);
	memset(w, 0, sizeof(*w));
}
