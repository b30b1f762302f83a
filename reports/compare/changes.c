/* What changed, for the comparison's first lines (see changes.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "changes.h"
#include "difftext.h"
#include "report.h"
#include "rows.h"
#include "base/xalloc.h"
#include "stats/resolution.h"

/* (max - min) / mean of one run's samples at a point, in percent; 0 without. */
static double own_range(const struct summary *s)
{
	return s->n > 1 && s->mean != 0 ? 100 * (s->max - s->min) / fabs(s->mean) : 0;
}

/*
 * An icount resolution exists only between two icount runs: the table's
 * spread of one kernel's iterations within a boot, or the spread these
 * runs' own iterations show, where it is wider (other sizes, another
 * kernel): a mean that moved by less moved by where iterations fell.
 */
static int resolution_of(const struct report *rep, const struct bench_cmp *b, size_t p,
			 size_t m, size_t r, struct change *c, struct err *e)
{
	struct resolution res;
	double own;
	int found;

	if (!rep->runs[0].exact_clock || !rep->runs[r].exact_clock || *b->data.metrics[m].monitor)
		return 0;
	found = resolution_find(NULL, b->data.name, b->data.metrics[m].name, b->data.params[p],
				b->config ? &b->config[0] : NULL, &res, e);
	if (found < 0)
		return -1;
	c->has_resolution = found;
	own = fmax(own_range(&report_cell(b, p, 0, m)->s), own_range(&report_cell(b, p, r, m)->s));
	c->range_pct = fmax(100 * res.range, own);
	return 0;
}

/* Percent of the baseline's mean the figure moved; HUGE_VAL from a mean of 0. */
static double moved_pct(const struct ttest *t)
{
	return t->has_pct ? fabs(t->diff_pct) : t->diff != 0 ? HUGE_VAL : 0;
}

int change_matters(const struct report *rep, const struct ttest *t)
{
	return moved_pct(t) >= rep->opt.threshold;
}

static int consider(const struct report *rep, size_t i, size_t p, size_t m, size_t r,
		    struct change_list *out, struct err *e)
{
	const struct bench_cmp *b = &rep->benches[i];
	const struct ttest *t = &report_cell(b, p, r, m)->test;
	struct change c = { .bench = i, .param = p, .metric = m, .run = r };

	if (resolution_of(rep, b, p, m, r, &c, e))
		return -1;
	c.significant = t->outcome == TTEST_DIFFERENCE;
	c.beyond = c.has_resolution && report_cell(b, p, r, m)->s.n && moved_pct(t) > c.range_pct;
	if (!c.significant && !c.beyond) {
		if (t->outcome == TTEST_NOT_DONE && !metric_constant(b, m))
			out->untested++;
		else
			out->unchanged++;
		return 0;
	}
	c.under = !change_matters(rep, t);
	out->c = xreallocarray(out->c, out->n + 1, sizeof(*out->c));
	out->c[out->n++] = c;
	return 0;
}

int changes_find(const struct report *rep, struct change_list *out, struct err *e)
{
	*out = (struct change_list){ 0 };
	for (size_t i = 0; i < rep->n_benches; i++) {
		const struct bench_cmp *b = &rep->benches[i];
		size_t *order = xcalloc(b->data.n_metrics, sizeof(*order));
		struct report all = *rep;
		size_t n;

		/* every metric, in the tables' order: the bench's own first */
		all.opt.all_metrics = 1;
		n = shown_metrics(&all, b, order);
		/* per sweep point, as the issue reads: heaprelease mprotect's metrics together */
		for (size_t p = 0; p < b->data.n_params; p++)
			for (size_t k = 0; k < n; k++)
				for (size_t r = 1; r < rep->n_runs; r++)
					if (consider(rep, i, p, order[k], r, out, e)) {
						free(order);
						return -1;
					}
		free(order);
	}
	return 0;
}

void changes_free(struct change_list *l)
{
	free(l->c);
	*l = (struct change_list){ 0 };
}

int metric_changed(const struct report *rep, size_t b, size_t m)
{
	for (size_t i = 0; i < rep->changes.n; i++) {
		const struct change *c = &rep->changes.c[i];

		if (c->bench == b && c->metric == m && !c->under)
			return 1;
	}
	return 0;
}

