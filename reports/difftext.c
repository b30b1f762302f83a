/* ministat-style sentences for test results (see difftext.h). */
#include <math.h>
#include <stdio.h>

#include "difftext.h"
#include "rows.h"

int sig_decimals(double e)
{
	int d;

	if (!(e > 0) || !isfinite(e))
		return 2;
	d = 1 - (int)floor(log10(e));
	return d < 0 ? 0 : d > 9 ? 9 : d;
}

static void difference(const struct ttest *t, const struct scale *sc,
		       double conf, char *buf, size_t len)
{
	double d = t->diff / sc->div, e = t->ci_half / sc->div;
	/* constant samples have no interval: show the difference itself */
	int dec = sig_decimals(e > 0 ? e : fabs(d));
	int pdec = sig_decimals(e > 0 ? t->ci_half_pct : fabs(t->diff_pct));
	int o;

	o = snprintf(buf, len, "Difference at %.1f%% confidence: %.*f ± %.*f%s%s",
		     conf, dec, d, dec, e, *sc->unit ? " " : "", sc->unit);
	if (t->has_pct && o >= 0 && (size_t)o < len)
		snprintf(buf + o, len - o, ", %.*f%% ± %.*f%%",
			 pdec, t->diff_pct, pdec, t->ci_half_pct);
}

void diff_sentence(const struct report *rep, const struct bench_cmp *b,
		   size_t m, size_t p, size_t r, char *buf, size_t len)
{
	const struct cmp_cell *c = report_cell(b, p, r, m);
	const struct cmp_cell *base = report_cell(b, p, 0, m);
	double conf = report_confidence(rep);
	struct scale sc;

	metric_scale(b, m, &sc);
	switch (c->test.outcome) {
	case TTEST_NOT_DONE:
		snprintf(buf, len, "No test: %s (baseline %zu, this run %zu)",
			 c->test.why_not, base->s.n, c->s.n);
		break;
	case TTEST_NO_DIFFERENCE:
		snprintf(buf, len, "No difference proven at %.1f%% confidence", conf);
		break;
	case TTEST_DIFFERENCE:
		difference(&c->test, &sc, conf, buf, len);
		break;
	}
}
