/*
 * One run directory as the history records it (histrun.c): its meta, and
 * per bench every declared metric's samples with their iterations and the
 * resolved config of each swept value, all read before anything is written.
 */
#ifndef MMDELTA_HISTRUN_H
#define MMDELTA_HISTRUN_H

#include <stddef.h>

#include "base/err.h"
#include "rundir/benchdata.h"

struct hist_bench {
	char *name;
	struct bench_data data;		/* one run; metrics = every declared metric */
	char **configs;			/* per param of data: the resolved config */
	long **iters;			/* per cell of data: each value's iteration */
};

struct hist_run {
	char *dir;
	char **keys, **values;		/* meta, in file order */
	size_t n_meta;
	struct hist_bench *benches;
	size_t n_benches;
	char digest[17];		/* of everything recorded, to tell a changed copy */
};

int hist_run_read(struct hist_run *r, const char *dir, struct err *e);
void hist_run_free(struct hist_run *r);
const char *hist_meta(const struct hist_run *r, const char *key);
/* The clock that timed the run: meta's clock:, else icount when the VM said so. */
const char *hist_clock(const struct hist_run *r);
/* metrics.tsv's word for which way is better: lower, higher. */
const char *hist_direction(const struct metric_def *m);
/* The machine that measured: the VM's host for a --kernel run. */
const char *hist_host(const struct hist_run *r);

/* The resolved config of one swept value from BENCH/config's lines. */
char *hist_config_for(char *const *lines, size_t n, const char *param);

#endif
