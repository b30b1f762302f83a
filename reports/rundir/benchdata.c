/* Storage for one bench's samples across runs (see benchdata.h). */
#include <stdlib.h>
#include <string.h>

#include "benchdata.h"
#include "base/xalloc.h"

void bench_data_init(struct bench_data *b, const char *name, size_t n_runs)
{
	*b = (struct bench_data){ .name = xstrdup(name), .n_runs = n_runs };
}

void bench_data_free(struct bench_data *b)
{
	size_t cells = b->n_params * b->n_runs * b->n_metrics;

	for (size_t i = 0; i < cells; i++) {
		free(b->cells[i].v);
		if (b->warm)
			free(b->warm[i].v);
	}
	free(b->warm);
	for (size_t i = 0; i < b->n_params; i++)
		free(b->params[i]);
	metrics_free(b->metrics, b->n_metrics);
	free(b->cells);
	free(b->params);
	free(b->name);
	*b = (struct bench_data){ 0 };
}

struct series *bench_cell(const struct bench_data *b, size_t param,
			  size_t run, size_t metric)
{
	return &b->cells[(param * b->n_runs + run) * b->n_metrics + metric];
}

const struct series *bench_warmups(const struct bench_data *b, size_t param,
				   size_t run, size_t metric)
{
	static const struct series none;

	return b->warm ? &b->warm[(param * b->n_runs + run) * b->n_metrics + metric] : &none;
}

struct series *bench_warm(struct bench_data *b, size_t param, size_t run,
			  size_t metric)
{
	if (!b->warm)
		b->warm = xcalloc(b->n_params * b->n_runs * b->n_metrics, sizeof(*b->warm));
	return &b->warm[(param * b->n_runs + run) * b->n_metrics + metric];
}

size_t bench_param(struct bench_data *b, const char *param)
{
	size_t block = b->n_runs * b->n_metrics;

	for (size_t i = 0; i < b->n_params; i++)
		if (strcmp(b->params[i], param) == 0)
			return i;
	b->params = xreallocarray(b->params, b->n_params + 1, sizeof(*b->params));
	b->params[b->n_params] = xstrdup(param);
	b->cells = xreallocarray(b->cells, (b->n_params + 1) * block, sizeof(*b->cells));
	memset(b->cells + b->n_params * block, 0, block * sizeof(*b->cells));
	return b->n_params++;
}

int bench_metric_index(const struct bench_data *b, const char *name)
{
	for (size_t i = 0; i < b->n_metrics; i++)
		if (strcmp(b->metrics[i].name, name) == 0)
			return (int)i;
	return -1;
}

void series_push(struct series *s, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	s->v[s->n++] = v;
}

static int sampled(const struct bench_data *b, size_t m)
{
	for (size_t p = 0; p < b->n_params; p++)
		for (size_t r = 0; r < b->n_runs; r++)
			if (bench_cell(b, p, r, m)->n)
				return 1;
	return 0;
}

/*
 * Keep the metrics with keep[m] set: the table and the [param][run][metric]
 * blocks of the samples and of the warm-ups re-packed, the rest freed.
 */
void bench_keep_metrics(struct bench_data *b, const int *keep)
{
	size_t kept = 0, n = b->n_metrics, blocks = b->n_params * b->n_runs;
	struct series *packed = xcalloc(blocks * n + 1, sizeof(*packed));

	for (size_t m = 0; m < n; m++)
		kept += keep[m] != 0;
	for (int warm = 0; warm < 2; warm++) {
		struct series *cells = warm ? b->warm : b->cells;
		size_t o = 0;

		if (!cells)
			continue;
		for (size_t i = 0; i < blocks; i++)
			for (size_t m = 0; m < n; m++) {
				if (keep[m])
					packed[o++] = cells[i * n + m];
				else
					free(cells[i * n + m].v);
			}
		memcpy(cells, packed, o * sizeof(*cells));
	}
	free(packed);
	kept = 0;
	for (size_t m = 0; m < n; m++) {
		if (keep[m])
			b->metrics[kept++] = b->metrics[m];
		else
			metric_clear(&b->metrics[m]);
	}
	b->n_metrics = kept;
}

void bench_drop_unsampled(struct bench_data *b)
{
	int *keep = xcalloc(b->n_metrics + 1, sizeof(*keep));

	for (size_t m = 0; m < b->n_metrics; m++)
		keep[m] = sampled(b, m);
	bench_keep_metrics(b, keep);
	free(keep);
}

size_t samples_of(const struct bench_data *b, size_t run, size_t m)
{
	size_t n = 0;

	for (size_t p = 0; p < b->n_params; p++)
		n += bench_cell(b, p, run, m)->n;
	return n;
}
