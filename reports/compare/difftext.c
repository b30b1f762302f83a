/* ministat-style sentences for test results (see difftext.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "difftext.h"
#include "rows.h"
#include "base/xalloc.h"

int sig_decimals(double e)
{
	int d;

	if (!(e > 0) || !isfinite(e))
		return 2;
	d = 1 - (int)floor(log10(e));
	return d < 0 ? 0 : d > 9 ? 9 : d;
}

/*
 * "d ± e": e to two significant digits, d to the same decimal place.  Below
 * 1e-8 in exponent notation, where nine fixed decimals would print e as
 * 0.000000000.
 */
static int pair(char *buf, size_t len, double d, double e)
{
	double ref = e > 0 ? e : fabs(d);
	int dec;

	if (ref > 0 && ref < 1e-8) {
		dec = (d != 0 ? (int)floor(log10(fabs(d))) : 0) - (int)floor(log10(ref)) + 1;
		return snprintf(buf, len, "%.*e ± %.1e", dec < 1 ? 1 : dec, d, e);
	}
	dec = sig_decimals(ref);
	return snprintf(buf, len, "%.*f ± %.*f", dec, d, dec, e);
}

/*
 * The change in words: the percentage itself is unsigned, so that it
 * cannot be read against the tables' "positive is better" either way.
 */
static const char *direction(double diff, enum better better)
{
	if (diff == 0)
		return "";
	if (better == BETTER_NONE)
		return diff > 0 ? " more" : " less";
	return (diff < 0) == (better == BETTER_LOWER) ? " better" : " worse";
}

static void difference(const struct ttest *t, const struct scale *sc, enum better better,
		       double conf, char *buf, size_t len)
{
	double d = t->diff / sc->div, e = t->ci_half / sc->div;
	/* constant samples have no interval: show the difference itself */
	int pdec = sig_decimals(e > 0 ? t->ci_half_pct : fabs(t->diff_pct));
	int o;

	o = snprintf(buf, len, "Difference at %.1f%% confidence: ", conf);
	if (o >= 0 && (size_t)o < len)
		o += pair(buf + o, len - o, d, e);
	if (o >= 0 && (size_t)o < len)
		o += snprintf(buf + o, len - o, "%s%s", *sc->unit ? " " : "", sc->unit);
	if (t->has_pct && o >= 0 && (size_t)o < len)
		snprintf(buf + o, len - o, ", %.*f%% ± %.*f%%%s",
			 pdec, fabs(t->diff_pct), pdec, t->ci_half_pct, direction(t->diff, better));
}

/*
 * What "no difference proven" is worth: the change these samples find
 * with 80% power, in percent of the baseline mean, else in the unit.
 * Exact figures detect any change and get no clause.
 */
static void detectable(const struct ttest *t, const struct scale *sc, char *buf, size_t len)
{
	size_t o = strlen(buf);
	double v = t->has_pct ? t->mde_pct : t->mde / sc->div;

	if (t->exact || o >= len)
		return;
	snprintf(buf + o, len - o, "; detectable at %.0f%% power: %.*f%s%s", 100 * TTEST_POWER,
		 sig_decimals(v), v, t->has_pct ? "%" : *sc->unit ? " " : "",
		 t->has_pct ? "" : sc->unit);
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
		detectable(&c->test, &sc, buf, len);
		break;
	case TTEST_DIFFERENCE:
		difference(&c->test, &sc, b->data.metrics[m].better, conf, buf, len);
		detectable(&c->test, &sc, buf, len);
		break;
	}
}

void constant_sentence(const struct bench_cmp *b, size_t m, char *buf, size_t len)
{
	const struct metric_def *md = &b->data.metrics[m];
	const char *unit = strcmp(md->unit, "count") ? md->unit : "";
	char name[256];
	size_t o = 0;

	*buf = '\0';
	for (size_t p = 0; p < b->data.n_params && o < len; p++) {
		metric_label(b, m, p, name, sizeof(name));
		/* %.15g: the number as measured, not the table's two decimals */
		o += (size_t)snprintf(buf + o, len - o, "%s%s %.15g%s%s", p ? ", " : "", name,
				      report_cell(b, p, 0, m)->s.min, *unit ? " " : "", unit);
	}
	if (o < len)
		snprintf(buf + o, len - o, " in every run");
}

/* Each distinct label of the counters whose tables are shown, after "; for ". */
static size_t counter_labels(const struct report *rep,
			     size_t (*pick)(const struct report *, const struct bench_cmp *, size_t *),
			     char *buf, size_t len)
{
	size_t o = 0, count = 0;

	for (size_t i = 0; i < rep->n_benches && o < len; i++) {
		const struct bench_cmp *b = &rep->benches[i];
		size_t *order = xcalloc(b->data.n_metrics, sizeof(*order));
		size_t n = pick(rep, b, order);

		for (size_t k = 0; k < n && o < len; k++) {
			const struct metric_def *md = &b->data.metrics[order[k]];
			char item[300];

			snprintf(item, sizeof(item), " %s,", md->label);
			if (md->better != BETTER_NONE || metric_constant(b, order[k]) ||
			    (o && strstr(buf, item)))
				continue;
			o += (size_t)snprintf(buf + o, len - o, " %s,", md->label);
			count++;
		}
		free(order);
	}
	return count;
}

void percent_legend(const struct report *rep,
		    size_t (*pick)(const struct report *, const struct bench_cmp *, size_t *),
		    char *buf, size_t len)
{
	char counters[1024] = "";
	size_t n = counter_labels(rep, pick, counters, sizeof(counters)), o;

	o = (size_t)snprintf(buf, len, "Percentages: change against %s, positive = better",
			     rep->runs[0].name);
	if (n && o < len) {
		counters[strlen(counters) - 1] = '\0';	/* the last comma */
		o += (size_t)snprintf(buf + o, len - o, "; for the count%s%s (neither better nor worse): the plain change",
				      n == 1 ? "" : "s", counters);
	}
	if (o < len)
		snprintf(buf + o, len - o, ".");
}
