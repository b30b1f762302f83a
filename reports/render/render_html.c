/*
 * The HTML page of a comparison (compare.sh --html DIR): the result first
 * (htmlsummary.h), what differs between the runs, the gate's verdicts, the
 * systems, and per bench its config and per metric the table of the text
 * report (the same rows, median and percentiles included) with significant
 * means coloured, green better and red worse, beside its plots.  The CSS and a small script are inlined; the
 * plots are files in plots/, so the folder opens from disk and loads
 * nothing from the network.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "htmlpage.h"
#include "htmlsummary.h"
#include "markup.h"
#include "render.h"
#include "where.h"
#include "base/xalloc.h"
#include "compare/difftext.h"
#include "compare/rows.h"
#include "gate/gateline.h"

static const char *const kinds[] = { "box", "runseq", "delta", "sweep" };
static const char *const captions[] = {
	"Samples per run: box = quartiles, whiskers = min/max, bar = median, × = mean.",
	"Values in measurement order; hollow = warm-up (not counted).",
	"Change of the mean against the baseline with its confidence interval; filled = significant.",
	"Mean per swept value, error bars = ± one standard deviation.",
};

static void page_head(FILE *f, const struct report *rep, const char *css)
{
	char when[64], legend[1400];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>mmdelta: ", f);
	for (size_t r = 0; r < rep->n_runs; r++) {
		fputs(r ? " vs " : "", f);
		markup_str(f, rep->runs[r].name);
	}
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>mmdelta: ", css);
	for (size_t r = 0; r < rep->n_runs; r++) {
		fputs(r ? " vs " : "", f);
		markup_str(f, rep->runs[r].name);
	}
	fprintf(f, "</h1>\n<p class=\"sub\">Generated %s by mmdelta compare.sh from", when);
	for (size_t r = 0; r < rep->n_runs; r++) {
		fputc(' ', f);
		markup_str(f, rep->runs[r].path);
	}
	percent_legend(rep, shown_metrics, legend, sizeof(legend));
	fputs(".\nThe first run is the baseline. ", f);
	markup_str(f, legend);
	fputs("</p>\n", f);
}

/* A link list to every section: with four benches the page is long. */
static void contents(FILE *f, const struct report *rep, const struct gate *g)
{
	fputs("<p class=\"sub\">", f);
	if (g)
		fputs("<a href=\"#gate\">Gate</a> · ", f);
	if (rep->differences.n)
		fputs("<a href=\"#unlike\">Not the same</a> · ", f);
	fputs("<a href=\"#system\">Systems</a>", f);
	for (size_t i = 0; i < rep->n_benches; i++) {
		fputs(" · <a href=\"#", f);
		markup_str(f, rep->benches[i].data.name);
		fputs("\">", f);
		markup_str(f, rep->benches[i].data.name);
		fputs("</a>", f);
	}
	fputs("</p>\n", f);
}

