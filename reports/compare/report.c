/* Building the comparison from run directories (see report.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "aliases.h"
#include "base/xalloc.h"
#include "rundir/benchread.h"
#include "rundir/clock.h"

/*
 * An icount figure counts instructions, a real clock's measures time: one
 * against the other is no comparison (11.80 ms of instructions against
 * 3.45 ms of wall time is not a 70% gain).  Refused unless asked for, and
 * then said before anything else.
 */
static int unlike_clocks(const struct report *rep, const struct run_info *a,
			 const struct run_info *b, struct err *e)
{
	if (run_info_same_clock(a, b))
		return 0;
	if (!rep->opt.unlike_clocks)
		return err_set(e, "%s and %s: measured under different clocks (%s: %s, %s: %s) do not compare; "
			       "--unlike-clocks compares them anyway", a->name, b->name, a->name, a->clock,
			       b->name, b->clock);
	fprintf(stderr, "mmstat: comparing runs of different clocks (%s: %s, %s: %s): "
		"their times and rates are not comparable\n", a->name, a->clock, b->name, b->clock);
	return 0;
}

/*
 * One run given twice: the same directory, or a copy of it (the same
 * run.sh process, started at the same time).  Said, and compared anyway:
 * a run against itself is a check of the suite, not an error.
 */
static void same_run(const struct run_info *a, const struct run_info *b)
{
	char *ra = realpath(a->path, NULL), *rb = realpath(b->path, NULL);
	const char *keys[] = { "pid", "pid_start", "start_time" };
	int copy = 1;

	for (size_t k = 0; k < 3; k++) {
		const char *x = kv_get(&a->meta, keys[k]), *y = kv_get(&b->meta, keys[k]);

		copy &= x && y && !strcmp(x, y);
	}
	if (ra && rb && !strcmp(ra, rb))
		fprintf(stderr, "mmstat: '%s' and '%s' are one run (the same directory): it is compared with itself\n",
			a->name, b->name);
	else if (copy)
		fprintf(stderr, "mmstat: '%s' and '%s' are one run (copies of the run of pid %s started %s): "
			"it is compared with itself\n", a->name, b->name, kv_get(&a->meta, "pid"),
			kv_get(&a->meta, "start_time"));
	free(ra);
	free(rb);
}

static int load_runs(struct report *rep, char *const *paths, struct err *e)
{
	rep->runs = xcalloc(rep->n_runs, sizeof(*rep->runs));
	for (size_t r = 0; r < rep->n_runs; r++) {
		struct run_info *ri = &rep->runs[r];

		if (run_info_load(ri, paths[r], e))
			return -1;
		if (ri->partial && !rep->opt.allow_partial)
			return err_set(e, "%s: partial run (status: %s); --allow-partial compares it anyway",
				       ri->path, ri->status);
		if (r > 0 && run_info_same_emulation(&rep->runs[0], ri, e))
			return -1;
		if (r > 0 && unlike_clocks(rep, &rep->runs[0], ri, e))
			return -1;
		for (size_t q = 0; q < r; q++)
			same_run(&rep->runs[q], ri);
	}
	return 0;
}

static int in_all_runs(const struct report *rep, const char *bench)
{
	for (size_t r = 0; r < rep->n_runs; r++)
		if (!run_has_bench(&rep->runs[r], bench))
			return 0;
	return 1;
}

/* Every bench of every run: the common ones are compared, the rest noted. */
static void sort_benches(struct report *rep, char ***common, size_t *n_common)
{
	*common = NULL;
	*n_common = 0;
	for (size_t r = 0; r < rep->n_runs; r++)
		for (size_t i = 0; i < rep->runs[r].n_benches; i++) {
			char *b = rep->runs[r].benches[i];

			if (!in_all_runs(rep, b)) {
				for (size_t o = 0; o < rep->n_runs; o++)
					if (!run_has_bench(&rep->runs[o], b))
						missing_add(&rep->missing, o, b, NULL, NULL, NULL);
			} else if (r == 0) {
				*common = xreallocarray(*common, *n_common + 1, sizeof(char *));
				(*common)[(*n_common)++] = b;
			}
		}
}

/*
 * "run 'thp-off' holds 1 bench: timedmunlock; run 'x' holds 2 benches:
 * heaprelease, procmunmap": what there was to compare, when nothing was.
 */
static void benches_held(const struct report *rep, char *buf, size_t len)
{
	size_t o = 0;

	*buf = '\0';
	for (size_t r = 0; r < rep->n_runs && o < len; r++) {
		const struct run_info *ri = &rep->runs[r];

		o += (size_t)snprintf(buf + o, len - o, "%srun '%s' holds ", r ? "; " : "", ri->name);
		if (!ri->n_benches && o < len)
			o += (size_t)snprintf(buf + o, len - o, "no bench");
		else if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%zu bench%s:", ri->n_benches,
					      ri->n_benches == 1 ? "" : "es");
		for (size_t i = 0; i < ri->n_benches && o < len; i++)
			o += (size_t)snprintf(buf + o, len - o, "%s %s", i ? "," : "", ri->benches[i]);
	}
}

