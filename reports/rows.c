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
	double mag = 0;

	/* The primary metric is the changelog figure: in its own unit, as the
	 * thread printed it (Elapsed in seconds, even 0.01 s with THP). */
	if (m == 0) {
		unit_scale(b->data.metrics[m].unit, 0, sc);
		return;
	}

	for (size_t p = 0; p < b->data.n_params; p++) {
		const struct summary *s = &report_cell(b, p, 0, m)->s;

		if (s->n && fabs(s->mean) > mag)
			mag = fabs(s->mean);
	}
	unit_scale(b->data.metrics[m].unit, mag, sc);
}

void metric_label(const struct bench_cmp *b, size_t m, size_t p,
		  char *buf, size_t len)
{
	const char *param = b->data.params[p];
	struct scale sc;
	int o;

	metric_scale(b, m, &sc);
	o = snprintf(buf, len, "%s", b->data.metrics[m].label);
	if (strcmp(param, "-") && o >= 0 && (size_t)o < len)
		o += snprintf(buf + o, len - o, "-%s", param);
	if (sc.scaled && o >= 0 && (size_t)o < len)
		snprintf(buf + o, len - o, "(%s)", sc.unit);
}
