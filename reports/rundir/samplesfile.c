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

/* Where a row's value goes: the counted samples, or the warm-ups. */
struct target {
	struct bench_data *b;
	size_t run;
	int warm;	/* warmup.tsv: iterations 0, -1, ...; params already known */
};

static int check_iteration(const struct tsv *t, int warm, struct err *e)
{
	const char *s = t->field[2] + (warm && t->field[2][0] == '-');
	char *end;

	errno = 0;
	strtoull(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || (warm && s == t->field[2] && strcmp(s, "0")))
		return err_set(e, "%s:%zu: iteration '%s' is not %s", t->path, t->line,
			       t->field[2], warm ? "a warm-up's (0, -1, ...)" : "a non-negative integer");
	return 0;
}

static void push(const struct target *to, const char *param, size_t m, double v)
{
	struct bench_data *b = to->b;
	int p;

	if (!to->warm) {
		series_push(bench_cell(b, bench_param(b, param), to->run, m), v);
		return;
	}
	/* a warm-up of a swept value nothing was counted for is not plotted */
	for (p = 0; p < (int)b->n_params && strcmp(b->params[p], param); p++)
		;
	if (p < (int)b->n_params)
		series_push(bench_warm(b, (size_t)p, to->run, m), v);
}

static int parse_row(const struct target *to, const struct tsv *t,
		     const struct metric_def *declared, size_t n_declared,
		     struct err *e)
{
	struct bench_data *b = to->b;
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
	if (check_iteration(t, to->warm, e))
		return -1;
	errno = 0;
	v = strtod(t->field[3], &end);
	if (!*t->field[3] || *end || errno == ERANGE || !isfinite(v))
		return err_set(e, "%s:%zu: value '%s' is not a finite number",
			       t->path, t->line, t->field[3]);
	if (m >= 0)
		push(to, t->field[1], (size_t)m, v);
	return 0;
}

int samples_check_complete(const struct bench_data *b, size_t run,
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

static int read_rows(const struct target *to, struct tsv *t,
		     const struct metric_def *declared, size_t n_declared, struct err *e)
{
	int r;

	while ((r = tsv_next(t, e)) == 1)
		if (parse_row(to, t, declared, n_declared, e))
			return -1;
	return r;
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
		r = read_rows(&(struct target){ b, run, 0 }, &t, declared, n_declared, e);
	tsv_close(&t);
	return r ? -1 : 0;
}

int warmups_read(struct bench_data *b, size_t run, const char *path,
		 const struct metric_def *declared, size_t n_declared,
		 struct err *e)
{
	struct tsv t;
	int r = tsv_open_optional(&t, path, e);

	if (r <= 0)
		return r;
	r = read_rows(&(struct target){ b, run, 1 }, &t, declared, n_declared, e);
	tsv_close(&t);
	return r;
}
