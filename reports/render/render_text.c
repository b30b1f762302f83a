/*
 * The default text table: mmtests' layout from the munlock thread, so that
 * it pastes into a changelog unchanged (docs/compare.md).
 */
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "where.h"
#include "base/xalloc.h"
#include "compare/difftext.h"
#include "compare/rows.h"
#include "rundir/kvfile.h"

#define LABEL_MIN 14

void header_parts(const char *name, char *first, char *second, size_t len)
{
	const char *dash = strrchr(name, '-');

	if (!dash) {
		snprintf(first, len, "%s", name);
		snprintf(second, len, "%s", "");
		return;
	}
	snprintf(first, len, "%.*s", (int)(dash - name), name);
	snprintf(second, len, "%s", dash + 1);
}

static void row_label(const struct bench_cmp *b, const struct row *rw,
		      char *buf, size_t len)
{
	char label[256];

	metric_label(b, rw->metric, rw->param, label, sizeof(label));
	snprintf(buf, len, "%s %s", label, stat_name(rw->stat));
}

/* Widths of one block: its label column and the two numbers of a cell. */
struct widths {
	int label, value, pct;
};

static int width_of(double v)
{
	char buf[64];

	return snprintf(buf, sizeof(buf), "%.2f", tidy2(v));
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* " (partial)", or what the run's column_note says (series.sh: "no build"). */
static void partial_note(const struct run_info *ri, char *second, size_t len)
{
	const char *note = kv_get(&ri->meta, "column_note");
	size_t o = strlen(second);

	snprintf(second + o, len - o, "%s(%s)", o ? " " : "", note ? note : "partial");
}

/* Run r's two header lines: its name split at the last '-', "(partial)" below. */
static void run_header(const struct run_info *ri, char *first, char *second, size_t len)
{
	header_parts(ri->name, first, second, len);
	if (ri->partial)
		partial_note(ri, second, len);
}

/* Columns the widest header line of any run takes. */
static int header_width(const struct report *rep)
{
	char first[256], second[256];
	int w = 0;

	for (size_t r = 0; r < rep->n_runs; r++) {
		run_header(&rep->runs[r], first, second, sizeof(first));
		w = max_int(w, max_int(display_width(first), display_width(second)));
	}
	return w;
}

/*
 * The munlock thread's 14 + 12 + 6 columns, widened where a label, a value
 * (1e9 or more), a percentage (-1113.81) or a run's name
 * (01-6.12.111+deb12-cloud of a bisection) would not fit, so that columns
 * never run together.
 */
static void block_widths(const struct report *rep, const struct bench_cmp *b,
			 const struct row *rows, size_t n, const char *header,
			 struct widths *w)
{
	char buf[300];
	struct scale sc;
	struct row_cell cl;
	int short_by;

	*w = (struct widths){ max_int(LABEL_MIN, display_width(header)), 12, 6 };
	metric_scale(b, rows[0].metric, &sc);
	for (size_t i = 0; i < n; i++) {
		const struct row *rw = &rows[i];

		row_label(b, rw, buf, sizeof(buf));
		w->label = max_int(w->label, display_width(buf));
		for (size_t r = 0; r < b->data.n_runs; r++) {
			row_cell(b, rw, r, &sc, &cl);
			if (!cl.has_value)
				continue;
			/* + 1: the blank that parts it from the cell before */
			w->value = max_int(w->value, 1 + width_of(cl.v));
			if (cl.has_pct)
				w->pct = max_int(w->pct, width_of(cl.pct));
		}
	}
	/* + 1: the blank that parts a name from the column before it */
	short_by = 1 + header_width(rep) - (w->value + w->pct + 4);
	if (short_by > 0)
		w->value += short_by;
}

static void print_headers(FILE *f, const struct report *rep, const char *header,
			  const struct widths *w)
{
	char first[256], second[256];
	int col = w->value + w->pct + 4;

	for (int line = 0; line < 2; line++) {
		fprintf(f, "%s%*s", line ? "" : header,
			w->label - (line ? 0 : display_width(header)), "");
		for (size_t r = 0; r < rep->n_runs; r++) {
			run_header(&rep->runs[r], first, second, sizeof(first));
			/* pad by columns, not bytes: a name may hold UTF-8 */
			fprintf(f, "%*s%s", col - display_width(line ? second : first), "",
				line ? second : first);
		}
		fputc('\n', f);
	}
}

/* One run's cell: "value (pct%)", or "value *pct%*" for a significant mean. */
static void print_cell(FILE *f, const struct bench_cmp *b, const struct row *rw,
		       size_t r, const struct scale *sc, const struct widths *w)
{
	struct row_cell c;

	row_cell(b, rw, r, sc, &c);
	if (!c.has_value && !c.na)
		fprintf(f, "%*s %*s", w->value, "-", w->pct + 3, "");
	else if (c.na)
		fprintf(f, "%*s (%*s)", w->value, "n/a", w->pct + 1, "n/a");
	else if (!c.has_pct)
		fprintf(f, "%*.2f (%*s)", w->value, tidy2(c.v), w->pct + 1, "n/a");
	else
		fprintf(f, c.marked ? "%*.2f *%*.2f%%*" : "%*.2f (%*.2f%%)",
			w->value, tidy2(c.v), w->pct, tidy2(c.pct));
}

static void print_rows(FILE *f, const struct bench_cmp *b, const struct row *rows,
		       size_t n, const struct widths *w)
{
	char label[300];
	struct scale sc;

	metric_scale(b, rows[0].metric, &sc);
	for (size_t i = 0; i < n; i++) {
		row_label(b, &rows[i], label, sizeof(label));
		/* pad by columns, not bytes: labels may hold "µs" */
		fprintf(f, "%s%*s", label, w->label - display_width(label), "");
		for (size_t r = 0; r < b->data.n_runs; r++)
			print_cell(f, b, &rows[i], r, &sc, w);
		fputc('\n', f);
	}
}

static void print_differences(FILE *f, const struct report *rep,
			      const struct bench_cmp *b, size_t m)
{
	char label[256], sentence[512];

	for (size_t p = 0; p < b->data.n_params; p++)
		for (size_t r = 1; r < rep->n_runs && point_shown(rep, b, p); r++) {
			metric_label(b, m, p, label, sizeof(label));
			diff_sentence(rep, b, m, p, r, sentence, sizeof(sentence));
			fprintf(f, "%s %s: %s\n", label, rep->runs[r].name, sentence);
		}
}

/*
 * One table per metric, each with its own header (which says the block's
 * unit), so that the primary metric's block keeps the thread's 14-column
 * label however long the labels of the other metrics are, and pastes on its
 * own.
 */
static void print_metric(FILE *f, const struct report *rep,
			 const struct bench_cmp *b, size_t m)
{
	struct row *rows;
	size_t n = table_rows(rep, b, m, &rows);
	char header[300];
	struct widths w;

	metric_header(b, m, header, sizeof(header));
	block_widths(rep, b, rows, n, header, &w);
	print_headers(f, rep, header, &w);
	print_rows(f, b, rows, n, &w);
	print_differences(f, rep, b, m);
	free(rows);
}

/*
 * The k-th shown metric: its table, or its one line when it is constant;
 * a blank line before each table and before each run of such lines.
 */
static void print_shown(FILE *f, const struct report *rep, const struct bench_cmp *b,
			const size_t *order, size_t k)
{
	char line[1024];
	int constant = metric_constant(b, order[k]);

	if (k && !(constant && metric_constant(b, order[k - 1])))
		fputc('\n', f);
	if (!constant) {
		print_metric(f, rep, b, order[k]);
		return;
	}
	constant_sentence(b, order[k], line, sizeof(line));
	fprintf(f, "%s\n", line);
}

/* What differs besides the code comes first: it may be the result. */
static void print_unlike(FILE *f, const struct report *rep)
{
	if (!rep->differences.n)
		return;
	fputs("Not the same in every run:\n", f);
	differences_print(f, rep, "  ");
	fputc('\n', f);
}

/*
 * What changed first, in lines that fit on a screen; then the tables of
 * what changed, each bench's primary metric leading (every table with
 * --all-metrics).
 */
void render_text(FILE *f, const struct report *rep)
{
	char legend[1400];
	int first = 1;

	print_unlike(f, rep);
	changes_text(f, rep);
	/* one line, so that each block below still pastes on its own */
	percent_legend(rep, table_metrics, legend, sizeof(legend));
	for (size_t i = 0; i < rep->n_benches; i++) {
		const struct bench_cmp *b = &rep->benches[i];
		size_t *order = xcalloc(b->data.n_metrics, sizeof(*order));
		size_t n = table_metrics(rep, b, order);

		if (n && first)
			fprintf(f, "\n%s\n", legend);
		if (n) {
			fprintf(f, "\n%s\n", b->data.name);
			first = 0;
		}
		for (size_t k = 0; k < n; k++)
			print_shown(f, rep, b, order, k);
		if (n && rep->opt.all_metrics && *b->aliases)
			fprintf(f, "\nShown once, the same in every sample: %s.\n", b->aliases);
		where_text(f, rep, i);
		free(order);
	}
	if (not_shown_line(rep, legend, sizeof(legend)))
		fprintf(f, "\n%s\n", legend);
}