static void unlike(FILE *f, const struct report *rep)
{
	char line[2048];

	if (!rep->differences.n)
		return;
	fputs("<h2 id=\"unlike\">Not the same in every run</h2>\n<ul class=\"unlike\">\n", f);
	for (size_t i = 0; i < rep->differences.n; i++) {
		difference_line(rep, &rep->differences.d[i], line, sizeof(line));
		fputs("<li>", f);
		markup_str(f, line);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

/* The gate's headline: what CI does with the worst verdict. */
static void gate_headline(FILE *f, const struct gate *g)
{
	fputs("<h2 id=\"gate\">", f);
	html_gate_verdict(f, g);
	fputs("</h2>\n", f);
}

/* "[-2.14%, -0.81%] at 95%", or a sequential run's repeated interval. */
static void gate_interval(FILE *f, const struct gate_result *gr)
{
	if (!gr->has_pct)
		fputs("<td class=\"num\">no percentage</td>", f);
	else if (gr->seq.max)
		fprintf(f, "<td class=\"num\">[%.2f%%, %.2f%%] repeated %.3g%%, look %zu of %zu</td>",
			gr->lo, gr->hi, 100 * (1 - gr->seq.alpha), gr->seq.look, gr->seq.max);
	else
		fprintf(f, "<td class=\"num\">[%.2f%%, %.2f%%] at %.3g%%</td>", gr->lo, gr->hi, gr->conf);
}

/* The gate's verdicts come first: they are why CI failed. */
static void gate_section(FILE *f, const struct report *rep, const struct gate *g)
{
	char name[256], note[1024], line[1024];

	gate_headline(f, g);
	fputs("<table class=\"gate\"><tr><th>bench</th><th>metric</th><th>run</th>"
	      "<th>change of the mean (+ = better)</th><th>interval</th><th>verdict</th><th>why</th>"
	      "<th>differs from the baseline</th></tr>\n", f);
	for (size_t i = 0; i < g->n_res; i++) {
		const struct gate_result *gr = &g->res[i];
		const struct bench_cmp *b = &rep->benches[gr->bench];

		gate_metric_name(b, gr->metric, gr->param, name, sizeof(name));
		difference_note(rep, gr->bench, gr->run, note, sizeof(note));
		gate_line(rep, gr, g->pct, line, sizeof(line));
		fputs("<tr><td>", f);
		markup_str(f, b->data.name);
		fputs("</td><td>", f);
		markup_str(f, name);
		fputs("</td><td>", f);
		markup_str(f, rep->runs[gr->run].name);
		if (gr->has_pct)
			fprintf(f, "</td><td class=\"num\">%.2f%%</td>", gr->pct);
		else
			fputs("</td><td class=\"num\">-</td>", f);
		gate_interval(f, gr);
		fprintf(f, "<td%s>%s%s</td><td class=\"long\">",
			gr->verdict == GATE_REGRESSION ? " class=\"worse\"" :
			gr->improvement ? " class=\"better\"" :
			gr->verdict == GATE_INCONCLUSIVE ? " class=\"inconclusive\"" : "",
			gate_verdict_name(gr->verdict), gr->improvement ? ", improvement" : "");
		markup_str(f, line);
		fputs("</td><td class=\"long\">", f);
		markup_str(f, note);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Two decimals as the text table, but never "0.00" for a small value. */
static void number(FILE *f, double v)
{
	fprintf(f, fabs(v) >= 1 || v == 0 ? "%.2f" : "%.3g", v);
}

/* A significant change under --threshold is starred, never coloured: it does not matter. */
static void cell(FILE *f, const struct report *rep, const struct bench_cmp *b, const struct row *rw,
		 size_t r, const struct scale *sc)
{
	const struct ttest *t = &report_cell(b, rw->param, r, rw->metric)->test;
	struct row_cell c;
	int coloured;

	row_cell(b, rw, r, sc, &c);
	if (!c.has_value) {
		fputs(c.na ? "<td class=\"num\">n/a (n/a)</td>" : "<td class=\"num\">-</td>", f);
		return;
	}
	coloured = c.marked && c.has_pct && change_matters(rep, t);
	fprintf(f, "<td class=\"num%s\">", !coloured ? "" : c.pct >= 0 ? " better" : " worse");
	number(f, c.v);
	if (c.has_pct)
		fprintf(f, " (%6.2f%%)", tidy2(c.pct));
	else
		fputs(" (n/a)", f);
	fprintf(f, "%s</td>", c.marked ? " *" : "");
}

/* The text table's rows (per swept value a block), then each run's test. */
static void metric_table(FILE *f, const struct report *rep, const struct bench_cmp *b, size_t m)
{
	struct row *rows;
	size_t n = metric_rows(b, m, &rows);
	char sentence[512];
	struct scale sc;

	metric_scale(b, m, &sc);
	fputs("<table class=\"stats\">", f);
	html_runs_header(f, rep);
	for (size_t i = 0; i < n; i++) {
		const char *param = b->data.params[rows[i].param];

		if (rows[i].stat == ST_MIN && strcmp(param, "-")) {
			fprintf(f, "<tr><th colspan=\"%zu\">", rep->n_runs + 1);
			markup_str(f, param);
			fputs("</th></tr>\n", f);
		}
		fprintf(f, "<tr><th>%s (", stat_name(rows[i].stat));
		markup_str(f, rows[i].stat == ST_COEFFVAR ? "%" : *sc.unit ? sc.unit : b->data.metrics[m].unit);
		fputs(")</th>", f);
		for (size_t r = 0; r < rep->n_runs; r++)
			cell(f, rep, b, &rows[i], r, &sc);
		fputs("</tr>\n", f);
		if (i + 1 < n && rows[i + 1].param == rows[i].param)
			continue;
		fputs("<tr><th>difference</th><td class=\"long\"></td>", f);
		for (size_t r = 1; r < rep->n_runs; r++) {
			diff_sentence(rep, b, m, rows[i].param, r, sentence, sizeof(sentence));
			fputs("<td class=\"long\">", f);
			markup_str(f, sentence);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	free(rows);
}

/* One figure per plot of the metric that was drawn: the SVG, the PNG a click away. */
static void figures(FILE *f, const struct bench_cmp *b, size_t m, const char *plots)
{
	const char *bench = b->data.name, *metric = b->data.metrics[m].name;
	char name[1024], path[4200];
	struct stat st;

	fputs("<div class=\"plots\">\n", f);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		snprintf(name, sizeof(name), "%s-%s-%s", bench, metric, kinds[k]);
		snprintf(path, sizeof(path), "%s/%s.svg", plots, name);
		if (stat(path, &st))
			continue;
		fputs("<figure><a href=\"plots/", f);
		markup_str(f, name);
		fputs(".png\"><img src=\"plots/", f);
		markup_str(f, name);
		fputs(".svg\" alt=\"", f);
		markup_str(f, name);
		fprintf(f, " plot\" loading=\"eager\"></a><figcaption>%s</figcaption></figure>\n", captions[k]);
	}
	fputs("</div>\n", f);
}

/* A constant metric (rows.h): one line, no table, nothing to plot. */
static void constant_line(FILE *f, const struct bench_cmp *b, size_t m)
{
	char line[1024];

	constant_sentence(b, m, line, sizeof(line));
	fputs("<p class=\"constant\" id=\"", f);
	markup_str(f, b->data.name);
	fputc('-', f);
	markup_str(f, b->data.metrics[m].name);
	fputs("\">", f);
	markup_str(f, line);
	fputs("</p>\n", f);
}

static void bench_section(FILE *f, const struct report *rep, const struct bench_cmp *b,
			  const char *plots)
{
	size_t *order = xcalloc(b->data.n_metrics, sizeof(*order));
	size_t n = shown_metrics(rep, b, order);
	char header[300], hidden[512];

	fputs("<h2 id=\"", f);
	markup_str(f, b->data.name);
	fputs("\">", f);
	markup_str(f, b->data.name);
	fputs("</h2>\n<h3>Config</h3>\n", f);
	html_config(f, rep, b);
	for (size_t k = 0; k < n; k++) {
		const struct metric_def *md = &b->data.metrics[order[k]];

		if (metric_constant(b, order[k])) {
			constant_line(f, b, order[k]);
			continue;
		}
		metric_header(b, order[k], header, sizeof(header));
		fputs("<h3 id=\"", f);
		markup_str(f, b->data.name);
		fputc('-', f);
		markup_str(f, md->name);
		fputs("\">", f);
		markup_str(f, header);
		fprintf(f, " <small>(%s)</small></h3>\n<div class=\"metric\"><div>\n",
			md->better == BETTER_NONE ? "a count: neither better nor worse" :
			md->better == BETTER_HIGHER ? "higher is better" : "lower is better");
		metric_table(f, rep, b, order[k]);
		fputs("</div>\n", f);
		if (plots)
			figures(f, b, order[k], plots);
		fputs("</div>\n", f);
	}
	if (hidden_metrics(rep, b, hidden, sizeof(hidden)))
		fprintf(f, "<p class=\"sub\">Not shown: %s without a significant difference (--all-metrics shows them).</p>\n",
			hidden);
	free(order);
}

int render_html(FILE *f, const struct report *rep, const struct gate *gate,
		const char *plots, struct err *e)
{
	char *css = html_asset("report.css", e), *js = css ? html_asset("report.js", e) : NULL;

	if (!js) {
		free(css);
		return -1;
	}
	/* the result first: a reader should not scroll past the systems to it */
	page_head(f, rep, css);
	html_summary(f, rep, gate);
	unlike(f, rep);
	contents(f, rep, gate);
	if (gate)
		gate_section(f, rep, gate);
	html_systems(f, rep);
	for (size_t i = 0; i < rep->n_benches; i++) {
		bench_section(f, rep, &rep->benches[i], plots);
		where_html(f, rep, i, plots);
	}
	fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", js);
	free(css);
	free(js);
	return 0;
}
