/* The page's first screen: significant changes and gate verdicts (htmlsummary.h). */
#include <string.h>

#include "htmlsummary.h"
#include "markup.h"
#include "compare/changes.h"
#include "compare/rows.h"
#include "gate/gateline.h"

/* Counters listed by name in the summary; the rest are counted. */
#define COUNTERS_NAMED 8

static const struct gate_result *gate_of(const struct gate *g, size_t bi, size_t m,
					 size_t p, size_t r)
{
	for (size_t i = 0; g && i < g->n_res; i++) {
		const struct gate_result *gr = &g->res[i];

		if (gr->bench == bi && gr->metric == m && gr->param == p && gr->run == r)
			return gr;
	}
	return NULL;
}

/* <a href="#bench-metric">Label</a>: the metric's table further down. */
static void metric_link(FILE *f, const struct bench_cmp *b, size_t m, size_t p)
{
	char label[256];

	metric_label(b, m, p, label, sizeof(label));
	fputs("<a href=\"#", f);
	markup_str(f, b->data.name);
	fputc('-', f);
	markup_str(f, b->data.metrics[m].name);
	fputs("\">", f);
	markup_str(f, label);
	fputs("</a>", f);
}

/* Fieller's interval of the test, turned to positive = better. */
static void test_interval(FILE *f, const struct report *rep, const struct bench_cmp *b,
			  size_t m, const struct ttest *t)
{
	int flip = b->data.metrics[m].better == BETTER_LOWER;

	if (t->outcome == TTEST_NOT_DONE)
		fputs("<td class=\"num\">no test</td>", f);
	else if (t->exact)
		fputs("<td class=\"num\">exact</td>", f);
	else if (!t->change.bounded)
		fputs("<td class=\"num\">no percentage</td>", f);
	else
		fprintf(f, "<td class=\"num\">[%.2f%%, %.2f%%] at %.3g%%</td>",
			tidy2(flip ? -t->change.hi : t->change.lo),
			tidy2(flip ? -t->change.lo : t->change.hi), report_confidence(rep));
}

/* The gate's own interval: the one its verdict was read from. */
static void gate_interval(FILE *f, const struct gate_result *gr)
{
	if (gr->exact)
		fputs("<td class=\"num\">exact</td>", f);
	else if (!gr->has_pct)
		fputs("<td class=\"num\">no percentage</td>", f);
	else
		fprintf(f, "<td class=\"num\">[%.2f%%, %.2f%%] at %.3g%%%s</td>", tidy2(gr->lo), tidy2(gr->hi),
			gr->seq.max ? 100 * (1 - gr->seq.alpha) : gr->conf,
			gr->seq.max ? " repeated" : "");
}

static void verdict_cell(FILE *f, const struct gate_result *gr)
{
	const char *cls = gr->verdict == GATE_REGRESSION ? "worse" :
			  gr->verdict == GATE_INCONCLUSIVE ? "inconclusive" :
			  gr->improvement ? "better" : "";

	fprintf(f, "<td class=\"%s\"><a href=\"#gate\">%s%s</a></td>", cls,
		gate_verdict_name(gr->verdict), gr->improvement ? ", improvement" : "");
}

/* One row: a significant change of a mean, or a gated metric's verdict. */
static void change_row(FILE *f, const struct report *rep, size_t bi, size_t m, size_t p,
		       size_t r, const struct gate_result *gr)
{
	const struct bench_cmp *b = &rep->benches[bi];
	const struct cmp_cell *c = report_cell(b, p, r, m), *base = report_cell(b, p, 0, m);
	int marked = mean_marked(b, m, c), small = marked && !change_matters(rep, &c->test);
	double pct;
	int has = base->s.n && c->s.n &&
		  stat_pct(&base->s, &c->s, ST_MEAN, b->data.metrics[m].better, &pct);

	fputs("<tr><td>", f);
	metric_link(f, b, m, p);
	fputs("</td><td>", f);
	markup_str(f, rep->runs[r].name);
	if (has)
		fprintf(f, "</td><td class=\"num%s\">%.2f%%</td>",
			!marked || small ? "" : pct >= 0 ? " better" : " worse", tidy2(pct));
	else
		fputs("</td><td class=\"num\">-</td>", f);
	if (gr)
		gate_interval(f, gr);
	else
		test_interval(f, rep, b, m, &c->test);
	if (small)
		fprintf(f, "<td>significant, under %g%%</td>", rep->opt.threshold);
	else if (marked)
		fprintf(f, "<td class=\"%s\">%s *</td>", has && pct >= 0 ? "better" : "worse",
			has && pct >= 0 ? "better" : "worse");
	else
		fputs("<td>no difference proven</td>", f);
	if (gr)
		verdict_cell(f, gr);
	else
		fputs("<td></td>", f);
	fputs("</tr>\n", f);
}