/* Zero variance is an exact figure, not a clock's resolution (clock.h). */
static int exact_figures(const struct report *rep, const struct bench_data *b,
			 size_t r, size_t m)
{
	return !unit_is_clocked(b->metrics[m].unit) ||
	       (rep->runs[0].exact_clock && rep->runs[r].exact_clock);
}

static void compute(const struct report *rep, struct bench_cmp *bc)
{
	const struct bench_data *b = &bc->data;
	size_t most = 0;
	double *copy;

	bc->cells = xcalloc(b->n_params * b->n_runs * b->n_metrics, sizeof(*bc->cells));
	for (size_t i = 0; i < b->n_params * b->n_runs * b->n_metrics; i++)
		most = b->cells[i].n > most ? b->cells[i].n : most;
	/* summarize() sorts: keep the series in measurement order for the plots */
	copy = xcalloc(most, sizeof(*copy));
	for (size_t p = 0; p < b->n_params; p++)
		for (size_t r = 0; r < b->n_runs; r++)
			for (size_t m = 0; m < b->n_metrics; m++) {
				struct series *s = bench_cell(b, p, r, m);
				struct cmp_cell *c = (struct cmp_cell *)report_cell(bc, p, r, m);
				const struct cmp_cell *base = report_cell(bc, p, 0, m);

				if (s->n) {
					memcpy(copy, s->v, s->n * sizeof(*copy));
					summarize(copy, s->n, &c->s);
				}
				if (r > 0)
					ttest_compare(&base->s, &c->s, rep->opt.test, rep->opt.alpha,
						      exact_figures(rep, b, r, m), &c->test);
			}
	free(copy);
}

static int read_configs(const struct report *rep, struct bench_cmp *bc, struct err *e)
{
	char path[4096];

	bc->config = xcalloc(rep->n_runs, sizeof(*bc->config));
	for (size_t r = 0; r < rep->n_runs; r++) {
		snprintf(path, sizeof(path), "%s/%s/config", rep->runs[r].path, bc->data.name);
		if (kv_read_config(path, &bc->config[r], e))
			return -1;
	}
	return 0;
}

int report_build(struct report *rep, char *const *paths, size_t n_paths,
		 const struct report_opts *opt, struct err *e)
{
	char **common;
	size_t n_common;

	*rep = (struct report){ .opt = *opt, .n_runs = n_paths };
	if (load_runs(rep, paths, e))
		return -1;
	sort_benches(rep, &common, &n_common);
	if (n_common == 0) {
		char held[2048];

		free(common);
		benches_held(rep, held, sizeof(held));
		return err_set(e, "no bench is in every run: %s", held);
	}
	rep->benches = xcalloc(n_common, sizeof(*rep->benches));
	for (size_t i = 0; i < n_common; i++) {
		struct bench_cmp *bc = &rep->benches[rep->n_benches++];

		bench_data_init(&bc->data, common[i], rep->n_runs);
		if (bench_read(&bc->data, rep->runs, rep->opt.warmups, &rep->missing, e) ||
		    read_configs(rep, bc, e)) {
			free(common);
			return -1;
		}
		aliases_drop(&bc->data, bc->aliases, sizeof(bc->aliases));
		compute(rep, bc);
	}
	free(common);
	differences_find(rep);
	return changes_find(rep, &rep->changes, e);
}

void report_free(struct report *rep)
{
	for (size_t i = 0; i < rep->n_benches; i++) {
		bench_data_free(&rep->benches[i].data);
		free(rep->benches[i].cells);
		for (size_t r = 0; rep->benches[i].config && r < rep->n_runs; r++)
			kv_free(&rep->benches[i].config[r]);
		free(rep->benches[i].config);
	}
	differences_free(&rep->differences, rep->n_runs);
	changes_free(&rep->changes);
	missing_free(&rep->missing);
	for (size_t r = 0; r < rep->n_runs; r++)
		run_info_free(&rep->runs[r]);
	free(rep->benches);
	free(rep->runs);
	*rep = (struct report){ 0 };
}

const struct cmp_cell *report_cell(const struct bench_cmp *b, size_t param,
				   size_t run, size_t metric)
{
	const struct bench_data *d = &b->data;

	return &b->cells[(param * d->n_runs + run) * d->n_metrics + metric];
}

double report_confidence(const struct report *rep)
{
	return 100.0 * (1.0 - rep->opt.alpha);
}

void point_name(const char *name, const char *param, char *buf, size_t len)
{
	if (strcmp(param, "-"))
		snprintf(buf, len, "%s-%s", name, param);
	else
		snprintf(buf, len, "%s", name);
}
