/*
 * Markdown tables for pull requests and wikis: the text table's rows and
 * numbers, with bold instead of asterisks for significant means (an asterisk
 * is emphasis in markdown).
 */
#include <stdlib.h>

#include "render.h"
#include "where.h"
#include "base/xalloc.h"
#include "compare/difftext.h"
#include "compare/rows.h"

static void md_cell(FILE *f, const struct bench_cmp *b, const struct row *rw,
		    size_t r, const struct scale *sc)
{
	struct row_cell c;
	const char *bold;

	row_cell(b, rw, r, sc, &c);
	bold = c.marked ? "**" : "";
	if (!c.has_value)
		fputs(c.na ? " n/a |" : " - |", f);
	else if (!c.has_pct)
		fprintf(f, " %s%.2f (n/a)%s |", bold, tidy2(c.v), bold);
	else
		fprintf(f, " %s%.2f (%.2f%%)%s |", bold, tidy2(c.v), tidy2(c.pct), bold);
}

static void md_header(FILE *f, const struct report *rep, const char *header)
{
	fprintf(f, "| %s |", header);
	for (size_t r = 0; r < rep->n_runs; r++)
		fprintf(f, " %s%s |", rep->runs[r].name, rep->runs[r].partial ? " (partial)" : "");
	fputs("\n|---|", f);
	for (size_t r = 0; r < rep->n_runs; r++)
		fputs("---:|", f);
	fputc('\n', f);
}

static void md_metric(FILE *f, const struct report *rep,
		      const struct bench_cmp *b, size_t m)
{
	char label[256], sentence[512];
	struct row *rows;
	size_t n = table_rows(rep, b, m, &rows);
	struct scale sc;

	metric_scale(b, m, &sc);
	metric_header(b, m, label, sizeof(label));
	md_header(f, rep, label);
	for (size_t i = 0; i < n; i++) {
		metric_label(b, m, rows[i].param, label, sizeof(label));
		fprintf(f, "| %s %s |", label, stat_name(rows[i].stat));
		for (size_t r = 0; r < rep->n_runs; r++)
			md_cell(f, b, &rows[i], r, &sc);
		fputc('\n', f);
	}
	fputc('\n', f);
	for (size_t p = 0; p < b->data.n_params; p++)
		for (size_t r = 1; r < rep->n_runs && point_shown(rep, b, p); r++) {
			metric_label(b, m, p, label, sizeof(label));
			diff_sentence(rep, b, m, p, r, sentence, sizeof(sentence));
			fprintf(f, "- %s %s: %s\n", label, rep->runs[r].name, sentence);
		}
	fputc('\n', f);
	free(rows);
}

/* The k-th of n shown metrics: its table, or a list item when it is constant. */
static void md_shown(FILE *f, const struct report *rep, const struct bench_cmp *b,
		     const size_t *order, size_t n, size_t k)
{
	char line[1024];

	if (!metric_constant(b, order[k])) {
		md_metric(f, rep, b, order[k]);
		return;
	}
	constant_sentence(b, order[k], line, sizeof(line));
	fprintf(f, "- %s\n", line);
	/* a blank line ends the list */
	if (k + 1 == n || !metric_constant(b, order[k + 1]))
		fputc('\n', f);
}

/* What differs besides the code comes first: it may be the result. */
static void md_unlike(FILE *f, const struct report *rep)
{
	if (!rep->differences.n)
		return;
	fputs("**Not the same in every run:**\n\n", f);
	differences_print(f, rep, "- ");
	fputc('\n', f);
}

void render_markdown(FILE *f, const struct report *rep)
{
	char legend[1400];

	md_unlike(f, rep);
	changes_markdown(f, rep);
	percent_legend(rep, table_metrics, legend, sizeof(legend));
	fprintf(f, "%s Bold: the means differ significantly at %.1f%% confidence (%s t-test).\n\n",
		legend, report_confidence(rep), rep->opt.test == TTEST_STUDENT ? "Student's" : "Welch's");
	for (size_t i = 0; i < rep->n_benches; i++) {
		const struct bench_cmp *b = &rep->benches[i];
		size_t *order = xcalloc(b->data.n_metrics, sizeof(*order));
		size_t n = table_metrics(rep, b, order);

		if (n)
			fprintf(f, "### %s\n\n", b->data.name);
		for (size_t k = 0; k < n; k++)
			md_shown(f, rep, b, order, n, k);
		where_markdown(f, rep, i);
		free(order);
	}
	if (not_shown_line(rep, legend, sizeof(legend)))
		fprintf(f, "%s\n", legend);
}
