/* Row statistics and their percentages (see statrows.h). */
#include <math.h>

#include "statrows.h"

static const char *const names[ST_COUNT] = {
	"min", "mean", "stddev", "max", "range", "cv",
	"median", "p90", "p95", "p99",
};

const char *stat_name(enum stat_id id)
{
	return names[id];
}

int stat_value(const struct summary *s, enum stat_id id, double *v)
{
	switch (id) {
	case ST_MIN: *v = s->min; return 1;
	case ST_MEAN: *v = s->mean; return 1;
	case ST_STDDEV: *v = s->stddev; return s->has_stddev;
	case ST_MAX: *v = s->max; return 1;
	case ST_RANGE: *v = s->range; return 1;
	case ST_COEFFVAR: *v = s->coeffvar; return s->has_coeffvar;
	case ST_MEDIAN: *v = s->median; return 1;
	case ST_P90: *v = s->p90; return 1;
	case ST_P95: *v = s->p95; return 1;
	case ST_P99: *v = s->p99; return 1;
	default: return 0;
	}
}

int pct_better(double base, double new, enum better better, double *pct)
{
	if (base == new) {
		*pct = 0;	/* exactly, not the -1e-14 that x*100/x can leave */
		return 1;
	}
	if (base == 0) {
		*pct = 0;
		return new == 0;	/* 0 -> 0 is no change; 0 -> x has no ratio */
	}
	/* of |base|: a negative baseline must not flip the sign of the change */
	*pct = (new - base) * 100 / fabs(base) * (better == BETTER_LOWER ? -1 : 1);
	return 1;
}

int stat_pct(const struct summary *base, const struct summary *new,
	     enum stat_id id, enum better better, double *pct)
{
	double b, n;
	int spread = id == ST_STDDEV || id == ST_RANGE || id == ST_COEFFVAR;

	if (!stat_value(base, id, &b) || !stat_value(new, id, &n))
		return 0;
	return pct_better(b, n, spread && better != BETTER_NONE ? BETTER_LOWER : better, pct);
}
