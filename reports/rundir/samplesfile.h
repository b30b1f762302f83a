/*
 * BENCH/samples.tsv: a header line "metric<TAB>param<TAB>iteration<TAB>value",
 * then one row per measured value, in the order run.sh measured them.
 */
#ifndef MMDELTA_SAMPLESFILE_H
#define MMDELTA_SAMPLESFILE_H

#include "benchdata.h"

/*
 * Read PATH as the samples of run `run` into b.  A row's metric must be in
 * the run's own metrics.tsv (declared); rows of declared metrics that are not
 * compared (not in b->metrics) are skipped.
 */
int samples_read(struct bench_data *b, size_t run, const char *path,
		 const struct metric_def *declared, size_t n_declared,
		 struct err *e);

/*
 * No sample of the primary metric in a complete run means a run that lost
 * its data: an error naming PATH.  Other metrics may be missing (a
 * monitor's counter that did not move); the tables show '-' for them.
 */
int samples_check_complete(const struct bench_data *b, size_t run,
			   const char *path, struct err *e);

/*
 * Read PATH, a warmup.tsv (the same rows without the header, iterations 0,
 * -1, ...), as run `run`'s warm-ups into b's warm cells, for the run-sequence
 * plots.  No file, no warm-ups.  Call after every samples_read().
 */
int warmups_read(struct bench_data *b, size_t run, const char *path,
		 const struct metric_def *declared, size_t n_declared,
		 struct err *e);

#endif
