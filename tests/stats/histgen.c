/*
 * histgen: a history database of made-up nightly runs, for timing
 * `history.sh changes` at the scale of years of nightly runs.  The runs go
 * through the same code as an ingest (hist_store), without run directories.
 *   histgen DB RUNS BENCHES
 * Each run: BENCHES benches, 2 metrics each, 10 samples per metric, one
 * level change every 1000 runs; CoeffVar 2%, seeded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "history/histdb.h"
#include "history/histrun.h"
#include "history/histstore.h"

static char *fmt(const char *f, long v)
{
	char *s;

	if (asprintf(&s, f, v) < 0)
		abort();
	return s;
}

static void make_bench(struct hist_bench *hb, long b, long run, gsl_rng *rng)
{
	static const char *const names[] = { "elapsed", "ns_per_page" };
	double level = 1 + 0.05 * (double)((run / 1000) % 2);

	hb->name = fmt("bench%ld", b);
	bench_data_init(&hb->data, hb->name, 1);
	hb->data.metrics = calloc(2, sizeof(struct metric_def));
	hb->data.n_metrics = 2;
	for (int m = 0; m < 2; m++)
		hb->data.metrics[m] = (struct metric_def){ strdup(names[m]), strdup(names[m]), strdup("s"), 0, strdup("") };
	size_t p = bench_param(&hb->data, "-");

	for (int m = 0; m < 2; m++)
		for (int i = 0; i < 10; i++)
			series_push(bench_cell(&hb->data, p, 0, (size_t)m), level * (1 + gsl_ran_gaussian(rng, 0.02)));
	hb->iters = calloc(2, sizeof(long *));
	for (int m = 0; m < 2; m++) {
		hb->iters[m] = calloc(10, sizeof(long));
		for (int i = 0; i < 10; i++)
			hb->iters[m][i] = i + 1;
	}
	hb->configs = calloc(1, sizeof(char *));
	hb->configs[0] = fmt("BENCH=bench%ld\n", b);
}

static void make_run(struct hist_run *r, long run, long benches, gsl_rng *rng)
{
	static const char *const keys[] = { "name", "status", "start_time", "hostname", "kernel_release" };

	*r = (struct hist_run){ .dir = fmt("/gen/night-%05ld", run), .n_meta = 5 };
	r->keys = calloc(5, sizeof(char *));
	r->values = calloc(5, sizeof(char *));
	for (int i = 0; i < 5; i++)
		r->keys[i] = strdup(keys[i]);
	r->values[0] = fmt("night-%05ld", run);
	r->values[1] = strdup("complete");
	time_t t = 946684800 + run * 86400;	/* one run a night from 2000-01-01 */
	struct tm tm;

	r->values[2] = calloc(32, 1);
	strftime(r->values[2], 32, "%Y-%m-%dT%H:%M:%S+00:00", gmtime_r(&t, &tm));
	r->values[3] = strdup("labhost");
	r->values[4] = fmt("6.1.%ld", run);
	r->benches = calloc((size_t)benches, sizeof(*r->benches));
	r->n_benches = (size_t)benches;
	for (long b = 0; b < benches; b++)
		make_bench(&r->benches[b], b, run, rng);
	snprintf(r->digest, sizeof(r->digest), "%016lx", run);
}

int main(int argc, char **argv)
{
	sqlite3 *db;
	struct err e;
	long runs = argc > 2 ? atol(argv[2]) : 10000, benches = argc > 3 ? atol(argv[3]) : 4;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	if (argc < 2 || histdb_create(&db, argv[1], &e) || histdb_exec(db, "PRAGMA synchronous = OFF", &e)) {
		fprintf(stderr, "histgen: %s\n", argc < 2 ? "usage: histgen DB [RUNS [BENCHES]]" : e.msg);
		return 2;
	}
	gsl_rng_set(rng, 1);
	for (long run = 0; run < runs; run++) {
		struct hist_run r;
		enum hist_outcome out;

		make_run(&r, run, benches, rng);
		if (hist_store(db, &r, &out, &e)) {
			fprintf(stderr, "histgen: %s\n", e.msg);
			return 1;
		}
		hist_run_free(&r);
	}
	gsl_rng_free(rng);
	sqlite3_close(db);
	return 0;
}