int bench_changed(const struct report *rep, size_t b)
{
	for (size_t m = 0; m < rep->benches[b].data.n_metrics; m++)
		if (metric_changed(rep, b, m))
			return 1;
	return 0;
}

/* The key run.sh swept ("PATTERN"): BENCH/config's "sweep:" line; NULL without. */
static const char *sweep_key(const struct bench_cmp *b)
{
	const char *k = b->config ? kv_get(&b->config[0], "sweep") : NULL;

	return k && *k && strcmp(k, "-") ? k : NULL;
}

void change_name(const struct report *rep, const struct change *c, char *buf, size_t len)
{
	const struct bench_cmp *b = &rep->benches[c->bench];
	const char *param = b->data.params[c->param], *key = sweep_key(b);

	if (!strcmp(param, "-"))
		snprintf(buf, len, "%s %s", b->data.name, b->data.metrics[c->metric].label);
	else
		snprintf(buf, len, "%s %s%s%s %s", b->data.name, key ? key : "", key ? "=" : "", param,
			 b->data.metrics[c->metric].label);
}

/* better or worse; more or less for a counter (difftext.c's words) */
static const char *direction(const struct bench_cmp *b, const struct change *c, double diff)
{
	enum better better = b->data.metrics[c->metric].better;

	if (diff == 0)
		return "the same";
	if (better == BETTER_NONE)
		return diff > 0 ? "more" : "less";
	return (diff < 0) == (better == BETTER_LOWER) ? "better" : "worse";
}

/* Why it is listed: the test, the resolution, or both, where they disagree. */
static void why(const struct ttest *t, const struct change *c, char *buf, size_t len)
{
	*buf = '\0';
	if (!c->has_resolution)
		return;
	if (c->significant && c->beyond)
		snprintf(buf, len, ", beyond resolution %.2g%%", c->range_pct);
	else if (c->significant)
		snprintf(buf, len, ", within resolution %.2g%%", c->range_pct);
	else
		snprintf(buf, len, ", beyond resolution %.2g%%, not significant (p %.2g)", c->range_pct, t->p);
}

void change_words(const struct report *rep, const struct change *c, char *buf, size_t len)
{
	const struct bench_cmp *b = &rep->benches[c->bench];
	const struct ttest *t = &report_cell(b, c->param, c->run, c->metric)->test;
	const char *word = direction(b, c, t->diff);
	char tags[128];
	struct scale sc;
	int dec;

	why(t, c, tags, sizeof(tags));
	if (!t->has_pct) {
		metric_scale(b, c->metric, &sc);
		snprintf(buf, len, "%+.2f%s%s from 0, %s%s", tidy2(t->diff / sc.div), *sc.unit ? " " : "",
			 sc.unit, word, tags);
	} else if (t->exact || !(t->ci_half_pct > 0)) {
		dec = sig_decimals(fabs(t->diff_pct));
		snprintf(buf, len, "%.*f%% %s, exact%s", dec, fabs(t->diff_pct), word, tags);
	} else {
		dec = sig_decimals(t->ci_half_pct);
		snprintf(buf, len, "%.*f%% ± %.*f%% %s%s", dec, fabs(t->diff_pct), dec, t->ci_half_pct,
			 word, tags);
	}
}

/* " 5.0% (mprotect), 0.050% (madvise)": what bench b's primary metric could detect. */
static size_t detectable(const struct report *rep, const struct bench_cmp *b, char *buf, size_t len)
{
	size_t o = 0;

	for (size_t p = 0; p < b->data.n_params && o < len; p++) {
		const struct ttest *worst = NULL;
		const char *param = b->data.params[p];

		/* the run that sees least speaks for all */
		for (size_t r = 1; r < rep->n_runs; r++) {
			const struct ttest *t = &report_cell(b, p, r, 0)->test;

			if (!worst || t->outcome == TTEST_NOT_DONE ||
			    (worst->outcome != TTEST_NOT_DONE && !t->exact &&
			     (worst->exact || t->mde_pct > worst->mde_pct)))
				worst = t;
		}
		o += (size_t)snprintf(buf + o, len - o, "%s ", p ? "," : "");
		if (o >= len)
			break;
		if (worst->outcome == TTEST_NOT_DONE)
			o += (size_t)snprintf(buf + o, len - o, "no test");
		else if (worst->exact)
			o += (size_t)snprintf(buf + o, len - o, "any (exact)");
		else if (worst->has_pct)
			o += (size_t)snprintf(buf + o, len - o, "%.*f%%", sig_decimals(worst->mde_pct), worst->mde_pct);
		else
			o += (size_t)snprintf(buf + o, len - o, "%.2g %s", worst->mde, b->data.metrics[0].unit);
		if (o < len && strcmp(param, "-"))
			o += (size_t)snprintf(buf + o, len - o, " (%s)", param);
	}
	return o;
}

