/* Writing the plots' data files (see plotdata.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plotdata.h"
#include "plotfile.h"
#include "plotseq.h"
#include "base/xalloc.h"

static void gp_var(FILE *f, const char *name, const char *value)
{
	fprintf(f, "%s = ", name);
	gp_str(f, value);
	fputc('\n', f);
}

static int write_vars(const struct plot *pl, const char *title, const char *ylabel,
		      const char *xlabel, struct err *e)
{
	const struct report *rep = pl->rep;
	FILE *f = plot_file(pl, "vars.gp", e);

	if (!f)
		return -1;
	gp_var(f, "TITLE", title);
	gp_var(f, "YLABEL", ylabel);
	gp_var(f, "XLABEL", xlabel);
	fprintf(f, "NRUNS = %zu\nNPARAMS = %zu\narray NAMES[%zu]\narray COLORS[%zu]\n",
		rep->n_runs, pl->b->data.n_params, rep->n_runs, rep->n_runs);
	for (size_t r = 0; r < rep->n_runs; r++) {
		fprintf(f, "NAMES[%zu] = ", r + 1);
		gp_str(f, rep->runs[r].name);
		fprintf(f, "\nCOLORS[%zu] = '#%s'\n", r + 1, run_color(r));
	}
	return plot_close(f, pl, "vars.gp", e);
}

static int swept(const struct plot *pl)
{
	return pl->b->data.n_params > 1;
}

/* Box positions: runs side by side, one group per swept value. */
static double box_x(const struct plot *pl, size_t p, size_t r)
{
	return (double)(p * (pl->rep->n_runs + 1) + r + 1);
}

/* Labels under the boxes: run names, or the swept value per group. */
static int write_box_xtics(const struct plot *pl, struct err *e)
{
	const struct bench_data *d = &pl->b->data;
	FILE *f = plot_file(pl, "xtics.dat", e);

	if (!f)
		return -1;
	for (size_t r = 0; !swept(pl) && r < d->n_runs; r++)
		fprintf(f, "%zu\t%s\n", r + 1, pl->rep->runs[r].name);
	for (size_t p = 0; swept(pl) && p < d->n_params; p++)
		fprintf(f, "%g\t%s\n", (double)(p * (d->n_runs + 1)) + (d->n_runs + 1) / 2.0,
			d->params[p]);
	return plot_close(f, pl, "xtics.dat", e);
}

/* box.dat: x min q1 median q3 max mean colour; pts.dat: x value colour. */
static int write_box(const struct plot *pl, struct err *e)
{
	const struct bench_data *d = &pl->b->data;
	FILE *box = plot_file(pl, "box.dat", e), *pts = box ? plot_file(pl, "pts.dat", e) : NULL;
	double k = pl->sc.div;

	if (!pts) {
		if (box)
			fclose(box);
		return -1;
	}
	for (size_t p = 0; p < d->n_params; p++)
		for (size_t r = 0; r < d->n_runs; r++) {
			const struct summary *s = &report_cell(pl->b, p, r, pl->m)->s;
			const struct series *v = bench_cell(d, p, r, pl->m);
			long c = strtol(run_color(r), NULL, 16);

			if (!s->n)
				continue;
			fprintf(box, "%g\t%.10g\t%.10g\t%.10g\t%.10g\t%.10g\t%.10g\t%ld\n", box_x(pl, p, r),
				s->min / k, s->q1 / k, s->median / k, s->q3 / k, s->max / k, s->mean / k, c);
			for (size_t i = 0; i < v->n; i++)
				fprintf(pts, "%g\t%.10g\t%ld\n", box_x(pl, p, r), v->v[i] / k, c);
		}
	if (plot_close(pts, pl, "pts.dat", e)) {
		fclose(box);
		return -1;
	}
	return plot_close(box, pl, "box.dat", e);
}

/* A run's change of the mean with its interval, as the delta chart shows it. */
static int delta_of(const struct plot *pl, size_t p, size_t r, double *pct)
{
	const struct cmp_cell *c = report_cell(pl->b, p, r, pl->m);
	const struct cmp_cell *base = report_cell(pl->b, p, 0, pl->m);

	return c->test.outcome != TTEST_NOT_DONE && c->test.has_pct &&
	       stat_pct(&base->s, &c->s, ST_MEAN, pl->b->data.metrics[pl->m].better, pct);
}

