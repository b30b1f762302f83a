/*
 * history.sh changes --gate (histgate.h): a series fails when its newest
 * run lies in a level that a change point made worse by more than the gate.
 */
#include <stdio.h>

#include "histgate.h"

int hist_gate_fails(const struct hchange *c, const struct hist_output *o)
{
	return o->gated && c->last && c->regression && c->has_pct && -c->pct > o->gate_pct &&
	       (o->gate_all || c->s->metric->position == 0);
}

void hist_gate_lines(FILE *f, const struct hist_changes *c, const struct hist_output *o,
		     size_t *failed)
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
	if (!*failed)
		fprintf(f, "gate: pass (no newest level worse by more than %g%%)\n", o->gate_pct);
}
