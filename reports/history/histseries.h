/*
 * The series of the history: one bench, metric and swept value, on one
 * machine with one resolved config, its runs in order (start time, or a
 * meta key).  Read from the database in a few scans (histseries.c).
 */
#ifndef MMDELTA_HISTSERIES_H
#define MMDELTA_HISTSERIES_H

#include <sqlite3.h>

#include "base/err.h"
#include "stats/edivisive.h"

struct hrun {
	long long id;
	char *name, *start, *host, *clock, *kernel, *image, *configs, *order;
	double epoch;		/* start time, seconds since 1970 */
	char *machine;		/* host, or the emulator for icount runs */
	char *command;		/* meta's "./run.sh ..." line, or NULL */
};

struct hmetric {
	long long id;
	char *bench, *name, *label, *unit, *direction;
	int position;		/* 0: the bench's primary metric */
};

struct hseries {
	const struct hmetric *metric;
	const char *param, *machine;
	long long config;
	size_t n;
	size_t *run;		/* index into hist_data.runs, in order */
	struct run_point *pt;
};

struct hsplit {		/* one bench, param and machine measured with several configs */
	const struct hmetric *metric;	/* the first metric the split was seen in */
	const char *bench, *param, *machine;
	long long config[2];
	size_t n_configs;
};

struct hist_filter {
	const char *bench, *metric, *order_by;
};

struct hist_data {
	struct hrun *runs;
	size_t n_runs;
	struct hmetric *metrics;
	size_t n_metrics;
	struct hseries *series;
	size_t n_series;
	struct hsplit *splits;
	size_t n_splits;
	char **params;
	size_t n_params;
	size_t unordered;	/* runs without the --order-by key, left out */
};

int hist_load(sqlite3 *db, const struct hist_filter *f, struct hist_data *d,
	      struct err *e);
void hist_data_free(struct hist_data *d);
/* The config text of an id (for the split notes); caller frees. */
char *hist_config_text(sqlite3 *db, long long id);

#endif
