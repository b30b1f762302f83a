/*
 * The baseline is run 0, as in every table.  A function absent from an
 * iteration did nothing there: 0, not a missing value.  Per page: the
 * bench's "pages" metric, or elapsed / ns_per_page; per operation:
 * ops_per_sec x elapsed (heaprelease's OPS x THREADS), or workload x
 * elapsed (willitscale's operations of all its tasks).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "compare/rows.h"
#include "profile/absence.h"
#include "profile/regions.h"
#include "profile/where.h"
#include "profile/whererows.h"

int where_significant(const struct where_row *r) { return r->test.outcome == TTEST_DIFFERENCE; }

int where_primary_changed(const struct where_block *w)
{
	return w->primary_test.outcome == TTEST_DIFFERENCE || w->primary_beyond;
}

/* The mean of metric a (times c, or divided by it) in one run at one point: NaN if absent. */
static double metric_mean(const struct bench_cmp *b, size_t p, size_t run, const char *a, const char *c, int divide)
{
	int ia = bench_metric_index(&b->data, a), ic = c ? bench_metric_index(&b->data, c) : -1;
	const struct series *sa, *sc;
	double s = 0;

	if (ia < 0 || (c && ic < 0))
		return NAN;
	sa = bench_cell(&b->data, p, run, (size_t)ia);
	sc = c ? bench_cell(&b->data, p, run, (size_t)ic) : NULL;
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
		{ "workload", "elapsed", 0, 1, "op" },	/* will-it-scale: every task's operations */
	};

	for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]); i++) {
		double base = metric_mean(b, w->param, 0, ways[i].a, ways[i].b, ways[i].divide) * ways[i].scale;
		double new = metric_mean(b, w->param, w->run, ways[i].a, ways[i].b, ways[i].divide) * ways[i].scale;

		if (isfinite(base) && isfinite(new) && base > 0 && new > 0) {
			w->per = ways[i].per;
			w->base_units = round(base);
			w->new_units = round(new);
			return;
		}
	}
}

/* samples: the bench's primary metric is the block's total, as its table tests it. */
static void total_primary(const struct report *rep, struct where_block *w)
{
	const struct bench_cmp *bc = &rep->benches[w->bench];
	const struct cmp_cell *cb = report_cell(bc, w->param, 0, 0), *cn = report_cell(bc, w->param, w->run, 0);

	w->total.name = xstrdup(bc->data.metrics[0].name);
	w->total.base = cb->s.mean;
	w->total.new = cn->s.mean;
	w->total.change = cn->s.mean - cb->s.mean;
	w->total.share = NAN;
	w->total.test = cn->test;
}

/* The primary metric's verdict at the block's point, as its table gives it. */
static void primary_verdict(const struct report *rep, struct where_block *w)
{
	const struct bench_cmp *bc = &rep->benches[w->bench];

	metric_label(bc, 0, w->param, w->primary, sizeof(w->primary));
	w->primary_test = report_cell(bc, w->param, w->run, 0)->test;
}

double where_range(const struct where_block *w) { return fmax(w->resolution.range, w->runs_range); }

/*
 * The spread the total's change must pass.  A total the same in every
 * iteration of both runs has no spread of its own in these runs, whatever
 * the primary metric's iterations did, so only the table's range applies.
 */
double where_total_range(const struct where_block *w)
{
	return w->total.test.exact ? w->resolution.range : where_range(w);
}

int where_part_changed(const struct where_block *w, const struct where_row *part)
{
	double range = part->test.exact ? w->resolution.range : where_range(w);

	return where_significant(part) ||
	       (w->has_resolution && w->total.base != 0 && fabs(part->change / w->total.base) > range);
}

/*
 * The work neither proven to change nor past the spread, while the total
 * or its interleaving did: what moved is where the vCPU ran what, not what
 * the syscalls did.
 */
int where_only_interleaving(const struct where_block *w)
{
	return w->kind == PROFILE_INSNS && w->work.test.outcome != TTEST_NOT_DONE && !where_part_changed(w, &w->work) &&
	       (where_part_changed(w, &w->total) || where_part_changed(w, &w->interleaved));
}

/* (max - min) / mean of one run's samples; 0 without two. */
static double own_range(const struct summary *s)
{
	return s->n > 1 && s->mean != 0 ? (s->max - s->min) / fabs(s->mean) : 0;
}

/*
 * Between two icount runs: the total and the primary metric against the
 * spread of one kernel's iterations within a boot, resolution.tsv's or,
 * where wider, the one these runs' own iterations show (another size, or
 * another kernel): a mean that moved by less moved by where the iterations
 * fell, which is what the table measures.
 */
