/* Counters shown once (see aliases.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aliases.h"
#include "base/xalloc.h"

/* Each group: the name kept first, then the names that may repeat it. */
static const char *const groups[][4] = {
	{ "vmstat_nr_active_anon", "vmstat_nr_zone_active_anon", NULL },
	{ "vmstat_nr_inactive_anon", "vmstat_nr_zone_inactive_anon", NULL },
	{ "vmstat_nr_active_file", "vmstat_nr_zone_active_file", NULL },
	{ "vmstat_nr_inactive_file", "vmstat_nr_zone_inactive_file", NULL },
	{ "vmstat_nr_unevictable", "vmstat_nr_zone_unevictable", "vmstat_nr_mlock", NULL },
};

static int same_series(const struct series *a, const struct series *b)
{
	return a->n == b->n && (!a->n || !memcmp(a->v, b->v, a->n * sizeof(*a->v)));
}

/* Metric x equals metric k in every counted sample of every run. */
static int same_everywhere(const struct bench_data *b, size_t k, size_t x)
{
	for (size_t p = 0; p < b->n_params; p++)
		for (size_t r = 0; r < b->n_runs; r++)
			if (!same_series(bench_cell(b, p, r, k), bench_cell(b, p, r, x)))
				return 0;
	return 1;
}

size_t aliases_drop(struct bench_data *b, char *buf, size_t len)
{
	int *keep = xcalloc(b->n_metrics + 1, sizeof(*keep));
	size_t dropped = 0, o = 0;

	*buf = '\0';
	for (size_t m = 0; m < b->n_metrics; m++)
		keep[m] = 1;
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		int kept = -1;

		for (size_t i = 0; groups[g][i]; i++) {
			int x = bench_metric_index(b, groups[g][i]);

			if (x < 0)
				continue;
			if (kept < 0) {
				kept = x;
				continue;
			}
			if (!same_everywhere(b, (size_t)kept, (size_t)x))
				continue;
			keep[x] = 0;
			dropped++;
			if (o < len)
				o += (size_t)snprintf(buf + o, len - o, "%s%s = %s", o ? ", " : "",
						      b->metrics[x].label, b->metrics[kept].label);
		}
	}
	if (dropped)
		bench_keep_metrics(b, keep);
	free(keep);
	return dropped;
}
