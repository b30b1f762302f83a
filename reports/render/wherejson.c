/*
 * JSON's "profile": the where blocks of compare.sh --profile, as
 * docs/compare-json.md lays them out.
 */
#include <math.h>

#include "render/json.h"
#include "render/wherejson.h"
#include "profile/where.h"

static const char *run_name(const struct report *rep, size_t r) { return rep->runs[r].name; }

static double per(double v, double units) { return units > 0 ? v / units : NAN; }

/* A row's test across iterations: significant, exact (the same count in every iteration of both runs). */
static void json_row_test(FILE *f, const struct ttest *t)
{
	int done = t->outcome != TTEST_NOT_DONE;

	json_key(f, "change_pct", 0);
	json_num(f, done && t->has_pct, t->diff_pct);
	json_key(f, "ci_half", 0);
	json_num(f, done, t->ci_half);
	json_key(f, "ci_half_pct", 0);
	json_num(f, done && t->has_pct, t->ci_half_pct);
	json_key(f, "p_value", 0);
	json_num(f, done, t->p);
	json_key(f, "significant", 0);
	fputs(t->outcome == TTEST_DIFFERENCE ? "true" : "false", f);
	json_key(f, "exact", 0);
	fputs(t->exact ? "true" : "false", f);
	json_key(f, "tested", 0);
	fputs(done ? "true" : "false", f);
}

static void json_row(FILE *f, const struct where_block *w, const struct where_row *r, int first)
{
	if (!first)
		fputc(',', f);
	fputc('{', f);
	json_key(f, "function", 1);
	json_str(f, r->name);
	json_key(f, "base", 0);
	json_num(f, 1, r->base);
	json_key(f, "new", 0);
	json_num(f, 1, r->new);
	json_key(f, "change", 0);
	json_num(f, 1, r->change);
	json_key(f, "interleaving", 0);
	fputs(r->interleaving < 0 ? "null" : r->interleaving ? "true" : "false", f);
	json_key(f, "share", 0);
	json_num(f, isfinite(r->share), r->share);
	json_key(f, "base_per_unit", 0);
	json_num(f, w->kind == PROFILE_INSNS && w->per, per(r->base, w->base_units));
	json_key(f, "new_per_unit", 0);
	json_num(f, w->kind == PROFILE_INSNS && w->per, per(r->new, w->new_units));
	json_row_test(f, &r->test);
	fputc('}', f);
}

static void json_resolution(FILE *f, const struct report *rep, const struct where_block *w)
{
	json_key(f, "resolution", 0);
	if (!w->has_resolution) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	json_key(f, "metric", 1);
	json_str(f, rep->benches[w->bench].data.metrics[0].name);
	json_key(f, "cv", 0);
	json_num(f, 1, w->resolution.cv);
	json_key(f, "range", 0);
	json_num(f, 1, w->resolution.range);
	json_key(f, "runs_range", 0);
	json_num(f, 1, w->runs_range);
	json_key(f, "kernel", 0);
	json_str(f, w->resolution.kernel);
	json_key(f, "beyond", 0);
	fputs(w->beyond_resolution ? "true" : "false", f);
	fputc('}', f);
}

/* The primary metric's verdict as its table gives it, which the block's first line says. */
static void json_primary(FILE *f, const struct where_block *w)
{
	json_key(f, "primary", 0);
	fputc('{', f);
	json_key(f, "metric", 1);
	json_str(f, w->primary);
	json_key(f, "significant", 0);
	fputs(w->primary_test.outcome == TTEST_DIFFERENCE ? "true" : "false", f);
	json_key(f, "beyond_resolution", 0);
	fputs(w->has_resolution ? (w->primary_beyond ? "true" : "false") : "null", f);
	json_key(f, "changed", 0);
	fputs(where_primary_changed(w) ? "true" : "false", f);
	fputc('}', f);
}

