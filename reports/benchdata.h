/*
 * The samples of one bench across every compared run, as read from
 * RUN/BENCH/metrics.tsv and RUN/BENCH/samples.tsv.  Parameters (sweep values)
 * are the union over runs, in order of first appearance, baseline first.
 */
#ifndef MMDELTA_BENCHDATA_H
#define MMDELTA_BENCHDATA_H

#include <stddef.h>

#include "err.h"

struct metric_def {
	char *name;		/* samples.tsv key: "elapsed" */
	char *label;		/* table label: "Elapsed" */
	char *unit;		/* SI base unit: s, ns, bytes, count, ops/s */
	int higher_is_better;
};

struct series {
	double *v;
	size_t n, cap;
};

struct bench_data {
	char *name;
	size_t n_runs;
	struct metric_def *metrics;	/* the baseline's metrics.tsv */
	size_t n_metrics;
	char **params;
	size_t n_params;
	/* [param][run][metric], so that a new parameter appends a block */
	struct series *cells;
};

void bench_data_init(struct bench_data *b, const char *name, size_t n_runs);
void bench_data_free(struct bench_data *b);
struct series *bench_cell(const struct bench_data *b, size_t param,
			  size_t run, size_t metric);
/* Index of param, added if new. */
size_t bench_param(struct bench_data *b, const char *param);
int bench_metric_index(const struct bench_data *b, const char *name);
void series_push(struct series *s, double v);

/* Samples of metric m in run `run`, over every swept value. */
size_t samples_of(const struct bench_data *b, size_t run, size_t m);
/* Parse BENCHDIR/metrics.tsv into *out (n entries); path is for messages. */
int metrics_read(const char *path, struct metric_def **out, size_t *n,
		 struct err *e);
void metrics_free(struct metric_def *m, size_t n);
/*
 * Read BENCHDIR/samples.tsv of run `run` into b.  A row's metric must be in
 * the run's own metrics.tsv (declared); rows of declared metrics that are not
 * compared (not in b->metrics) are skipped.
 */
int samples_read(struct bench_data *b, size_t run, const char *path,
		 const struct metric_def *declared, size_t n_declared,
		 struct err *e);

#endif
