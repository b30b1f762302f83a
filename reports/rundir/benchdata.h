/*
 * The samples of one bench across every compared run, as read from
 * RUN/BENCH/metrics.tsv and RUN/BENCH/samples.tsv.  Parameters (sweep values)
 * are the union over runs, in order of first appearance, baseline first.
 */
#ifndef MMDELTA_BENCHDATA_H
#define MMDELTA_BENCHDATA_H

#include <stddef.h>

#include "metricsfile.h"

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
	struct series *warm;	/* the same layout: warm-ups, when read */
};

void bench_data_init(struct bench_data *b, const char *name, size_t n_runs);
void bench_data_free(struct bench_data *b);
struct series *bench_cell(const struct bench_data *b, size_t param,
			  size_t run, size_t metric);
/* Index of param, added if new. */
size_t bench_param(struct bench_data *b, const char *param);
int bench_metric_index(const struct bench_data *b, const char *name);
/* Keep the metrics m with keep[m] set (samples and warm-ups), free the rest. */
void bench_keep_metrics(struct bench_data *b, const int *keep);
/* Leave out the metrics no run has a sample of (seen only in warm-ups). */
void bench_drop_unsampled(struct bench_data *b);
void series_push(struct series *s, double v);
/* The warm-ups of a cell: empty when none were read. */
const struct series *bench_warmups(const struct bench_data *b, size_t param,
				   size_t run, size_t metric);
/* The warm-up cell, its array made on first use (params and metrics fixed). */
struct series *bench_warm(struct bench_data *b, size_t param, size_t run,
			  size_t metric);

/* Samples of metric m in run `run`, over every swept value. */
size_t samples_of(const struct bench_data *b, size_t run, size_t m);

#endif
