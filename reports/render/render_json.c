/*
 * JSON for dashboards and the HTML report: every summary statistic, every
 * test with its p-value, interval and verdict, and the gate.  The schema is
 * docs/compare-json.md; change both together and bump "schema".
 */
#include "json.h"
#include "render.h"
#include "where.h"
#include "compare/difftext.h"
#include "compare/rows.h"
#include "gate/gateline.h"

#define SCHEMA "mmdelta-compare/6"

static void j_run(FILE *f, const struct run_info *ri, int first)
{
	fputs(first ? "{" : ",{", f);
	json_key(f, "name", 1);
	json_str(f, ri->name);
	json_key(f, "path", 0);
	json_str(f, ri->path);
	json_key(f, "status", 0);
	json_str(f, ri->status);
	json_key(f, "partial", 0);
	fputs(ri->partial ? "true" : "false", f);
	fputc('}', f);
}

static void j_stats(FILE *f, const struct summary *s, const struct summary *base,
		    enum better better)
{
	double v = 0;
	int has;

	json_key(f, "n", 0);
	fprintf(f, "%zu", s->n);
	for (enum stat_id id = ST_MIN; id < ST_COUNT; id++) {
		json_key(f, stat_name(id), 0);
		/* `has` first: argument evaluation order would race it with v */
		has = s->n && stat_value(s, id, &v);
		json_num(f, has, v);
	}
	/* the box of the box plots */
	json_key(f, "q1", 0);
	json_num(f, s->n > 0, s->q1);
	json_key(f, "q3", 0);
	json_num(f, s->n > 0, s->q3);
	json_key(f, "pct", 0);
	for (enum stat_id id = ST_MIN; id < ST_COUNT; id++) {
		fputs(id == ST_MIN ? "{" : "", f);
		json_key(f, stat_name(id), id == ST_MIN);
		has = s->n && base->n && stat_pct(base, s, id, better, &v);
		json_num(f, has, v);
	}
	fputc('}', f);
}

static const char *outcome_name(enum ttest_outcome o)
{
	return o == TTEST_DIFFERENCE ? "difference" :
	       o == TTEST_NO_DIFFERENCE ? "no difference" : "no test";
}

static void j_test(FILE *f, const struct report *rep, const struct bench_cmp *b,
		   size_t m, size_t p, size_t r)
{
	const struct ttest *t = &report_cell(b, p, r, m)->test;
	int done = t->outcome != TTEST_NOT_DONE;
	char sentence[512];

	diff_sentence(rep, b, m, p, r, sentence, sizeof(sentence));
	json_key(f, "test", 0);
	fputc('{', f);
	json_key(f, "verdict", 1);
	json_str(f, outcome_name(t->outcome));
	json_key(f, "significant", 0);
	fputs(t->outcome == TTEST_DIFFERENCE ? "true" : "false", f);
	json_key(f, "reason", 0);
	json_str_or_null(f, done ? NULL : t->why_not);
	json_key(f, "diff", 0);
	json_num(f, done, t->diff);
	json_key(f, "ci_low", 0);
	json_num(f, done, t->diff - t->ci_half);
	json_key(f, "ci_high", 0);
	json_num(f, done, t->diff + t->ci_half);
	json_key(f, "ci_half", 0);
	json_num(f, done, t->ci_half);
	json_key(f, "diff_pct", 0);
	json_num(f, done && t->has_pct, t->diff_pct);
	json_key(f, "ci_half_pct", 0);
	json_num(f, done && t->has_pct, t->ci_half_pct);
	json_key(f, "change_pct_low", 0);
	json_num(f, done && t->change.bounded, t->change.lo);
	json_key(f, "change_pct_high", 0);
	json_num(f, done && t->change.bounded, t->change.hi);
	json_key(f, "mde", 0);
	json_num(f, done, t->mde);
	json_key(f, "mde_pct", 0);
	json_num(f, done && t->has_pct, t->mde_pct);
	json_key(f, "exact", 0);
	fputs(t->exact ? "true" : "false", f);
	json_key(f, "t", 0);
	json_num(f, done, t->t);
	json_key(f, "df", 0);
	json_num(f, done, t->df);
	json_key(f, "p_value", 0);
	json_num(f, done, t->p);
	json_key(f, "text", 0);
	json_str(f, sentence);
	fputc('}', f);
}