static int total_resolution(const struct report *rep, struct where_block *w, struct err *e)
{
	const struct bench_cmp *bc = &rep->benches[w->bench];
	const struct summary *sb = &report_cell(bc, w->param, 0, 0)->s, *sn = &report_cell(bc, w->param, w->run, 0)->s;
	int found;

	if (!rep->runs[0].exact_clock || !rep->runs[w->run].exact_clock)
		return 0;
	found = resolution_find(NULL, bc->data.name, bc->data.metrics[0].name, bc->data.params[w->param],
				bc->config ? &bc->config[0] : NULL, &w->resolution, e);
	if (found <= 0)
		return found;
	w->has_resolution = 1;
	w->runs_range = fmax(own_range(sb), own_range(sn));
	w->beyond_resolution = w->total.base != 0 && fabs(w->total.change / w->total.base) > where_total_range(w);
	w->primary_beyond = sn->n && sb->mean != 0 && fabs((sn->mean - sb->mean) / sb->mean) > where_range(w);
	return 0;
}

/* Regions per iteration, when every iteration had the same number. */
static size_t same_regions(const struct point_regions *rg) { return rg->marked && rg->min == rg->max ? rg->min : 0; }

static int block_build(struct where_block *w, const struct report *rep, const struct iter_profiles *pb,
		       const struct iter_profiles *pn, const struct point_regions *rg, size_t top, struct err *e)
{
	const char *hw = kv_get(&rep->runs[w->run].meta, "hw_counters");

	w->kind = pb->kind;
	primary_verdict(rep, w);
	w->n_base = pb->n_iter;
	w->n_new = pn->n_iter;
	if (w->kind == PROFILE_INSNS) {
		w->regions[0] = same_regions(&rg[0]);
		w->regions[1] = same_regions(&rg[1]);
		units(&rep->benches[w->bench], w);
		rows_insns(w, pb, pn, rep->opt.alpha, top);
		return total_resolution(rep, w, e);
	}
	snprintf(w->event, sizeof(w->event), "%s", pn->event[0] ? pn->event : "cpu-clock");
	w->skid = !strcmp(w->event, "cpu-clock") || (hw && strcmp(hw, "available"));
	rows_samples(w, pb, pn, rep->opt.alpha, top);
	total_primary(rep, w);
	return 0;
}

/* Why a pair has no block, into w->none; nothing when it has one. */
static int no_block(struct where_block *w, const struct report *rep, const struct iter_profiles *p,
		    const struct point_regions *rg, struct err *e)
{
	char why[2][700], buf[1600];
	const char *base = rep->runs[0].name, *new = rep->runs[w->run].name;

	for (size_t i = 0; i < 2; i++)
		if (p[i].kind == PROFILE_NONE &&
		    profile_absence(rep, w->bench, w->param, i ? w->run : 0, &rg[i], why[i], sizeof(why[i]), e))
			return -1;
	if (p[0].kind == PROFILE_NONE && p[1].kind == PROFILE_NONE) {
		if (!strcmp(why[0], why[1]))
			snprintf(buf, sizeof(buf), "no profile in either run: %s", why[0]);
		else
			snprintf(buf, sizeof(buf), "no profile in %s: %s; nor in %s: %s", base, why[0], new, why[1]);
	} else if (p[0].kind == PROFILE_NONE || p[1].kind == PROFILE_NONE) {
		snprintf(buf, sizeof(buf), "no profile in %s: %s", p[0].kind ? new : base, why[p[0].kind ? 1 : 0]);
	} else if (p[0].kind != p[1].kind) {
		snprintf(buf, sizeof(buf),
			 "one run has instruction counts (insns), the other perf's samples (profile): not comparable");
	} else if (p[0].kind == PROFILE_SAMPLES && (p[0].n_iter < 2 || p[1].n_iter < 2)) {
		snprintf(buf, sizeof(buf), "fewer than 2 profiled iterations in a run: nothing to test");
	} else {
		return 0;
	}
	w->none = xstrdup(buf);
	return 0;
}

/* "PATTERN=mprotect" from the profiles' tags, else BENCH/config's sweep key. */
static void point_label(struct where_block *w, const struct report *rep, const struct iter_profiles *p)
{
	const struct bench_cmp *bc = &rep->benches[w->bench];
	const char *param = bc->data.params[w->param], *key = p[0].key[0] ? p[0].key : p[1].key;

	if (!strcmp(param, "-"))
		return;
	if (!*key)
		key = kv_get(&bc->config[0], "sweep");
	snprintf(w->point, sizeof(w->point), "%s=%s", key && strcmp(key, "-") ? key : "", param);
}

