/* RUN/insns.tsv's regions of one bench at one point (see regions.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profread.h"
#include "profile/regions.h"
#include "rundir/tsv.h"

/* The header's column named name, or 0 (column 0 is the bench). */
static size_t header_column(const struct tsv *t, const char *name)
{
	for (size_t i = 1; i < (size_t)t->nf && i < TSV_MAX_FIELDS; i++)
		if (!strcmp(t->field[i], name))
			return i;
	return 0;
}

/* The count in column col, named name in the error. */
static int count(const struct tsv *t, size_t col, const char *name, const char *path, unsigned long long *n,
		 struct err *e)
{
	const char *s = col < (size_t)t->nf && col < TSV_MAX_FIELDS ? t->field[col] : "";
	char *end;

	*n = strtoull(s, &end, 10);
	if (end == s || *end)
		return err_set(e, "%s:%zu: %s '%s' is not a count", path, t->line, name, s);
	return 0;
}

/* The fewest and most task regions of the point's iterations; the row is the point's k-th. */
static int count_tasks(struct point_regions *r, const struct tsv *t, size_t col, size_t k, const char *path,
		       struct err *e)
{
	unsigned long long n;

	if (count(t, col, "task_regions", path, &n, e))
		return -1;
	r->tasks_min = !k || n < r->tasks_min ? (size_t)n : r->tasks_min;
	r->tasks_max = n > r->tasks_max ? (size_t)n : r->tasks_max;
	return 0;
}

int regions_read(const char *run, const char *bench, const char *param, struct point_regions *r,
		 struct err *e)
{
	char path[4096], key[64];
	struct tsv t;
	size_t tasks_col = 0, n_tasks = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/insns.tsv", run);
	if ((rc = tsv_open_optional(&t, path, e)) <= 0)
		return rc;
	r->counted = 1;
	while ((rc = tsv_next(&t, e)) == 1) {
		unsigned long long n;

		if (t.line == 1)
			tasks_col = header_column(&t, "task_regions");
		if (t.line == 1 || t.nf < 3 || strcmp(t.field[0], bench) || !profile_tag_point(t.field[1], param, key, sizeof(key)))
			continue;
		if (count(&t, 2, "regions", path, &n, e) || (tasks_col && count_tasks(r, &t, tasks_col, n_tasks++, path, e))) {
			rc = -1;
			break;
		}
		r->processes++;
		if (!n)
			continue;
		r->min = !r->marked++ || n < r->min ? (size_t)n : r->min;
		r->max = n > r->max ? (size_t)n : r->max;
	}
	tsv_close(&t);
	return rc < 0 ? -1 : 0;
}
