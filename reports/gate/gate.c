/* The CI gate's verdicts (see gate.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "base/xalloc.h"
#include "stats/seqbound.h"
#include "stats/statrows.h"

#define MORE_LIMIT 1000000L	/* beyond this many iterations: "never" */

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

/* The run's sequential design, if it has one, at its last look. */
static int design(const struct report *rep, const struct gate *g, const struct bench_cmp *b,
		  size_t r, size_t n, struct seq_design *d, struct err *e)
{
	if (g->seq.max)
		*d = g->seq;
	else if (seq_design_read(rep->runs[r].path, b->data.name, d, e))
		return -1;
	if (d->max && n > d->max)
		return err_set(e, "%s/%s: %zu samples, more than the sequential design's max=%zu",
			       rep->runs[r].path, b->data.name, n, d->max);
	/* a run stopped by MAX_TIME before its first look: that look's boundary, the widest */
	d->look = d->max ? (n < SEQ_FIRST_LOOK ? SEQ_FIRST_LOOK : n) : 0;
	return 0;
}

/* The interval of the change at one-sided tail `tail`, positive = better. */
static int better_interval(const struct summary *base, const struct summary *new,
			   enum ttest_kind kind, double tail, enum better better, double *lo, double *hi)
{
	struct two_means m;
	struct change_ci ci;

	ttest_means(base, new, kind, &m);
	change_interval(&m, tail, &ci);
	*lo = better == BETTER_HIGHER ? ci.lo : -ci.hi;
	*hi = better == BETTER_HIGHER ? ci.hi : -ci.lo;
	return ci.bounded;
}

static enum gate_verdict decide(int has, double lo, double hi, double pct)
{
	if (!has)
		return GATE_INCONCLUSIVE;
	return lo >= -pct ? GATE_PASS : hi < -pct ? GATE_REGRESSION : GATE_INCONCLUSIVE;
}

enum gate_verdict gate_decide(const struct summary *base, const struct summary *new,
			      enum ttest_kind kind, double tail, enum better better, double pct)
{
	double lo, hi;
	int has = better_interval(base, new, kind, tail, better, &lo, &hi);

	return decide(has, lo, hi, pct);
}

/*
 * Iterations to add to each run for an interval as wide per sample as the
 * one judged (a sequential run's: its last look's) to decide, were the
 * means and spreads to stay as they are: the interval narrows with every
 * sample, so the first k that decides is found by bisection.
 */
static long more_iterations(const struct report *rep, const struct summary *base,
			    const struct summary *new, double tail, enum better better, double pct)
{
	struct summary b = *base, n = *new;
	long lo = 0, hi = 1;
	double l, h;

	for (;; hi *= 2) {
		b.n = base->n + (size_t)hi;
		n.n = new->n + (size_t)hi;
		int has = better_interval(&b, &n, rep->opt.test, tail, better, &l, &h);

		if (decide(has, l, h, pct) != GATE_INCONCLUSIVE)
			break;
		if (hi >= MORE_LIMIT)
			return -1;
		lo = hi;
	}
	while (hi - lo > 1) {
		long mid = lo + (hi - lo) / 2;

		b.n = base->n + (size_t)mid;
		n.n = new->n + (size_t)mid;
		int has = better_interval(&b, &n, rep->opt.test, tail, better, &l, &h);

		if (decide(has, l, h, pct) != GATE_INCONCLUSIVE)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

static int judge_interval(const struct report *rep, const struct cmp_cell *base,
			  const struct cmp_cell *c, enum better better, struct gate_result *gr,
			  struct err *e)
{
	double tail = rep->opt.alpha / 2;

	gr->has_pct = pct_better(base->s.mean, c->s.mean, better, &gr->pct) && base->s.mean != 0;
	if (c->test.exact) {
		gr->exact = 1;
		gr->lo = gr->hi = gr->pct;
		gr->conf = 100;
		return 0;
	}
	if (gr->seq.max && seq_design_tail(&gr->seq, gr->seq.look, &tail, e))
		return -1;
	gr->conf = 100 * (1 - 2 * tail);
	gr->has_pct = better_interval(&base->s, &c->s, rep->opt.test, tail, better, &gr->lo, &gr->hi);
	return 0;
}

static void push(struct gate *g, const struct gate_result *gr)
{
	g->res = xreallocarray(g->res, g->n_res + 1, sizeof(*g->res));
	g->res[g->n_res++] = *gr;
}

int gate_judge(const struct report *rep, struct gate *g, size_t bi, size_t m,
	       size_t p, size_t r, struct err *e)
{
	const struct bench_cmp *b = &rep->benches[bi];
	const struct cmp_cell *c = report_cell(b, p, r, m), *base = report_cell(b, p, 0, m);
	enum better better = b->data.metrics[m].better;
	struct gate_result gr = { .bench = bi, .metric = m, .param = p, .run = r };

	if (c->test.outcome == TTEST_NOT_DONE)
		return err_set(e, "cannot gate %s %s in run '%s': %s (baseline %zu, run %zu)",
			       b->data.name, b->data.metrics[m].name, rep->runs[r].name,
			       c->test.why_not, base->s.n, c->s.n);
	if (design(rep, g, b, r, c->s.n, &gr.seq, e) ||
	    judge_interval(rep, base, c, better, &gr, e))
		return -1;
	gr.verdict = decide(gr.has_pct, gr.lo, gr.hi, g->pct);
	gr.improvement = gr.verdict == GATE_PASS && gr.lo > 0;
	if (gr.verdict == GATE_INCONCLUSIVE)
		gr.more = more_iterations(rep, &base->s, &c->s, (1 - gr.conf / 100) / 2, better, g->pct);
	push(g, &gr);
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
					if (gate_judge(rep, g, bi, m, p, r, e))
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

static int any(const struct gate *g, enum gate_verdict v)
{
	for (size_t i = 0; i < g->n_res; i++)
		if (g->res[i].verdict == v)
			return 1;
	return 0;
}

int gate_regressed(const struct gate *g)
{
	return any(g, GATE_REGRESSION);
}

int gate_inconclusive(const struct gate *g)
{
	return any(g, GATE_INCONCLUSIVE);
}

int gate_status(const struct gate *g)
{
	if (gate_regressed(g))
		return 1;
	if (!gate_inconclusive(g))
		return 0;
	return g->policy == GATE_INCONCLUSIVE_PASS ? 0 :
	       g->policy == GATE_INCONCLUSIVE_FAIL ? 1 : GATE_EXIT_INCONCLUSIVE;
}