void unchanged_line(const struct report *rep, char *buf, size_t len)
{
	const struct change_list *l = &rep->changes;
	size_t o;

	o = (size_t)snprintf(buf, len, "%zu figure%s: no difference proven", l->unchanged,
			     l->unchanged == 1 ? "" : "s");
	if (l->untested && o < len)
		o += (size_t)snprintf(buf + o, len - o, ", %zu not tested (fewer than 2 samples)", l->untested);
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o, "; the smallest change each bench could detect "
				      "(its primary metric, %.0f%% power):", 100 * TTEST_POWER);
	for (size_t i = 0; i < rep->n_benches && o < len; i++) {
		o += (size_t)snprintf(buf + o, len - o, "%s %s", i ? ";" : "", rep->benches[i].data.name);
		if (o < len)
			o += detectable(rep, &rep->benches[i], buf + o, len - o);
	}
	if (o < len)
		snprintf(buf + o, len - o, ".");
}

int under_line(const struct report *rep, size_t run, char *buf, size_t len)
{
	char name[300], words[300];
	size_t o = 0, k = 0;

	for (size_t i = 0; i < rep->changes.n && o < len; i++) {
		const struct change *c = &rep->changes.c[i];

		if (c->run != run || !c->under)
			continue;
		if (!o)
			o = (size_t)snprintf(buf, len, "Significant, under %g%%:", rep->opt.threshold);
		change_name(rep, c, name, sizeof(name));
		change_words(rep, c, words, sizeof(words));
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s %s %s", k++ ? "," : "", name, words);
	}
	if (o && o < len)
		snprintf(buf + o, len - o, ".");
	return o > 0;
}

