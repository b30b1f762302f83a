/*
 * What the comparison needs to know about a run directory: its display name,
 * its meta (status, system) and the benches it holds: a directory per bench
 * with metrics.tsv and samples.tsv (docs/running.md shows the layout).
 */
#ifndef MMDELTA_RUNINFO_H
#define MMDELTA_RUNINFO_H

#include <stddef.h>

#include "kvfile.h"
#include "base/err.h"

struct run_info {
	char *path;
	char *name;	/* basename, with a partial run's ".NAME.partial" undone */
	char *status;	/* "complete", "running", "interrupted", "failed", ... */
	struct kvlist meta;	/* every "key: value" line of meta */
	int partial;	/* status is not "complete" */
	int exact_clock;	/* measured with qemu's icount clock (clock.h) */
	const char *clock;	/* "icount", "realtime" or "realtime in a qemu guest" */
	char **benches;	/* sorted */
	size_t n_benches;
};

int run_info_load(struct run_info *r, const char *path, struct err *e);
void run_info_free(struct run_info *r);
int run_has_bench(const struct run_info *r, const char *bench);
/*
 * -1 with a message when both are icount runs of different qemu or CPU
 * model, or ran two versions of a program a bench wraps (meta wrapped_*).
 */
int run_info_same_emulation(const struct run_info *a, const struct run_info *b, struct err *e);
/* Do a's and b's figures come from the same kind of clock (run_info.clock)? */
int run_info_same_clock(const struct run_info *a, const struct run_info *b);

#endif