static void j_param(FILE *f, const struct report *rep, const struct bench_cmp *b,
		    size_t m, size_t p)
{
	enum better better = b->data.metrics[m].better;

	fputs(p ? ",{" : "{", f);
	json_key(f, "param", 1);
	json_str(f, b->data.params[p]);
	json_key(f, "runs", 0);
	for (size_t r = 0; r < rep->n_runs; r++) {
		const struct cmp_cell *c = report_cell(b, p, r, m);

		fputs(r ? ",{" : "[{", f);
		json_key(f, "run", 1);
		json_str(f, rep->runs[r].name);
		j_stats(f, &c->s, &report_cell(b, p, 0, m)->s, better);
		if (r == 0) {
			json_key(f, "test", 0);
			fputs("null", f);
		} else {
			j_test(f, rep, b, m, p, r);
		}
		fputc('}', f);
	}
	fputs("]}", f);
}

static void j_metric(FILE *f, const struct report *rep, const struct bench_cmp *b, size_t m)
{
	const struct metric_def *md = &b->data.metrics[m];
	struct scale sc;

	metric_scale(b, m, &sc);
	fputs(m ? ",{" : "{", f);
	json_key(f, "metric", 1);
	json_str(f, md->name);
	json_key(f, "label", 0);
	json_str(f, md->label);
	json_key(f, "unit", 0);
	json_str(f, md->unit);
	json_key(f, "monitor", 0);
	json_str(f, md->monitor);
	json_key(f, "better", 0);
	json_str(f, better_name(md->better));
	json_key(f, "primary", 0);
	fputs(m == 0 ? "true" : "false", f);
	json_key(f, "constant", 0);
	fputs(metric_constant(b, m) ? "true" : "false", f);
	json_key(f, "display_unit", 0);
	json_str(f, sc.unit);
	json_key(f, "display_divisor", 0);
	json_num(f, 1, sc.div);
	json_key(f, "params", 0);
	fputc('[', f);
	for (size_t p = 0; p < b->data.n_params; p++)
		j_param(f, rep, b, m, p);
	fputs("]}", f);
}

static void j_benches(FILE *f, const struct report *rep)
{
	json_key(f, "benches", 0);
	fputc('[', f);
	for (size_t i = 0; i < rep->n_benches; i++) {
		const struct bench_cmp *b = &rep->benches[i];

		fputs(i ? ",{" : "{", f);
		json_key(f, "name", 1);
		json_str(f, b->data.name);
		json_key(f, "metrics", 0);
		fputc('[', f);
		for (size_t m = 0; m < b->data.n_metrics; m++)
			j_metric(f, rep, b, m);
		fputs("]}", f);
	}
	fputc(']', f);
}

static void j_missing(FILE *f, const struct report *rep)
{
	char why[1024];

	json_key(f, "missing", 0);
	fputc('[', f);
	for (size_t i = 0; i < rep->missing.n; i++) {
		fputs(i ? ",{" : "{", f);
		json_key(f, "run", 1);
		json_str(f, rep->runs[rep->missing.notes[i].run].name);
		json_key(f, "bench", 0);
		json_str(f, rep->missing.notes[i].bench);
		json_key(f, "metric", 0);
		json_str_or_null(f, rep->missing.notes[i].metric);
		json_key(f, "why", 0);
		if (rep->missing.notes[i].monitor) {
			snprintf(why, sizeof(why), "monitor %s did not run there: %s",
				 rep->missing.notes[i].monitor, rep->missing.notes[i].why);
			json_str(f, why);
		} else {
			fputs("null", f);
		}
		fputc('}', f);
	}
	fputc(']', f);
}

