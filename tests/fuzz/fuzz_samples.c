/*
 * libFuzzer target: samples.tsv as compare.sh's stats tool reads it.  The
 * input is read as the samples of two runs of a bench declaring three
 * metrics, two of them compared, so the union of sweep parameters across
 * runs and the skipping of declared-but-not-compared rows are exercised too.
 * An accepted file gave the primary metric a sample and held only finite
 * values; a refused one has a message that starts with the file name (and
 * line), as docs/errors.md promises.
 */
#include "infile.h"
#include "rundir/samplesfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void declare_metrics(struct bench_data *b)
{
	static const char *names[][3] = { { "elapsed", "Elapsed", "s" }, { "pages", "Pages", "count" } };

	b->n_metrics = 2;
	b->metrics = calloc(2, sizeof(*b->metrics));
	if (!b->metrics)
		abort();
	for (int i = 0; i < 2; i++)
		b->metrics[i] = (struct metric_def){ strdup(names[i][0]), strdup(names[i][1]),
						      strdup(names[i][2]), BETTER_LOWER, strdup("") };
}

static const struct metric_def declared[] = {
	{ "elapsed", "Elapsed", "s", BETTER_LOWER, "" }, { "pages", "Pages", "count", BETTER_NONE, "" },
	{ "vmstat_pgfault", "pgfault", "count", BETTER_NONE, "vmstat" },
};

static void check_read(struct bench_data *b, size_t run, const char *path)
{
	struct err e = { "" };

	/* A file without the primary metric reads (a partial run's column),
	 * and a complete run's check then refuses it, naming the file. */
	if (samples_read(b, run, path, declared, 3, &e) ||
	    samples_check_complete(b, run, path, &e)) {
		if (strncmp(e.msg, path, strlen(path)) || e.msg[strlen(path)] != ':')
			abort();
		return;
	}
	if (samples_of(b, run, 0) == 0)
		abort();
	for (size_t m = 0; m < b->n_metrics; m++)
		for (size_t p = 0; p < b->n_params; p++) {
			const struct series *s = bench_cell(b, p, run, m);

			for (size_t i = 0; i < s->n; i++)
				if (!isfinite(s->v[i]))
					abort();
		}
}

/* The same input as a warmup.tsv: no header, iterations 0, -1, ... */
static void check_warmups(struct bench_data *b, const char *path)
{
	struct err e = { "" };

	if (warmups_read(b, 1, path, declared, 3, &e) &&
	    (strncmp(e.msg, path, strlen(path)) || e.msg[strlen(path)] != ':'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bench_data b;
	const char *path = infile_write(data, size);

	bench_data_init(&b, "fuzz", 2);
	declare_metrics(&b);
	check_read(&b, 0, path);
	check_read(&b, 1, path);
	check_warmups(&b, path);
	bench_data_free(&b);
	return 0;
}
