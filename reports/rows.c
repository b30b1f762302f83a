/* The rows of a bench's table (see rows.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "xalloc.h"

/*
 * Percentiles of fewer than 20 samples are the max under another name, and
 * only times are latency distributions; both must hold in every run.
 */
#define DIST_MIN_SAMPLES 20

static int is_time_unit(const char *u)
{
	return !strcmp(u, "s") || !strcmp(u, "ms") || !strcmp(u, "us") ||
	       !strcmp(u, "µs") || !strcmp(u, "ns");
}

static int is_distribution(const struct bench_cmp *b, size_t m)
{
	const struct bench_data *d = &b->data;

	if (!is_time_unit(d->metrics[m].unit))
		return 0;
	for (size_t p = 0; p < d->n_params; p++)
		for (size_t r = 0; r < d->n_runs; r++) {
			size_t n = report_cell(b, p, r, m)->s.n;

			if (n && n < DIST_MIN_SAMPLES)
				return 0;
		}
	return 1;
}

size_t metric_rows(const struct bench_cmp *b, size_t m, struct row **out)
{
	const struct bench_data *d = &b->data;
	enum stat_id last = is_distribution(b, m) ? ST_P99 : ST_COEFFVAR;
	size_t n = 0;

	*out = xcalloc(d->n_params * ST_COUNT, sizeof(**out));
	for (size_t p = 0; p < d->n_params; p++)
		for (enum stat_id s = ST_MIN; s <= last; s++)
			(*out)[n++] = (struct row){ m, p, s };
	return n;
}

void metric_scale(const struct bench_cmp *b, size_t m, struct scale *sc)
{
	double least = 0;

	for (size_t p = 0; p < b->data.n_params; p++)
		for (size_t r = 0; r < b->data.n_runs; r++) {
			const struct summary *s = &report_cell(b, p, r, m)->s;
			double mag = fabs(s->mean);

			if (s->n && mag > 0 && (least == 0 || mag < least))
				least = mag;
		}
	unit_scale(b->data.metrics[m].unit, least, sc);
}

void metric_label(const struct bench_cmp *b, size_t m, size_t p,
		  char *buf, size_t len)
{
	const char *param = b->data.params[p];

	if (strcmp(param, "-"))
		snprintf(buf, len, "%s-%s", b->data.metrics[m].label, param);
	else
		snprintf(buf, len, "%s", b->data.metrics[m].label);
}

void metric_header(const struct bench_cmp *b, size_t m, char *buf, size_t len)
{
	const struct metric_def *md = &b->data.metrics[m];
	struct scale sc;

	metric_scale(b, m, &sc);
	snprintf(buf, len, "%s [%s]", md->label, *sc.unit ? sc.unit : md->unit);
}
