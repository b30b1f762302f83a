/*
 * Reading one bench of every compared run into a bench_data: the metrics
 * every run declares alike, then each run's samples.
 */
#ifndef MMDELTA_BENCHREAD_H
#define MMDELTA_BENCHREAD_H

#include "benchdata.h"
#include "missing.h"
#include "runinfo.h"

/*
 * b was set up by bench_data_init(b, name, n_runs); notes go to miss.  With
 * warmups, each run's warmup.tsv is read too (for the run-sequence plots).
 */
int bench_read(struct bench_data *b, const struct run_info *runs, int warmups,
	       struct missing_list *miss, struct err *e);

#endif