/* "74.69 -> 74.96 ms": the means in the metric's display unit. */
static void means(const struct report *rep, const struct change *c, char *old, char *new, size_t len,
		  const char **unit)
{
	const struct bench_cmp *b = &rep->benches[c->bench];
	struct scale sc;

	metric_scale(b, c->metric, &sc);
	snprintf(old, len, "%.2f", tidy2(report_cell(b, c->param, 0, c->metric)->s.mean / sc.div));
	snprintf(new, len, "%.2f", tidy2(report_cell(b, c->param, c->run, c->metric)->s.mean / sc.div));
	*unit = *sc.unit ? sc.unit : strcmp(b->data.metrics[c->metric].unit, "count") ?
		b->data.metrics[c->metric].unit : "";
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* What a line of the summary prints of one change, in text and markdown alike. */
struct change_cells {
	char name[300], old[64], new[64], words[300];
	const char *unit;
};

static void change_cells(const struct report *rep, const struct change *c, struct change_cells *t)
{
	change_name(rep, c, t->name, sizeof(t->name));
	means(rep, c, t->old, t->new, sizeof(t->old), &t->unit);
	change_words(rep, c, t->words, sizeof(t->words));
}

/* Columns of run r's lines: name, old, new, unit, so that they align. */
static void widths(const struct report *rep, size_t r, int w[4])
{
	struct change_cells t;

	w[0] = w[1] = w[2] = w[3] = 0;
	for (size_t i = 0; i < rep->changes.n; i++) {
		const struct change *c = &rep->changes.c[i];

		if (c->run != r || c->under)
			continue;
		change_cells(rep, c, &t);
		w[0] = max_int(w[0], display_width(t.name));
		w[1] = max_int(w[1], (int)strlen(t.old));
		w[2] = max_int(w[2], (int)strlen(t.new));
		w[3] = max_int(w[3], display_width(t.unit));
	}
}

static void run_lines(FILE *f, const struct report *rep, size_t r)
{
	struct change_cells t;
	int w[4];

	widths(rep, r, w);
	for (size_t i = 0; i < rep->changes.n; i++) {
		const struct change *c = &rep->changes.c[i];

		if (c->run != r || c->under)
			continue;
		change_cells(rep, c, &t);
		/* pad by columns, not bytes: a label or unit may hold "µ" */
		fprintf(f, "  %s%*s  %*s -> %*s %s%*s  %s\n", t.name, w[0] - display_width(t.name), "",
			w[1], t.old, w[2], t.new, t.unit, w[3] - display_width(t.unit), "", t.words);
	}
}

/* Is any run of the comparison an icount run besides the baseline? */
static int any_icount(const struct report *rep)
{
	for (size_t r = 1; r < rep->n_runs; r++)
		if (rep->runs[0].exact_clock && rep->runs[r].exact_clock)
			return 1;
	return 0;
}

/* Did run r change anything by the threshold or more? */
static int run_changed(const struct report *rep, size_t r)
{
	for (size_t i = 0; i < rep->changes.n; i++)
		if (rep->changes.c[i].run == r && !rep->changes.c[i].under)
			return 1;
	return 0;
}

/*
 * "What changed by 0.1% or more, B against A (significant at 95% or beyond
 * icount resolution):", or "Nothing changed by ..." and a full stop.
 */
static void heading(const struct report *rep, size_t r, char *buf, size_t len)
{
	int any = run_changed(rep, r);

	snprintf(buf, len, "%s by %g%% or more, %s against %s (significant at %.0f%%%s)%s",
		 any ? "What changed" : "Nothing changed", rep->opt.threshold, rep->runs[r].name,
		 rep->runs[0].name, report_confidence(rep),
		 any_icount(rep) ? " or beyond icount resolution" : "", any ? ":" : ".");
}

void changes_text(FILE *f, const struct report *rep)
{
	char line[4096];

	for (size_t r = 1; r < rep->n_runs; r++) {
		heading(rep, r, line, sizeof(line));
		fprintf(f, "%s\n", line);
		run_lines(f, rep, r);
		if (under_line(rep, r, line, sizeof(line)))
			fprintf(f, "%s\n", line);
	}
	unchanged_line(rep, line, sizeof(line));
	fprintf(f, "%s\n", line);
}

int not_shown_line(const struct report *rep, char *buf, size_t len)
{
	size_t quiet = 0, metrics = 0, points = 0, o;

	*buf = '\0';
	if (rep->opt.all_metrics)
		return 0;
	for (size_t i = 0; i < rep->n_benches; i++) {
		const struct bench_cmp *b = &rep->benches[i];
		size_t *order = xcalloc(b->data.n_metrics, sizeof(*order));
		size_t n = table_metrics(rep, b, order);

		if (!n)
			quiet++;
		else
			metrics += b->data.n_metrics - n;
		for (size_t p = 0; n && p < b->data.n_params; p++)
			points += !point_shown(rep, b, p);
		free(order);
	}
	if (!quiet && !metrics && !points)
		return 0;
	o = (size_t)snprintf(buf, len, "Not shown:");
	if (quiet && o < len)
		o += (size_t)snprintf(buf + o, len - o, " the tables of %zu bench%s where nothing changed", quiet,
				      quiet == 1 ? "" : "es");
	if (metrics && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s the tables of %zu other metric%s", quiet ? ";" : "",
				      metrics, metrics == 1 ? "" : "s");
	if (points && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s the rows of %zu sweep point%s where nothing changed",
				      quiet || metrics ? ";" : "", points, points == 1 ? "" : "s");
	if (o < len)
		snprintf(buf + o, len - o, " (--all-metrics shows every table).");
	return 1;
}

void changes_markdown(FILE *f, const struct report *rep)
{
	struct change_cells t;
	char line[4096];

	for (size_t r = 1; r < rep->n_runs; r++) {
		heading(rep, r, line, sizeof(line));
		fprintf(f, "**%s**\n\n", line);
		for (size_t i = 0; i < rep->changes.n; i++) {
			const struct change *c = &rep->changes.c[i];

			if (c->run != r || c->under)
				continue;
			change_cells(rep, c, &t);
			fprintf(f, "- %s: %s -> %s%s%s, %s\n", t.name, t.old, t.new, *t.unit ? " " : "", t.unit, t.words);
		}
		if (under_line(rep, r, line, sizeof(line)))
			fprintf(f, "- %s\n", line);
	}
	unchanged_line(rep, line, sizeof(line));
	fprintf(f, "- %s\n\n", line);
}