/*
 * The point's task regions, when both runs counted them: a block built as
 * the timed region's is, under the same first line.  The bench's icount
 * resolution is its timed region's spread, not its tasks', so the task
 * block's total is judged by its test alone.
 */
static int tasks_block(struct where_block *main, const struct report *rep, const struct point_regions *rg,
		       size_t top, struct err *e)
{
	const char *bench = rep->benches[main->bench].data.name, *param = rep->benches[main->bench].data.params[main->param];
	struct iter_profiles prof[2] = { 0 };
	struct where_block *t;
	int rc = -1;

	for (size_t i = 0; i < 2; i++)
		if (profiles_read_tasks(rep->runs[i ? main->run : 0].path, bench, param, &prof[i], e))
			goto out;
	rc = 0;
	if (prof[0].kind != PROFILE_INSNS || prof[1].kind != PROFILE_INSNS)
		goto out;
	t = main->tasks = xcalloc(1, sizeof(*t));
	t->bench = main->bench;
	t->param = main->param;
	t->run = main->run;
	memcpy(t->point, main->point, sizeof(t->point));
	t->of_tasks = 1;
	if (rg[0].tasks_max && rg[1].tasks_max) {
		t->task_regions[0] = rg[0].tasks_min < rg[1].tasks_min ? rg[0].tasks_min : rg[1].tasks_min;
		t->task_regions[1] = rg[0].tasks_max > rg[1].tasks_max ? rg[0].tasks_max : rg[1].tasks_max;
	}
	t->kind = PROFILE_INSNS;
	primary_verdict(rep, t);
	t->primary_beyond = main->primary_beyond;
	t->n_base = prof[0].n_iter;
	t->n_new = prof[1].n_iter;
	units(&rep->benches[t->bench], t);
	rows_insns(t, &prof[0], &prof[1], rep->opt.alpha, top);
out:
	profiles_free(&prof[0]);
	profiles_free(&prof[1]);
	return rc;
}

/* The block of run r against the baseline at point p of bench b. */
static int point_block(struct where *w, const struct report *rep, size_t b, size_t p, size_t r, size_t top,
		       struct err *e)
{
	const char *bench = rep->benches[b].data.name, *param = rep->benches[b].data.params[p];
	struct iter_profiles prof[2] = { 0 };
	struct point_regions rg[2];
	struct where_block *blk;
	int rc = -1;

	for (size_t i = 0; i < 2; i++) {
		const char *path = rep->runs[i ? r : 0].path;

		if (profiles_read(path, bench, param, &prof[i], e) || regions_read(path, bench, param, &rg[i], e))
			goto out;
	}
	w->blocks = xreallocarray(w->blocks, w->n + 1, sizeof(*w->blocks));
	blk = memset(&w->blocks[w->n++], 0, sizeof(*blk));
	blk->bench = b;
	blk->param = p;
	blk->run = r;
	point_label(blk, rep, prof);
	if (no_block(blk, rep, prof, rg, e))
		goto out;
	rc = blk->none ? 0 : block_build(blk, rep, &prof[0], &prof[1], rg, top, e);
	if (!rc && !blk->none && blk->kind == PROFILE_INSNS)
		rc = tasks_block(blk, rep, rg, top, e);
out:
	profiles_free(&prof[0]);
	profiles_free(&prof[1]);
	return rc;
}

int where_build(const struct report *rep, size_t top, struct where *w, struct err *e)
{
	memset(w, 0, sizeof(*w));
	w->top = top;
	for (size_t b = 0; b < rep->n_benches; b++)
		for (size_t p = 0; p < rep->benches[b].data.n_params; p++)
			for (size_t r = 1; r < rep->n_runs; r++)
				if (point_block(w, rep, b, p, r, top, e)) {
					where_free(w);
					return -1;
				}
	return 0;
}

static void block_free(struct where_block *b)
{
	rows_free(b->rows, 0, b->n);
	free(b->rows);
	free(b->total.name);
	free(b->work.name);
	free(b->interleaved.name);
	free(b->none);
	if (b->tasks)
		block_free(b->tasks);
	free(b->tasks);
}

void where_free(struct where *w)
{
	for (size_t i = 0; i < w->n; i++)
		block_free(&w->blocks[i]);
	free(w->blocks);
	memset(w, 0, sizeof(*w));
}