static void json_counts(FILE *f, const struct where_block *w)
{
	json_key(f, "iterations", 0);
	fprintf(f, "[%zu,%zu]", w->n_base, w->n_new);
	json_key(f, "regions", 0);
	if (w->kind == PROFILE_INSNS && w->regions[0] && w->regions[1])
		fprintf(f, "[%zu,%zu]", w->regions[0], w->regions[1]);
	else
		fputs("null", f);
	json_key(f, "event", 0);
	json_str_or_null(f, w->kind == PROFILE_SAMPLES ? w->event : NULL);
	json_key(f, "skid", 0);
	fputs(w->skid ? "true" : "false", f);
	json_key(f, "per", 0);
	json_str_or_null(f, w->per);
	json_key(f, "units", 0);
	if (w->per)
		fprintf(f, "[%.17g,%.17g]", w->base_units, w->new_units);
	else
		fputs("null", f);
	json_key(f, "tested", 0);
	fprintf(f, "%zu", w->n_tested);
	json_key(f, "significant", 0);
	fprintf(f, "%zu", w->n_significant);
}

static void json_block(FILE *f, const struct report *rep, const struct where_block *w);

/* insns: the total's work and interleaving, and the point's task regions' block. */
static void json_split(FILE *f, const struct report *rep, const struct where_block *w)
{
	int insns = w->kind == PROFILE_INSNS;

	json_key(f, "work", 0);
	if (insns)
		json_row(f, w, &w->work, 1);
	else
		fputs("null", f);
	json_key(f, "interleaving", 0);
	if (insns)
		json_row(f, w, &w->interleaved, 1);
	else
		fputs("null", f);
	json_key(f, "only_interleaving", 0);
	fputs(where_only_interleaving(w) ? "true" : "false", f);
	if (w->of_tasks) {
		json_key(f, "task_regions", 0);
		if (w->task_regions[1])
			fprintf(f, "[%zu,%zu]", w->task_regions[0], w->task_regions[1]);
		else
			fputs("null", f);
		return;
	}
	json_key(f, "tasks", 0);
	if (!w->tasks) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	json_block(f, rep, w->tasks);
	fputc('}', f);
}

static void json_block(FILE *f, const struct report *rep, const struct where_block *w)
{
	const char *param = rep->benches[w->bench].data.params[w->param];

	json_key(f, "bench", 1);
	json_str(f, rep->benches[w->bench].data.name);
	json_key(f, "param", 0);
	json_str(f, param);
	json_key(f, "point", 0);
	json_str_or_null(f, *w->point ? w->point : NULL);
	json_key(f, "base", 0);
	json_str(f, run_name(rep, 0));
	json_key(f, "new", 0);
	json_str(f, run_name(rep, w->run));
	json_key(f, "kind", 0);
	json_str_or_null(f, w->none ? NULL : w->kind == PROFILE_INSNS ? "insns" : "samples");
	json_key(f, "none", 0);
	json_str_or_null(f, w->none);
	if (w->none)
		return;
	json_counts(f, w);
	json_primary(f, w);
	json_key(f, "total_changed", 0);
	fputs(where_significant(&w->total) || w->beyond_resolution ? "true" : "false", f);
	json_resolution(f, rep, w);
	json_key(f, "rows", 0);
	fputc('[', f);
	for (size_t k = 0; k < w->n; k++)
		json_row(f, w, &w->rows[k], k == 0);
	fputc(']', f);
	json_key(f, "total", 0);
	json_row(f, w, &w->total, 1);
	json_split(f, rep, w);
}

void where_json(FILE *f, const struct report *rep)
{
	json_key(f, "profile", 0);
	if (!rep->where) {
		fputs("null", f);
		return;
	}
	fputc('[', f);
	for (size_t i = 0; i < rep->where->n; i++) {
		fputs(i ? ",{" : "{", f);
		json_block(f, rep, &rep->where->blocks[i]);
		fputc('}', f);
	}
	fputc(']', f);
}
