/*
 * The design of a sequential run, as run.sh --baseline BASE --gate PCT
 * writes it into BENCH/config before the first iteration:
 *     sequential: max=30 alpha=0.05 baseline=BASE gate=5%
 * max is MAX_ITERATIONS, the last look; alpha the two-sided level of the
 * repeated confidence intervals (seqbound.h).  compare.sh judges such a
 * run with the interval of its last look, so that its verdict is the one
 * the iterations stopped at, whatever was looked at before.
 */
#ifndef MMDELTA_SEQDESIGN_H
#define MMDELTA_SEQDESIGN_H

#include <stddef.h>

#include "base/err.h"

struct seq_design {
	size_t max;		/* 0: not a sequential run */
	double alpha;
	size_t look;		/* the look judged: the run's sample count */
};

/* RUNDIR/BENCH/config's design into d (d->max = 0 when there is none). */
int seq_design_read(const char *rundir, const char *bench, struct seq_design *d,
		    struct err *e);

/* The one-sided tail of the interval at look n (seqbound.h). */
int seq_design_tail(const struct seq_design *d, size_t n, double *tail, struct err *e);

#endif
