/* The CI gate's verdicts (see gate.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "statrows.h"
#include "xalloc.h"

const char *gate_verdict_name(enum gate_verdict v)
{
	return v == GATE_REGRESSION ? "REGRESSION" :
	       v == GATE_IMPROVEMENT ? "improvement" : "no significant change";
}

static int is_gated(const struct gate *g, const struct bench_cmp *b, size_t m)
{
	if (b->data.metrics[m].better == BETTER_NONE)
		return 0;	/* a counter is neither better nor worse */
	if (g->n_metrics == 0)
		return m == 0;
	for (size_t i = 0; i < g->n_metrics; i++)
		if (!strcmp(g->metrics[i], b->data.metrics[m].name))
			return 1;
	return 0;
}

/*
 * Signed "better" percentage of the means.  A zero baseline mean has no
 * ratio; a change from it is then as large as any gate.
 */
static double mean_pct(const struct cmp_cell *base, const struct cmp_cell *c,
		       enum better better, int *has)
{
	double pct;

	*has = pct_better(base->s.mean, c->s.mean, better, &pct);
	if (*has)
		return pct;
	return (c->s.mean > base->s.mean) == (better == BETTER_HIGHER) ? 1e300 : -1e300;
}

static int judge(const struct report *rep, struct gate *g, size_t bi, size_t m,
		 size_t p, size_t r, struct err *e)
{
	const struct bench_cmp *b = &rep->benches[bi];
	const struct cmp_cell *c = report_cell(b, p, r, m), *base = report_cell(b, p, 0, m);
	struct gate_result gr = { bi, m, p, r, GATE_NO_CHANGE, 0, 0 };
	int sig = c->test.outcome == TTEST_DIFFERENCE;

	if (c->test.outcome == TTEST_NOT_DONE)
		return err_set(e, "cannot gate %s %s in run '%s': fewer than 2 samples (baseline %zu, run %zu)",
			       b->data.name, b->data.metrics[m].name, rep->runs[r].name,
			       base->s.n, c->s.n);
	gr.pct = mean_pct(base, c, b->data.metrics[m].better, &gr.has_pct);
	if (sig && gr.pct < -g->pct)
		gr.verdict = GATE_REGRESSION;
	else if (sig && gr.pct > g->pct)
		gr.verdict = GATE_IMPROVEMENT;
	g->res = xreallocarray(g->res, g->n_res + 1, sizeof(*g->res));
	g->res[g->n_res++] = gr;
	return 0;
}

/* Every name given to --gate-metric must exist, or the gate checks nothing. */
static int check_names(const struct report *rep, const struct gate *g, struct err *e)
{
	for (size_t i = 0; i < g->n_metrics; i++) {
		int found = 0;

		for (size_t bi = 0; bi < rep->n_benches && !found; bi++) {
			const struct bench_data *d = &rep->benches[bi].data;
			int m = bench_metric_index(d, g->metrics[i]);

			if (m >= 0 && d->metrics[m].better == BETTER_NONE)
				return err_set(e, "--gate-metric %s: a counter (direction none in metrics.tsv) is neither better nor worse and is never gated",
					       g->metrics[i]);
			found = m >= 0;
		}
		if (!found)
			return err_set(e, "--gate-metric %s: no compared bench has this metric",
				       g->metrics[i]);
	}
	return 0;
}

int gate_evaluate(const struct report *rep, struct gate *g, struct err *e)
{
	if (check_names(rep, g, e))
		return -1;
	for (size_t bi = 0; bi < rep->n_benches; bi++) {
		const struct bench_data *d = &rep->benches[bi].data;

		for (size_t m = 0; m < d->n_metrics; m++) {
			if (!is_gated(g, &rep->benches[bi], m))
				continue;
			for (size_t p = 0; p < d->n_params; p++)
				for (size_t r = 1; r < rep->n_runs; r++)
					if (judge(rep, g, bi, m, p, r, e))
						return -1;
		}
	}
	return 0;
}

void gate_free(struct gate *g)
{
	free(g->res);
	g->res = NULL;
	g->n_res = 0;
}

int gate_regressed(const struct gate *g)
{
	for (size_t i = 0; i < g->n_res; i++)
		if (g->res[i].verdict == GATE_REGRESSION)
			return 1;
	return 0;
}

void gate_metric_name(const struct bench_cmp *b, size_t m, size_t p,
		      char *buf, size_t len)
{
	const char *param = b->data.params[p];

	if (strcmp(param, "-"))
		snprintf(buf, len, "%s-%s", b->data.metrics[m].name, param);
	else
		snprintf(buf, len, "%s", b->data.metrics[m].name);
}

void gate_line(const struct report *rep, const struct gate_result *gr,
	       double gate_pct, char *buf, size_t len)
{
	const struct bench_cmp *b = &rep->benches[gr->bench];
	const struct ttest *t = &report_cell(b, gr->param, gr->run, gr->metric)->test;
	char name[256], pct[32];

	gate_metric_name(b, gr->metric, gr->param, name, sizeof(name));
	if (gr->has_pct)
		snprintf(pct, sizeof(pct), "%.2f%%", gr->pct);
	else
		snprintf(pct, sizeof(pct), "from a zero baseline");
	snprintf(buf, len, "%s %s %s: %s (mean %s, gate %g%%, p=%.3g)",
		 b->data.name, name, rep->runs[gr->run].name,
		 gate_verdict_name(gr->verdict), pct, gate_pct, t->p);
}
