/*
 * history.sh changes --gate (histgate.h): a series fails when its newest
 * run lies in a level that a change point made worse by more than the gate.
 */
#include <stdio.h>

#include "histgate.h"

static int gated(const struct hseries *s, const struct hist_output *o)
{
	return o->gate_all || s->metric->position == 0;
}

int hist_gate_fails(const struct hchange *c, const struct hist_output *o)
{
	return o->gated && c->last && c->regression && c->has_pct && -c->pct > o->gate_pct &&
	       gated(c->s, o);
}

/*
 * The gate cannot pass what it could not look at: a gated series shorter
 * than two levels of min_seg runs has no change point to find yet, and a
 * history without a gated series has nothing to judge.
 */
static size_t too_short(FILE *f, const struct hist_data *d, const struct hist_changes *c,
			const struct hist_output *o)
{
	char pbuf[256];
	size_t n = 0, any = 0;

	for (size_t i = 0; i < d->n_series; i++) {
		const struct hseries *s = &d->series[i];

		if (!gated(s, o))
			continue;
		size_t kept = c->kept_per_series[i];

		any++;
		if (kept >= 2 * o->min_seg)
			continue;
		n++;
		fprintf(f, "gate: %s %s%s on %s: inconclusive (%zu run%s%s, a change point needs %zu; %zu more)\n",
			s->metric->bench, s->metric->name, hist_param_suffix(s, pbuf, sizeof(pbuf)), s->machine,
			kept, kept == 1 ? "" : "s", kept < s->n ? " besides outliers" : "", 2 * o->min_seg,
			2 * o->min_seg - kept);
	}
	if (!any) {
		fprintf(f, "gate: inconclusive (no series in the history to judge; a change point needs %zu runs of a series)\n",
			2 * o->min_seg);
		n++;
	}
	return n;
}

void hist_gate_lines(FILE *f, const struct hist_data *d, const struct hist_changes *c,
		     const struct hist_output *o, size_t *failed, size_t *inconclusive)
{
	char pbuf[256];

	*failed = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct hchange *h = &c->c[i];

		if (!hist_gate_fails(h, o))
			continue;
		(*failed)++;
		fprintf(f, "gate: %s %s%s on %s: REGRESSION (%.2f%%, gate %g%%, p=%.3g)\n",
			h->s->metric->bench, h->s->metric->name, hist_param_suffix(h->s, pbuf, sizeof(pbuf)),
			h->s->machine, h->pct, o->gate_pct, h->t.p);
	}
	*inconclusive = too_short(f, d, c, o);
	if (!*failed && !*inconclusive)
		fprintf(f, "gate: pass (no newest level worse by more than %g%%)\n", o->gate_pct);
}