static void j_differences(FILE *f, const struct report *rep)
{
	json_key(f, "differences", 0);
	fputc('[', f);
	for (size_t i = 0; i < rep->differences.n; i++) {
		const struct difference *d = &rep->differences.d[i];

		fputs(i ? ",{" : "{", f);
		json_key(f, "bench", 1);
		json_str_or_null(f, d->bench);
		json_key(f, "key", 0);
		json_str(f, d->key);
		json_key(f, "values", 0);
		for (size_t r = 0; r < rep->n_runs; r++) {
			fputs(r ? "," : "[", f);
			json_str_or_null(f, d->values[r]);
		}
		fputs("]}", f);
	}
	fputc(']', f);
}

/* The interval a verdict was read from, and what would decide it. */
static void j_gate_interval(FILE *f, const struct report *rep, const struct gate *g,
			    const struct gate_result *gr)
{
	char line[1024];

	json_key(f, "improvement", 0);
	fputs(gr->improvement ? "true" : "false", f);
	json_key(f, "pct_low", 0);
	json_num(f, gr->has_pct, gr->lo);
	json_key(f, "pct_high", 0);
	json_num(f, gr->has_pct, gr->hi);
	json_key(f, "confidence", 0);
	json_num(f, 1, gr->conf);
	json_key(f, "exact", 0);
	fputs(gr->exact ? "true" : "false", f);
	json_key(f, "more_iterations", 0);
	json_num(f, gr->verdict == GATE_INCONCLUSIVE && gr->more > 0, (double)gr->more);
	json_key(f, "sequential", 0);
	if (gr->seq.max)
		fprintf(f, "{\"look\":%zu,\"max\":%zu,\"alpha\":%.17g}", gr->seq.look,
			gr->seq.max, gr->seq.alpha);
	else
		fputs("null", f);
	gate_line(rep, gr, g->pct, line, sizeof(line));
	json_key(f, "line", 0);
	json_str(f, line);
}

/* The four keys that name one figure: bench, metric, sweep point, run (first in its object). */
static void j_figure(FILE *f, const struct report *rep, size_t bench, size_t metric, size_t param, size_t run)
{
	const struct bench_cmp *b = &rep->benches[bench];

	json_key(f, "bench", 1);
	json_str(f, b->data.name);
	json_key(f, "metric", 0);
	json_str(f, b->data.metrics[metric].name);
	json_key(f, "param", 0);
	json_str(f, b->data.params[param]);
	json_key(f, "run", 0);
	json_str(f, rep->runs[run].name);
}

static void j_gate(FILE *f, const struct report *rep, const struct gate *g)
{
	char name[256], unlike[1024];

	json_key(f, "gate", 0);
	if (!g) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	json_key(f, "pct", 1);
	json_num(f, 1, g->pct);
	json_key(f, "regression", 0);
	fputs(gate_regressed(g) ? "true" : "false", f);
	json_key(f, "inconclusive", 0);
	fputs(gate_inconclusive(g) ? "true" : "false", f);
	json_key(f, "inconclusive_policy", 0);
	json_str(f, gate_policy_name(g->policy));
	json_key(f, "exit_status", 0);
	fprintf(f, "%d", gate_status(g));
	json_key(f, "results", 0);
	for (size_t i = 0; i < g->n_res; i++) {
		const struct gate_result *gr = &g->res[i];
		const struct bench_cmp *b = &rep->benches[gr->bench];

		fputs(i ? ",{" : "[{", f);
		j_figure(f, rep, gr->bench, gr->metric, gr->param, gr->run);
		json_key(f, "verdict", 0);
		json_str(f, gate_verdict_name(gr->verdict));
		json_key(f, "mean_pct", 0);
		json_num(f, gr->has_pct, gr->pct);
		gate_metric_name(b, gr->metric, gr->param, name, sizeof(name));
		json_key(f, "name", 0);
		json_str(f, name);
		difference_note(rep, gr->bench, gr->run, unlike, sizeof(unlike));
		json_key(f, "differs", 0);
		json_str_or_null(f, *unlike ? unlike : NULL);
		j_gate_interval(f, rep, g, gr);
		fputc('}', f);
	}
	fputs(g->n_res ? "]}" : "[]}", f);
}

