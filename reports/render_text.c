/*
 * The default text table: mmtests' layout from the munlock thread, so that
 * it pastes into a changelog unchanged (DESIGN.md, "Comparison output").
 */
#include <stdlib.h>
#include <string.h>

#include "difftext.h"
#include "render.h"
#include "rows.h"

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

static int label_width(const struct bench_cmp *b, const struct row *rows, size_t n)
{
	int w = LABEL_MIN;
	char buf[300];

	for (size_t i = 0; i < n; i++) {
		row_label(b, &rows[i], buf, sizeof(buf));
		if (display_width(buf) > w)
			w = display_width(buf);
	}
	return w;
}

static void print_headers(FILE *f, const struct report *rep, int width)
{
	char first[256], second[256];

	for (int line = 0; line < 2; line++) {
		fprintf(f, "%*s", width, "");
		for (size_t r = 0; r < rep->n_runs; r++) {
			header_parts(rep->runs[r].name, first, second, sizeof(first));
			if (line == 1 && rep->runs[r].partial)
				strncat(second, *second ? " (partial)" : "(partial)",
					sizeof(second) - strlen(second) - 1);
			fprintf(f, "%22s", line == 0 ? first : second);
		}
		fputc('\n', f);
	}
}

/* One run's 22 characters: "%12.2f (%6.2f%%)", or '*' for a significant mean. */
static void print_cell(FILE *f, const struct bench_cmp *b, const struct row *rw,
		       size_t r, const struct scale *sc)
{
	const struct cmp_cell *c = report_cell(b, rw->param, r, rw->metric);
	const struct cmp_cell *base = report_cell(b, rw->param, 0, rw->metric);
	int higher = b->data.metrics[rw->metric].higher_is_better;
	int star = rw->stat == ST_MEAN && c->test.outcome == TTEST_DIFFERENCE;
	double v, pct;

	if (c->s.n == 0) {
		fprintf(f, "%12s %9s", "-", "");
		return;
	}
	if (!stat_value(&c->s, rw->stat, &v)) {
		fprintf(f, "%12s (%7s)", "n/a", "n/a");
		return;
	}
	/* cv is a percentage of its own and is not scaled */
	if (rw->stat != ST_COEFFVAR)
		v /= sc->div;
	pct = 0;
	if (base->s.n == 0 || !stat_pct(&base->s, &c->s, rw->stat, higher, &pct))
		fprintf(f, "%12.2f (%7s)", v, "n/a");
	else
		fprintf(f, star ? "%12.2f *%6.2f%%*" : "%12.2f (%6.2f%%)", tidy2(v), tidy2(pct));
}

static void print_rows(FILE *f, const struct bench_cmp *b, const struct row *rows,
		       size_t n, int width)
{
	char label[300];
	struct scale sc;

	for (size_t i = 0; i < n; i++) {
		metric_scale(b, rows[i].metric, &sc);
		row_label(b, &rows[i], label, sizeof(label));
		/* pad by columns, not bytes: labels may hold "µs" */
		fprintf(f, "%s%*s", label, width - display_width(label), "");
		for (size_t r = 0; r < b->data.n_runs; r++)
			print_cell(f, b, &rows[i], r, &sc);
		fputc('\n', f);
	}
}

static void print_differences(FILE *f, const struct report *rep,
			      const struct bench_cmp *b, size_t m)
{
	char label[256], sentence[512];

	for (size_t p = 0; p < b->data.n_params; p++)
		for (size_t r = 1; r < rep->n_runs; r++) {
			metric_label(b, m, p, label, sizeof(label));
			diff_sentence(rep, b, m, p, r, sentence, sizeof(sentence));
			fprintf(f, "%s %s: %s\n", label, rep->runs[r].name, sentence);
		}
}

/*
 * One table per metric, each with its own header, so that the primary
 * metric's block keeps the thread's 14-column label however long the labels
 * of the other metrics are, and pastes on its own.
 */
static void print_metric(FILE *f, const struct report *rep,
			 const struct bench_cmp *b, size_t m)
{
	struct row *rows;
	size_t n = metric_rows(b, m, &rows);
	int width = label_width(b, rows, n);

	print_headers(f, rep, width);
	print_rows(f, b, rows, n, width);
	print_differences(f, rep, b, m);
	free(rows);
}

void render_text(FILE *f, const struct report *rep)
{
	for (size_t i = 0; i < rep->n_benches; i++) {
		const struct bench_cmp *b = &rep->benches[i];

		if (i)
			fputc('\n', f);
		fprintf(f, "%s\n", b->data.name);
		for (size_t m = 0; m < b->data.n_metrics; m++) {
			if (m)
				fputc('\n', f);
			print_metric(f, rep, b, m);
		}
	}
}
