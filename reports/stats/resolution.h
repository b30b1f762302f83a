/*
 * What a bench's figures resolve under icount: drivers/vm/resolution.tsv
 * (docs/vm.md#resolution-under-icount), the spread of one kernel's
 * iterations within a boot, metric by metric.  Two kernels whose means
 * differ by less than that spread cannot be told apart by where their
 * iterations happened to fall, however small the test's p.
 */
#ifndef MMDELTA_RESOLUTION_H
#define MMDELTA_RESOLUTION_H

#include "base/err.h"

struct resolution {
	double cv;	/* coefficient of variation of the iterations within a boot */
	double range;	/* the largest (max - min) / mean of them */
	char kernel[128];	/* the kernel it was measured on */
};

/*
 * The line of bench, metric and param ("-": unswept) in the table at path
 * ($MMDELTA_RESOLUTION, else $MMDELTA_ROOT/drivers/vm/resolution.tsv when
 * path is NULL); a line's param KEY=VALUE is the point's when its config
 * (NULL: none) has KEY at VALUE.  A param the table lacks takes the largest
 * spread over the ones it has, as drivers/vm/resolution.sh does.  1 found,
 * 0 no such line or no table, -1 a malformed table.
 */
struct kvlist;
int resolution_find(const char *path, const char *bench, const char *metric, const char *param,
		    const struct kvlist *config, struct resolution *out, struct err *e);

#endif
