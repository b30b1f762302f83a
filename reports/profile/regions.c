/* RUN/insns.tsv's regions of one bench at one point (see regions.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profread.h"
#include "profile/regions.h"
#include "rundir/tsv.h"

int regions_read(const char *run, const char *bench, const char *param, struct point_regions *r,
		 struct err *e)
{
	char path[4096], key[64];
	struct tsv t;
	int rc;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/insns.tsv", run);
	if ((rc = tsv_open_optional(&t, path, e)) <= 0)
		return rc;
	r->counted = 1;
	while ((rc = tsv_next(&t, e)) == 1) {
		char *end;
		unsigned long long n;

		if (t.line == 1 || t.nf < 3 || strcmp(t.field[0], bench) || !profile_tag_point(t.field[1], param, key, sizeof(key)))
			continue;
		n = strtoull(t.field[2], &end, 10);
		if (end == t.field[2] || *end) {
			rc = err_set(e, "%s:%zu: regions '%s' is not a count", path, t.line, t.field[2]);
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
