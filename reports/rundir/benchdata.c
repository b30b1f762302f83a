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

/* Move metric `from` to `to` (to <= from) in the table and every cell block. */
static void move_metric(struct bench_data *b, size_t from, size_t to)
{
	b->metrics[to] = b->metrics[from];
	for (size_t p = 0; p < b->n_params; p++)
		for (size_t r = 0; r < b->n_runs; r++)
			*bench_cell(b, p, r, to) = *bench_cell(b, p, r, from);
}

void bench_drop_unsampled(struct bench_data *b)
{
	size_t kept = 0, n = b->n_metrics;
	struct series *old = b->cells;

	for (size_t m = 0; m < n; m++) {
		if (!sampled(b, m)) {
			metric_clear(&b->metrics[m]);
			continue;
		}
		move_metric(b, m, kept++);
	}
	b->n_metrics = kept;
	/* re-pack the [param][run][metric] blocks to the new metric count */
	for (size_t i = 0; i < b->n_params * b->n_runs; i++)
		for (size_t m = 0; m < kept; m++)
			b->cells[i * kept + m] = old[i * n + m];
}

size_t samples_of(const struct bench_data *b, size_t run, size_t m)
{
	size_t n = 0;

	for (size_t p = 0; p < b->n_params; p++)
		n += bench_cell(b, p, run, m)->n;
	return n;
}
