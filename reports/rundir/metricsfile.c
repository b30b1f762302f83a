/* Parsing BENCH/metrics.tsv (see metricsfile.h for the format). */
#include <stdlib.h>
#include <string.h>

#include "metricsfile.h"
#include "tsv.h"
#include "base/xalloc.h"

static const char *const better_names[] = { "lower", "higher", "none" };

const char *better_name(enum better b)
{
	return better_names[b];
}

static int parse_better(const char *s, enum better *b)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, better_names[i])) {
			*b = (enum better)i;
			return 0;
		}
	return -1;
}

struct metric_def metric_copy(const struct metric_def *m)
{
	return (struct metric_def){ xstrdup(m->name), xstrdup(m->label), xstrdup(m->unit),
				    m->better, xstrdup(m->monitor) };
}

void metric_clear(struct metric_def *m)
{
	free(m->name);
	free(m->label);
	free(m->unit);
	free(m->monitor);
	*m = (struct metric_def){ 0 };
}

void metrics_free(struct metric_def *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		metric_clear(&m[i]);
	free(m);
}

static int check_line(const struct tsv *t, struct metric_def *m, size_t n,
		      struct err *e)
{
	enum better b;

	if (t->nf != 4 && t->nf != 5)
		return err_set(e, "%s:%zu: expected 4 or 5 tab-separated fields (metric, label, unit, lower|higher|none, monitor), got %d",
			       t->path, t->line, t->nf);
	for (int i = 0; i < t->nf; i++)
		if (i != 3 && !*t->field[i])
			return err_set(e, "%s:%zu: empty field %d", t->path, t->line, i + 1);
	if (parse_better(t->field[3], &b))
		return err_set(e, "%s:%zu: direction must be 'lower', 'higher' or 'none', not '%s'",
			       t->path, t->line, t->field[3]);
	for (size_t i = 0; i < n; i++)
		if (strcmp(m[i].name, t->field[0]) == 0)
			return err_set(e, "%s:%zu: metric '%s' listed twice",
				       t->path, t->line, t->field[0]);
	return 0;
}

int metrics_read(const char *path, struct metric_def **out, size_t *n,
		 struct err *e)
{
	struct metric_def *m = NULL;
	struct tsv t;
	int r;

	*n = 0;
	if (tsv_open(&t, path, e))
		return -1;
	while ((r = tsv_next(&t, e)) == 1) {
		if ((r = check_line(&t, m, *n, e)))
			break;
		m = xreallocarray(m, *n + 1, sizeof(*m));
		m[*n] = (struct metric_def){
			.name = xstrdup(t.field[0]), .label = xstrdup(t.field[1]),
			.unit = xstrdup(t.field[2]),
			.monitor = xstrdup(t.nf == 5 ? t.field[4] : ""),
		};
		parse_better(t.field[3], &m[*n].better);
		(*n)++;
	}
	if (r == 0 && *n == 0)
		r = err_set(e, "%s: no metrics (empty file)", path);
	tsv_close(&t);
	if (r) {
		metrics_free(m, *n);
		*n = 0;
		return -1;
	}
	*out = m;
	return 0;
}