/* The summary's lines as data: what changed, what is under the threshold, what did not move. */
static void j_change(FILE *f, const struct report *rep, const struct change *c, int first)
{
	const struct bench_cmp *b = &rep->benches[c->bench];
	const struct cmp_cell *cell = report_cell(b, c->param, c->run, c->metric);
	char buf[512];

	fputs(first ? "{" : ",{", f);
	j_figure(f, rep, c->bench, c->metric, c->param, c->run);
	json_key(f, "baseline_mean", 0);
	json_num(f, 1, report_cell(b, c->param, 0, c->metric)->s.mean);
	json_key(f, "mean", 0);
	json_num(f, 1, cell->s.mean);
	json_key(f, "change_pct", 0);
	json_num(f, cell->test.has_pct, cell->test.diff_pct);
	json_key(f, "ci_half_pct", 0);
	json_num(f, cell->test.has_pct, cell->test.ci_half_pct);
	json_key(f, "significant", 0);
	fputs(c->significant ? "true" : "false", f);
	json_key(f, "resolution_pct", 0);
	json_num(f, c->has_resolution, c->range_pct);
	json_key(f, "beyond_resolution", 0);
	fputs(c->beyond ? "true" : "false", f);
	json_key(f, "under_threshold", 0);
	fputs(c->under ? "true" : "false", f);
	change_name(rep, c, buf, sizeof(buf));
	json_key(f, "name", 0);
	json_str(f, buf);
	change_words(rep, c, buf, sizeof(buf));
	json_key(f, "words", 0);
	json_str(f, buf);
	fputc('}', f);
}

static void j_summary(FILE *f, const struct report *rep)
{
	char line[4096];
	int first = 1;

	json_key(f, "summary", 0);
	fputc('{', f);
	json_key(f, "threshold_pct", 1);
	json_num(f, 1, rep->opt.threshold);
	json_key(f, "changes", 0);
	fputc('[', f);
	for (size_t i = 0; i < rep->changes.n; i++)
		j_change(f, rep, &rep->changes.c[i], i == 0);
	fputc(']', f);
	json_key(f, "unchanged", 0);
	fprintf(f, "%zu", rep->changes.unchanged);
	json_key(f, "untested", 0);
	fprintf(f, "%zu", rep->changes.untested);
	unchanged_line(rep, line, sizeof(line));
	json_key(f, "unchanged_line", 0);
	json_str(f, line);
	json_key(f, "shown_once", 0);
	fputc('{', f);
	for (size_t i = 0; i < rep->n_benches; i++) {
		if (!*rep->benches[i].aliases)
			continue;
		json_key(f, rep->benches[i].data.name, first);
		json_str(f, rep->benches[i].aliases);
		first = 0;
	}
	fputs("}}", f);
}

void render_json(FILE *f, const struct report *rep, const struct gate *gate)
{
	fputc('{', f);
	json_key(f, "schema", 1);
	json_str(f, SCHEMA);
	json_key(f, "test", 0);
	json_str(f, ttest_kind_name(rep->opt.test));
	json_key(f, "alpha", 0);
	json_num(f, 1, rep->opt.alpha);
	json_key(f, "confidence", 0);
	json_num(f, 1, report_confidence(rep));
	json_key(f, "runs", 0);
	fputc('[', f);
	for (size_t r = 0; r < rep->n_runs; r++)
		j_run(f, &rep->runs[r], r == 0);
	fputc(']', f);
	j_summary(f, rep);
	j_benches(f, rep);
	j_missing(f, rep);
	j_differences(f, rep);
	j_gate(f, rep, gate);
	where_json(f, rep);
	fputs("}\n", f);
}
