/*
 * What the insns monitor recorded of one bench's processes at one sweep
 * point: RUN/insns.tsv, a row per bench process the host counted, with
 * the number of timed regions the process marked (0: none, so nothing was
 * counted for it).  It says whether the monitor was on, and whether the
 * bench marks a region, from the run itself: no list of benches is kept.
 */
#ifndef MMDELTA_REGIONS_H
#define MMDELTA_REGIONS_H

#include <stddef.h>

#include "base/err.h"

struct point_regions {
	int counted;		/* RUN/insns.tsv exists: the host counted this run */
	size_t processes;	/* the point's counted iterations it lists */
	size_t marked;		/* of those, the ones with a region */
	size_t min, max;	/* regions per marked iteration */
	size_t tasks_min, tasks_max;	/* task regions per iteration (task_regions; 0 0 without the column) */
};

int regions_read(const char *run, const char *bench, const char *param, struct point_regions *r,
		 struct err *e);

#endif