/* Rows of bench bi's directed metrics that changed or were gated; their count. */
static size_t change_rows(FILE *f, const struct report *rep, size_t bi, const struct gate *g)
{
	const struct bench_cmp *b = &rep->benches[bi];
	size_t n = 0;

	for (size_t m = 0; m < b->data.n_metrics; m++)
		for (size_t p = 0; p < b->data.n_params; p++)
			for (size_t r = 1; r < rep->n_runs; r++) {
				const struct gate_result *gr = gate_of(g, bi, m, p, r);

				if (!gr && !mean_marked(b, m, report_cell(b, p, r, m)))
					continue;
				change_row(f, rep, bi, m, p, r, gr);
				n++;
			}
	return n;
}

/* A counter's significant change: neither better nor worse, so no row of its own. */
static int counter_changed(const struct bench_cmp *b, size_t m, size_t p, size_t r)
{
	return b->data.metrics[m].better == BETTER_NONE &&
	       report_cell(b, p, r, m)->test.outcome == TTEST_DIFFERENCE;
}

/* "Counts that changed: Pages (patch-b) +25.00%, ...", in one row; their count. */
static size_t counters_row(FILE *f, const struct report *rep, const struct bench_cmp *b)
{
	size_t n = 0;
	double pct;

	for (size_t m = 0; m < b->data.n_metrics; m++)
		for (size_t p = 0; p < b->data.n_params; p++)
			for (size_t r = 1; r < rep->n_runs; r++) {
				const struct cmp_cell *c = report_cell(b, p, r, m);

				if (!counter_changed(b, m, p, r) || n++ >= COUNTERS_NAMED)
					continue;
				fputs(n == 1 ? "<tr><td colspan=\"6\">counts that changed (plain change): " : ", ", f);
				metric_link(f, b, m, p);
				fputs(" (", f);
				markup_str(f, rep->runs[r].name);
				if (stat_pct(&report_cell(b, p, 0, m)->s, &c->s, ST_MEAN, BETTER_NONE, &pct))
					fprintf(f, ") %+.2f%%", tidy2(pct));
				else
					fputc(')', f);
			}
	if (n > COUNTERS_NAMED)
		fprintf(f, " and %zu more", n - COUNTERS_NAMED);
	if (n)
		fputs("</td></tr>\n", f);
	return n;
}

static void bench_head(FILE *f, const struct bench_cmp *b)
{
	fputs("<tr><th colspan=\"6\"><a href=\"#", f);
	markup_str(f, b->data.name);
	fputs("\">", f);
	markup_str(f, b->data.name);
	fputs("</a></th></tr>\n", f);
}

void html_gate_verdict(FILE *f, const struct gate *g)
{
	const char *cls = "gate-pass", *what = "pass";

	if (gate_regressed(g))
		cls = "gate-fail", what = "FAIL: a gated metric regressed";
	else if (gate_inconclusive(g))
		cls = "gate-inconclusive", what = "INCONCLUSIVE: more iterations are needed";
	fprintf(f, "Gate (%g%%): <span class=\"%s\">%s</span>", g->pct, cls, what);
}

void html_summary(FILE *f, const struct report *rep, const struct gate *gate)
{
	char line[4096];

	fputs("<section id=\"summary\">\n<h2>Result</h2>\n", f);
	if (gate) {
		fputs("<p class=\"headline\">", f);
		html_gate_verdict(f, gate);
		fputs("</p>\n", f);
	}
	fputs("<table class=\"summary\"><tr><th>metric</th><th>run</th>"
	      "<th>change of the mean (+ = better)</th><th>interval</th><th>significant</th>"
	      "<th>gate</th></tr>\n", f);
	for (size_t i = 0; i < rep->n_benches; i++) {
		const struct bench_cmp *b = &rep->benches[i];

		size_t rows;

		bench_head(f, b);
		rows = change_rows(f, rep, i, gate);
		rows += counters_row(f, rep, b);
		if (!rows)
			fprintf(f, "<tr><td colspan=\"6\">no significant change in %zu metric%s</td></tr>\n",
				b->data.n_metrics, b->data.n_metrics == 1 ? "" : "s");
	}
	fputs("</table>\n", f);
	/* the text summary's closing lines: what was too small to matter, what the runs could see */
	for (size_t r = 1; r < rep->n_runs; r++)
		if (under_line(rep, r, line, sizeof(line))) {
			fputs("<p class=\"sub\">", f);
			markup_str(f, line);
			fputs("</p>\n", f);
		}
	unchanged_line(rep, line, sizeof(line));
	fputs("<p class=\"sub\">", f);
	markup_str(f, line);
	fputs("</p>\n</section>\n", f);
}
