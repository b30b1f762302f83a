/* Parsing BENCH/samples.tsv: one row per measured value. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "samplesfile.h"
#include "tsv.h"

static int is_declared(const struct metric_def *d, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(d[i].name, name))
			return 1;
	return 0;
}

static int parse_row(struct bench_data *b, size_t run, const struct tsv *t,
		     const struct metric_def *declared, size_t n_declared,
		     struct err *e)
{
	char *end;
	int m;
	double v;

	if (t->nf != 4)
		return err_set(e, "%s:%zu: expected 4 tab-separated fields (metric, param, iteration, value), got %d",
			       t->path, t->line, t->nf);
	if (!is_declared(declared, n_declared, t->field[0]))
		return err_set(e, "%s:%zu: metric '%s' is not in metrics.tsv",
			       t->path, t->line, t->field[0]);
	m = bench_metric_index(b, t->field[0]);
	if (!*t->field[1])
		return err_set(e, "%s:%zu: empty param (use '-' when nothing is swept)",
			       t->path, t->line);
	errno = 0;
	strtoull(t->field[2], &end, 10);
	if (!*t->field[2] || *end || errno || t->field[2][0] == '-')
		return err_set(e, "%s:%zu: iteration '%s' is not a non-negative integer",
			       t->path, t->line, t->field[2]);
	errno = 0;
	v = strtod(t->field[3], &end);
	if (!*t->field[3] || *end || errno == ERANGE || !isfinite(v))
		return err_set(e, "%s:%zu: value '%s' is not a finite number",
			       t->path, t->line, t->field[3]);
	if (m >= 0)
		series_push(bench_cell(b, bench_param(b, t->field[1]), run, (size_t)m), v);
	return 0;
}

size_t samples_of(const struct bench_data *b, size_t run, size_t m)
{
	size_t n = 0;

	for (size_t p = 0; p < b->n_params; p++)
		n += bench_cell(b, p, run, m)->n;
	return n;
}

/*
 * No sample of the primary metric means a run that lost its data.  Other
 * metrics may be missing (a monitor's counter that did not move); the
 * tables show '-' for them.
 */
static int check_complete(const struct bench_data *b, size_t run,
			  const char *path, struct err *e)
{
	if (b->n_metrics && samples_of(b, run, 0) == 0)
		return err_set(e, "%s: no samples of metric '%s'",
			       path, b->metrics[0].name);
	return 0;
}

static int is_header(const struct tsv *t)
{
	return t->nf == 4 && !strcmp(t->field[0], "metric") &&
	       !strcmp(t->field[1], "param") && !strcmp(t->field[2], "iteration") &&
	       !strcmp(t->field[3], "value");
}

int samples_read(struct bench_data *b, size_t run, const char *path,
		 const struct metric_def *declared, size_t n_declared,
		 struct err *e)
{
	struct tsv t;
	int r;

	if (tsv_open(&t, path, e))
		return -1;
	r = tsv_next(&t, e);
	if (r == 0)
		r = err_set(e, "%s: empty file (no header)", path);
	else if (r == 1 && !is_header(&t))
		r = err_set(e, "%s:1: header must be '%s'", path,
			    "metric<TAB>param<TAB>iteration<TAB>value");
	else if (r == 1)
		while ((r = tsv_next(&t, e)) == 1 && (r = parse_row(b, run, &t, declared, n_declared, e)) == 0)
			r = 1;
	tsv_close(&t);
	if (r)
		return -1;
	return check_complete(b, run, path, e);
}
