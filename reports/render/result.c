/* The end-of-run result of one bench directory (see result.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "base/xalloc.h"
#include "compare/units.h"
#include "rundir/benchdata.h"
#include "rundir/metricsfile.h"
#include "rundir/samplesfile.h"
#include "stats/stats.h"

/* A monitor that ran (its name in metrics.tsv) and what it recorded. */
struct monitor_tally {
	const char *name;
	size_t metrics, counters, changed;
};

/* Neither better nor worse: pages, a monitor's counts; no spread is shown. */
static int is_counter(const struct metric_def *d)
{
	return d->better == BETTER_NONE || strcmp(d->unit, "count") == 0;
}

/* A counter's mean as a count: whole when it is whole. */
static void print_count(FILE *f, double v)
{
	fprintf(f, v == floor(v) ? "%.0f" : "%.2f", v);
}

static void print_metric(FILE *f, const char *bench, const char *label, int width,
			 const struct metric_def *d, const struct series *s)
{
	double *x = xcalloc(s->n, sizeof(double));
	struct summary sum;
	struct scale sc;

	memcpy(x, s->v, s->n * sizeof(double));
	summarize(x, s->n, &sum);
	free(x);
	fprintf(f, "%s %-*s mean ", bench, width, label);
	if (is_counter(d)) {
		print_count(f, sum.mean);
		if (sum.min != sum.max) {
			fprintf(f, " (min ");
			print_count(f, sum.min);
			fprintf(f, ", max ");
			print_count(f, sum.max);
			fputc(')', f);
		}
	} else {
		unit_scale(d->unit, sum.mean, &sc);
		fprintf(f, "%.2f %s", sum.mean / sc.div, sc.unit);
		if (sum.has_stddev)
			fprintf(f, ", stddev %.2f %s", sum.stddev / sc.div, sc.unit);
		if (sum.has_coeffvar)
			fprintf(f, ", CoeffVar %.2f%%", sum.coeffvar);
	}
	fprintf(f, " (n=%zu)\n", sum.n);
}

static void label_of(const struct bench_data *b, size_t p, size_t m, char *out, size_t len)
{
	if (strcmp(b->params[p], "-") == 0)
		snprintf(out, len, "%s", b->metrics[m].label);
	else
		snprintf(out, len, "%s-%s", b->metrics[m].label, b->params[p]);
}

/* The bench's own metrics, every swept value, in metrics.tsv order. */
static void print_bench(FILE *f, const struct bench_data *b)
{
	char label[512];
	int width = 0, w;

	for (int pass = 0; pass < 2; pass++)
		for (size_t p = 0; p < b->n_params; p++)
			for (size_t m = 0; m < b->n_metrics; m++) {
				const struct series *s = bench_cell(b, p, 0, m);

				if (*b->metrics[m].monitor || s->n == 0)
					continue;
				label_of(b, p, m, label, sizeof(label));
				w = display_width(label);
				if (pass == 0 && w > width)
					width = w;
				if (pass == 1)
					print_metric(f, b->name, label, width + (int)strlen(label) - w,
						     &b->metrics[m], s);
			}
}

static int any_nonzero(const struct bench_data *b, size_t m)
{
	for (size_t p = 0; p < b->n_params; p++) {
		const struct series *s = bench_cell(b, p, 0, m);

		for (size_t i = 0; i < s->n; i++)
			if (s->v[i] != 0)
				return 1;
	}
	return 0;
}

/* One line: what each monitor put into samples.tsv. */
static void print_monitors(FILE *f, const struct bench_data *b)
{
	struct monitor_tally *t = xcalloc(b->n_metrics, sizeof(*t));
	size_t n = 0, i;

	for (size_t m = 0; m < b->n_metrics; m++) {
		const struct metric_def *d = &b->metrics[m];

		if (!*d->monitor)
			continue;
		for (i = 0; i < n && strcmp(t[i].name, d->monitor); i++)
			;
		if (i == n)
			t[n++].name = d->monitor;
		t[i].metrics++;
		t[i].counters += is_counter(d);
		t[i].changed += any_nonzero(b, m);
	}
	if (n)
		fprintf(f, "%s ", b->name);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%s: %zu %s in samples.tsv (%zu not zero)%s", i ? "; " : "",
			t[i].name, t[i].metrics, t[i].counters == t[i].metrics ? "counters" : "metrics",
			t[i].changed, i + 1 == n ? "\n" : "");
	free(t);
}

int result_print(FILE *f, const char *benchdir, struct err *e)
{
	char path[4096];
	const char *slash = strrchr(benchdir, '/');
	struct bench_data b;
	int r;

	bench_data_init(&b, slash ? slash + 1 : benchdir, 1);
	snprintf(path, sizeof(path), "%s/metrics.tsv", benchdir);
	r = metrics_read(path, &b.metrics, &b.n_metrics, e);
	snprintf(path, sizeof(path), "%s/samples.tsv", benchdir);
	if (!r)
		r = samples_read(&b, 0, path, b.metrics, b.n_metrics, e);
	if (!r) {
		print_bench(f, &b);
		print_monitors(f, &b);
	}
	bench_data_free(&b);
	return r;
}