static int has_delta(const struct plot *pl)
{
	double pct;

	for (size_t p = 0; p < pl->b->data.n_params; p++)
		for (size_t r = 1; r < pl->rep->n_runs; r++)
			if (delta_of(pl, p, r, &pct))
				return 1;
	return 0;
}

/* delta.dat: x pct ci_half_pct significant(0|1) run_index; xtics.dat. */
static int write_delta(const struct plot *pl, struct err *e)
{
	const struct bench_data *d = &pl->b->data;
	size_t R = d->n_runs;
	FILE *f = plot_file(pl, "delta.dat", e);
	double pct;

	if (!f)
		return -1;
	for (size_t p = 0; p < d->n_params; p++)
		for (size_t r = 1; r < R; r++) {
			const struct cmp_cell *c = report_cell(pl->b, p, r, pl->m);

			if (delta_of(pl, p, r, &pct))
				fprintf(f, "%zu\t%.10g\t%.10g\t%d\t%zu\n", p * R + r, pct,
					c->test.ci_half_pct, mean_marked(pl->b, pl->m, c), r);
		}
	if (plot_close(f, pl, "delta.dat", e) || !(f = plot_file(pl, "xtics.dat", e)))
		return -1;
	for (size_t r = 1; !swept(pl) && r < R; r++)
		fprintf(f, "%zu\t%s\n", r, pl->rep->runs[r].name);
	for (size_t p = 0; swept(pl) && p < d->n_params; p++)
		fprintf(f, "%g\t%s\n", (double)(p * R) + R / 2.0, d->params[p]);
	return plot_close(f, pl, "xtics.dat", e);
}

/* sweep.dat: per run a block (two blank lines apart) of "param mean stddev". */
static int write_sweep(const struct plot *pl, struct err *e)
{
	const struct bench_data *d = &pl->b->data;
	FILE *f = plot_file(pl, "sweep.dat", e);
	double k = pl->sc.div;

	if (!f)
		return -1;
	for (size_t r = 0; r < d->n_runs; r++) {
		for (size_t p = 0; p < d->n_params; p++) {
			const struct summary *s = &report_cell(pl->b, p, r, pl->m)->s;

			if (s->n)
				fprintf(f, "%zu\t%.10g\t%.10g\n", p, s->mean / k,
					s->has_stddev ? s->stddev / k : 0);
		}
		fputs("\n\n", f);
	}
	if (plot_close(f, pl, "sweep.dat", e) || !(f = plot_file(pl, "xtics.dat", e)))
		return -1;
	for (size_t p = 0; p < d->n_params; p++)
		fprintf(f, "%zu\t%s\n", p, d->params[p]);
	return plot_close(f, pl, "xtics.dat", e);
}

enum kind { BOX, RUNSEQ, DELTA, SWEEP, KINDS };
static const char *const kind_names[KINDS] = { "box", "runseq", "delta", "sweep" };

/* Why a kind of plot is not drawn for this metric, or NULL. */
static const char *why_not(const struct plot *pl, enum kind k)
{
	/* one number in every run is one line of the tables (rows.h) */
	if (metric_constant(pl->b, pl->m))
		return k == BOX ? "one value in every run, not plotted" : "";
	if (k == DELTA && pl->rep->n_runs < 2)
		return "one run, no delta plot";
	/* with fewer than two samples there is no test, so no interval to draw */
	if (k == DELTA && !has_delta(pl))
		return "no test possible, no delta plot";
	if (k == SWEEP && !swept(pl))
		return "";	/* nothing swept: nothing to say */
	return NULL;
}

