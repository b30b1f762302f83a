/* The gate's verdict lines (gateline.h). */
#include <stdio.h>
#include <string.h>

#include "gateline.h"
#include "rundir/kvfile.h"

const char *gate_verdict_name(enum gate_verdict v)
{
	return v == GATE_REGRESSION ? "REGRESSION" : v == GATE_PASS ? "pass" : "inconclusive";
}

const char *gate_policy_name(enum gate_policy p)
{
	return p == GATE_INCONCLUSIVE_PASS ? "pass" : p == GATE_INCONCLUSIVE_FAIL ? "fail" : "exit 3";
}

void gate_metric_name(const struct bench_cmp *b, size_t m, size_t p,
		      char *buf, size_t len)
{
	point_name(b->data.metrics[m].name, b->data.params[p], buf, len);
}

/* "mean -6.12%, 95% CI [-7.01%, -5.23%]" and its variants. */
static void interval_text(const struct gate_result *gr, double base_mean, char *buf, size_t len)
{
	if (gr->exact && gr->has_pct) {
		snprintf(buf, len, "mean %.2f%%, exact: constant samples under the icount clock", gr->pct);
		return;
	}
	if (!gr->has_pct) {
		if (base_mean == 0)
			snprintf(buf, len, "no percentage: the baseline mean is 0");
		else
			snprintf(buf, len, "no percentage: the baseline mean is not distinguishable from 0 at %.3g%%",
				 gr->conf);
		return;
	}
	/* a sequential look's interval is one of a family that covers with
	 * 1 - alpha at every look at once: that is its confidence */
	if (gr->seq.max)
		snprintf(buf, len, "mean %.2f%%, %.3g%% repeated CI [%.2f%%, %.2f%%] at look %zu of %zu",
			     gr->pct, 100 * (1 - gr->seq.alpha), gr->lo, gr->hi, gr->seq.look, gr->seq.max);
	else
		snprintf(buf, len, "mean %.2f%%, %.3g%% CI [%.2f%%, %.2f%%]",
			 gr->pct, gr->conf, gr->lo, gr->hi);
}

static void p_text(const struct ttest *t, char *buf, size_t len)
{
	if (t->exact)
		snprintf(buf, len, "p=%g", t->p);
	else if (t->p == 0)
		snprintf(buf, len, "p<1e-300");	/* below what a double holds */
	else
		snprintf(buf, len, "p=%.3g", t->p);
}

/*
 * The remedy, from where the user stands: more iterations of both runs.  A
 * fixed-size candidate takes --add like the baseline; a sequentially gated
 * one cannot (more looks would void its verdict, docs/gate.md), so a new
 * candidate is measured instead, sequentially again or at the size that
 * matches the estimate (its n plus the more).
 */
static void more_text(const struct report *rep, const struct gate_result *gr, size_t n,
		      char *buf, size_t len)
{
	const char *base = rep->runs[0].name, *cand = rep->runs[gr->run].name;

	*buf = '\0';
	if (gr->verdict != GATE_INCONCLUSIVE)
		return;
	if (gr->more > 0 && (kv_get(&rep->runs[0].meta, "vm") || kv_get(&rep->runs[gr->run].meta, "vm")))
		/* a --kernel run is not extended (run.sh --add refuses it): it boots again */
		snprintf(buf, len, "; about %ld more iteration%s of each run would likely decide: "
			 "run both again with -i %zu (runs under qemu are not extended with --add)",
			 gr->more, gr->more == 1 ? "" : "s", n + (size_t)gr->more);
	else if (gr->more > 0 && gr->seq.max > 0)
		snprintf(buf, len, "; about %ld more iteration%s of each run would likely decide: "
			 "run.sh --add %ld -n %s, then a new candidate, -i auto --baseline %s again or -i %zu "
			 "(%s was gated sequentially and cannot be extended)",
			 gr->more, gr->more == 1 ? "" : "s", gr->more, base, base, n + (size_t)gr->more, cand);
	else if (gr->more > 0)
		snprintf(buf, len, "; about %ld more iteration%s of each run would likely decide: "
			 "run.sh --add %ld -n %s and --add %ld -n %s",
			 gr->more, gr->more == 1 ? "" : "s", gr->more, base, gr->more, cand);
	else
		snprintf(buf, len, "; the mean sits at the gate: more iterations are unlikely to decide");
}

void gate_line(const struct report *rep, const struct gate_result *gr,
	       double gate_pct, char *buf, size_t len)
{
	const struct bench_cmp *b = &rep->benches[gr->bench];
	const struct ttest *t = &report_cell(b, gr->param, gr->run, gr->metric)->test;
	char name[256], interval[160], p[32], more[512];

	gate_metric_name(b, gr->metric, gr->param, name, sizeof(name));
	interval_text(gr, report_cell(b, gr->param, 0, gr->metric)->s.mean, interval, sizeof(interval));
	p_text(t, p, sizeof(p));
	more_text(rep, gr, report_cell(b, gr->param, gr->run, gr->metric)->s.n, more, sizeof(more));
	snprintf(buf, len, "%s %s %s: %s%s (%s, gate %g%%, %s%s)",
		 b->data.name, name, rep->runs[gr->run].name, gate_verdict_name(gr->verdict),
		 gr->improvement ? ", improvement" : "", interval, gate_pct, p, more);
}

void gate_text(const struct report *rep, const struct gate *g,
	       const struct gate_result *gr, char *buf, size_t len)
{
	char unlike[1024];
	size_t o;

	gate_line(rep, gr, g->pct, buf, len);
	difference_note(rep, gr->bench, gr->run, unlike, sizeof(unlike));
	o = strlen(buf);
	if (*unlike && o < len)
		snprintf(buf + o, len - o, "; differs from the baseline: %s", unlike);
}