static int write_kind(struct plot *pl, enum kind k, struct err *e)
{
	const struct metric_def *md = &pl->b->data.metrics[pl->m];
	char title[1024], ylabel[512], xlabel[512], per[300] = "";
	const char *bench = pl->b->data.name;

	snprintf(ylabel, sizeof(ylabel), "%s [%s] (%s)", md->label, *pl->sc.unit ? pl->sc.unit : md->unit,
		 md->better == BETTER_NONE ? "a count, neither better nor worse" :
		 md->better == BETTER_HIGHER ? "higher is better" : "lower is better");
	if (swept(pl))
		snprintf(per, sizeof(per), " per %s", pl->swept);
	*xlabel = '\0';
	switch (k) {
	case BOX:
		snprintf(title, sizeof(title), "%s: %s%s, samples per run", bench, md->label, per);
		return write_vars(pl, title, ylabel, xlabel, e) || write_box(pl, e) ||
		       write_box_xtics(pl, e);
	case RUNSEQ:
		snprintf(title, sizeof(title), "%s: %s, run sequence", bench, md->label);
		snprintf(xlabel, sizeof(xlabel), "%s%s (hollow: warm-up, not counted)",
			 swept(pl) ? "measurement, in run order," : "iteration", per);
		return write_vars(pl, title, ylabel, xlabel, e) || plot_runseq(pl, e);
	case DELTA:
		snprintf(title, sizeof(title), "%s: %s%s, change of the mean against %s", bench,
			 md->label, per, pl->rep->runs[0].name);
		snprintf(ylabel, sizeof(ylabel), "change of the mean [%%] (%s)",
			 md->better == BETTER_NONE ? "plain change" : "positive is better");
		return write_vars(pl, title, ylabel, xlabel, e) || write_delta(pl, e);
	default:
		snprintf(title, sizeof(title), "%s: %s against %s (mean ± stddev)", bench,
			 md->label, pl->swept);
		return write_vars(pl, title, ylabel, pl->swept, e) || write_sweep(pl, e);
	}
}

/* A metric name ends up in file names: no slash, no dot-dot, no blank. */
static int usable_name(const char *s)
{
	return *s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") ==
		     strlen(s) && strcmp(s, ".") && strcmp(s, "..");
}

static int write_metric(struct plot *pl, const char *dir, FILE *list, struct err *e)
{
	const char *bench = pl->b->data.name, *metric = pl->b->data.metrics[pl->m].name;

	if (!usable_name(metric))
		return err_set(e, "%s: metric name '%s' is not usable in a file name", bench, metric);
	metric_scale(pl->b, pl->m, &pl->sc);
	for (enum kind k = BOX; k < KINDS; k++) {
		const char *why = why_not(pl, k);

		if (why && *why)
			fprintf(list, "%s\t%s\t%s\t-\t%s\n", bench, metric, kind_names[k], why);
		if (why)
			continue;
		snprintf(pl->dir, sizeof(pl->dir), "%s/%s-%s-%s", dir, bench, metric, kind_names[k]);
		if (mkdir(pl->dir, 0777) && errno != EEXIST)
			return err_set(e, "%s: %s", pl->dir, strerror(errno));
		if (write_kind(pl, k, e))
			return -1;
		fprintf(list, "%s\t%s\t%s\t%s-%s-%s\n", bench, metric, kind_names[k], bench, metric,
			kind_names[k]);
	}
	return 0;
}

/* The key run.sh swept for this bench ("SIZE"): BENCH/config's "sweep:" field. */
static const char *sweep_key(const struct bench_cmp *b)
{
	const char *k = kv_get(&b->config[0], "sweep");

	return k && *k && strcmp(k, "-") ? k : "value";
}

int plot_data_write(const struct report *rep, const char *dir, struct err *e)
{
	char path[4200];
	FILE *list;
	int ret = 0;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return err_set(e, "--plot-data %s: %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/plots.list", dir);
	if (!(list = fopen(path, "w")))
		return err_set(e, "--plot-data %s: %s", path, strerror(errno));
	for (size_t i = 0; i < rep->n_benches && !ret; i++) {
		const struct bench_cmp *b = &rep->benches[i];
		size_t *order = xcalloc(b->data.n_metrics, sizeof(*order));
		size_t n = shown_metrics(rep, b, order);
		struct plot pl = { .rep = rep, .b = b, .swept = sweep_key(b) };

		for (size_t k = 0; k < n && !ret; k++) {
			pl.m = order[k];
			ret = write_metric(&pl, dir, list, e);
		}
		free(order);
	}
	if ((ferror(list) | fclose(list)) && !ret)
		ret = err_set(e, "--plot-data %s: %s", path, strerror(errno));
	return ret;
}
