/*
 * compare.sh --format lkp: the kernel test robot's comparison layout, so
 * that a figure here sits beside the one in a robot mail.  One block per
 * bench and sweep point: the robot's axes, the runs as its "commit:" list,
 * then a row per metric, named as the robot names it (lkpnames.h), with
 * each run's mean and %stddev and the %change against the baseline
 * between them; with --profile, then the functions' shares in the robot's
 * perf-profile style.  The arithmetic is the robot's (lkp-tests'
 * lib/compare.rb), not the suite's, and docs/robot.md says where they
 * differ: %stddev is the population standard deviation over the mean,
 * shown truncated to a whole percent and only above 2%; %change is the
 * plain change of the mean, whatever direction is better; a perf-profile
 * row's change is in points of share.  Lines carry no trailing blanks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "base/xalloc.h"
#include "compare/rows.h"
#include "profile/profread.h"
#include "profile/where.h"
#include "render/lkpnames.h"

/* The robot's column widths: value, change, %stddev. */
#define ABS_WIDTH 10
#define REL_WIDTH 10
#define ERR_WIDTH 6

/* One row: each run's mean and relative spread in percent (-1: none). */
struct lkp_row {
	char name[320];
	double *mean, *spread;
};

static const char *param_of(const struct bench_cmp *b, size_t p)
{
	const char *param = b->data.params[p];

	return strcmp(param, "-") ? param : NULL;
}

static void point_of(const struct bench_cmp *b, size_t p, size_t r, struct lkp_point *pt)
{
	*pt = (struct lkp_point){ .bench = b->data.name, .config = &b->config[r], .sweep_value = param_of(b, p) };
}

/* The robot's: "%10.2f" below 1000, "%10.4g" above 1e8, else whole (cut, as Ruby's %d cuts a float). */
static void put_value(FILE *f, double v)
{
	if (fabs(v) < 1000)
		fprintf(f, "%*.2f", ABS_WIDTH, v);
	else if (fabs(v) > 1e8)
		fprintf(f, "%*.4g", ABS_WIDTH, v);
	else
		fprintf(f, "%*lld", ABS_WIDTH, (long long)v);
}

static void put_spread(FILE *f, double pct)
{
	if (pct > 2)
		fprintf(f, " ±%*d%%", ERR_WIDTH - 3, (int)pct);
	else
		fprintf(f, "%*s", ERR_WIDTH, "");
}

/* The robot's change: in percent of the baseline's mean (1e-100 for a 0), or in points. */
static void put_change(FILE *f, double base, double v, int absolute)
{
	double c = absolute ? v - base : 100.0 * (v - base) / (base == 0 ? 1e-100 : base);
	const char *fmt = absolute ? (fabs(c) < 1e5 ? "%+*.1f  " : "%+*.2g  ") :
				     (fabs(c) < 1e5 ? "%+*.1f%% " : "%+*.2g%% ");

	fprintf(f, fmt, REL_WIDTH, c);
}

static void put_row(FILE *f, const struct report *rep, const struct lkp_row *row)
{
	int absolute = lkp_absolute_change(row->name);

	for (size_t r = 0; r < rep->n_runs; r++) {
		if (r)
			put_change(f, row->mean[0], row->mean[r], absolute);
		put_value(f, row->mean[r]);
		put_spread(f, row->spread[r]);
	}
	fprintf(f, "  %s\n", row->name);
}

/* The robot's %stddev: the population deviation (over n, not n - 1) in percent of the mean. */
static double spread_pct(double mean, double pop_sd, size_t n)
{
	if (n < 2)
		return -1;
	return mean != 0 ? 100 * pop_sd / mean : pop_sd;
}

/* The robot's group header: the axes, then the runs as its commit list. */
static void print_axes(FILE *f, const struct report *rep, const struct bench_cmp *b, size_t p)
{
	char keys[512], values[512];
	struct lkp_point pt;

	point_of(b, p, 0, &pt);
	lkp_axes(&pt, keys, values, sizeof(keys));
	fputs("=========================================================================================\n", f);
	fprintf(f, "%s:\n  %s\n\ncommit:\n", keys, values);
	for (size_t r = 0; r < rep->n_runs; r++) {
		const char *release = kv_get(&rep->runs[r].meta, "kernel_release");

		fprintf(f, "  %s", rep->runs[r].name);
		if (release && strcmp(release, rep->runs[r].name))
			fprintf(f, " (\"%s\")", release);
		fputc('\n', f);
	}
}

/* The column heads: run names cut to the column, as the robot cuts its commits. */
static void print_columns(FILE *f, const struct report *rep)
{
	static const char dashes[] = "--------------------------------";
	const int first = ABS_WIDTH + ERR_WIDTH, width = first + REL_WIDTH + 1;

	fprintf(f, "\n%*.*s", first, first, rep->runs[0].name);
	for (size_t r = 1; r < rep->n_runs; r++)
		fprintf(f, " %*.*s", width, width, rep->runs[r].name);
	fprintf(f, "\n%.*s", first, dashes);
	for (size_t r = 1; r < rep->n_runs; r++)
		fprintf(f, " %.*s", width, dashes);
	fputs("\n         %stddev", f);
	for (size_t r = 1; r < rep->n_runs; r++)
		fputs("     %change         %stddev", f);
	fputs("\n             \\", f);
	for (size_t r = 1; r < rep->n_runs; r++)
		fputs("          |                \\", f);
	fputc('\n', f);
}

/*
 * Mean and population deviation of v[0..n), in the robot's order of
 * operations (lkp-tests' lib/statistics.rb), so that a spread on the edge
 * of a whole percent is cut as the robot cuts it.
 */
static void mean_pop_sd(const double *v, size_t n, double *mean, double *sd)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += v[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*mean = m;
	*sd = sqrt(1 / (double)n * ss);
}

/*
 * A metric of the suite's own whose means print as 0.00 in its SI unit (an
 * elapsed of 176 µs) is shown in the tables' unit of it (compare/rows.h),
 * named in the robot's way: "willitscale.elapsed.us", as the robot's
 * perf-sched.wait_time.avg.ms.  The robot's metrics keep the robot's units.
 */
static void own_unit(const struct bench_cmp *b, size_t m, size_t n_runs, struct lkp_row *row)
{
	struct scale sc;
	size_t at = strlen(row->name);

	for (size_t r = 0; r < n_runs; r++)
		if (fabs(row->mean[r]) >= 1)
			return;
	metric_scale(b, m, &sc);
	if (!sc.scaled)
		return;
	for (size_t r = 0; r < n_runs; r++)
		row->mean[r] /= sc.div;
	snprintf(row->name + at, sizeof(row->name) - at, ".%s", strcmp(sc.unit, "µs") ? sc.unit : "us");
}

/* Prints the point's metric rows; 1 when insns.total was among them. */
static int bench_rows(FILE *f, const struct report *rep, size_t bi, size_t p, struct lkp_row *row)
{
	int total = 0;
	const struct bench_cmp *b = &rep->benches[bi];
	size_t *order = xcalloc(b->data.n_metrics, sizeof(*order));
	size_t n = shown_metrics(rep, b, order);
	struct lkp_point pt;

	point_of(b, p, 0, &pt);
	for (size_t k = 0; k < n; k++) {
		size_t r;

		for (r = 0; r < rep->n_runs; r++) {
			const struct series *s = bench_cell(&b->data, p, r, order[k]);
			double sd;

			if (!s->n)
				break;
			mean_pop_sd(s->v, s->n, &row->mean[r], &sd);
			row->spread[r] = spread_pct(row->mean[r], sd, s->n);
		}
		if (r < rep->n_runs)
			continue;	/* a run lacks it here: not a row, as the robot leaves out what it lacks */
		if (!lkp_metric_name(&pt, b->data.metrics[order[k]].name, row->name, sizeof(row->name)))
			own_unit(b, order[k], rep->n_runs, row);
		put_row(f, rep, row);
		total |= !strcmp(row->name, "insns.total");
	}
	free(order);
	return total;
}

/*
 * A function's share of each iteration, in percent: of the iteration's
 * instructions (insns), or perf's own self share (samples).
 */
static void share_of(const struct iter_profiles *prof, const double *totals, const char *fn, double *mean,
		     double *spread)
{
	const struct func_series *s = profiles_find(prof, fn);
	double *v = xcalloc(prof->n_iter, sizeof(*v)), sd;

	for (size_t i = 0; s && i < prof->n_iter; i++)
		v[i] = prof->kind == PROFILE_INSNS ? (totals[i] > 0 ? 100 * s->v[i] / totals[i] : 0) : s->v[i];
	mean_pop_sd(v, prof->n_iter, mean, &sd);
	*spread = spread_pct(*mean, sd, prof->n_iter);
	free(v);
}

/* The functions of the point's blocks, run by run, in their order, each once; [rest] left out. */
static size_t profile_functions(const struct report *rep, size_t bi, size_t p, const char ***out)
{
	const struct where *w = rep->where;
	const char **names = NULL;
	size_t n = 0;

	for (size_t i = 0; i < w->n; i++) {
		const struct where_block *blk = &w->blocks[i];

		if (blk->bench != bi || blk->param != p || blk->none)
			continue;
		for (size_t j = 0; j < blk->n; j++) {
			size_t k;

			for (k = 0; k < n && strcmp(names[k], blk->rows[j].name); k++)
				;
			if (k < n || !strcmp(blk->rows[j].name, "[rest]"))
				continue;
			names = xreallocarray(names, n + 1, sizeof(*names));
			names[n++] = blk->rows[j].name;
		}
	}
	*out = names;
	return n;
}

/* "perf-profile.self.instructions.FUNC": the robot's perf-profile.self.cycles-pp.FUNC, counted here. */
static void profile_name(const struct iter_profiles *prof, const char *fn, char *buf, size_t len)
{
	snprintf(buf, len, "perf-profile.self.%s.%s", prof->kind == PROFILE_INSNS ? "instructions" : prof->event,
		 fn);
}

/* Each run's profile of the point; 0 when one has none (no rows then). */
static int read_profiles(const struct report *rep, const struct bench_cmp *b, size_t p, struct iter_profiles *prof)
{
	struct err e;
	int ok = 1;

	for (size_t r = 0; r < rep->n_runs; r++) {
		memset(&prof[r], 0, sizeof(prof[r]));
		if (ok && (profiles_read(rep->runs[r].path, b->data.name, b->data.params[p], &prof[r], &e) ||
			   prof[r].kind == PROFILE_NONE || !prof[r].n_iter || prof[r].kind != prof[0].kind))
			ok = 0;
	}
	return ok;
}

static void total_row(FILE *f, const struct report *rep, struct iter_profiles *prof, double **totals,
		      struct lkp_row *row)
{
	double sd;

	for (size_t r = 0; r < rep->n_runs; r++) {
		mean_pop_sd(totals[r], prof[r].n_iter, &row->mean[r], &sd);
		row->spread[r] = spread_pct(row->mean[r], sd, prof[r].n_iter);
	}
	snprintf(row->name, sizeof(row->name), "insns.total");
	put_row(f, rep, row);
}

/* The perf-profile rows, after the region's instructions unless the metric rows had them. */
static void share_rows(FILE *f, const struct report *rep, size_t bi, size_t p, int had_total, struct lkp_row *row)
{
	const struct bench_cmp *b = &rep->benches[bi];
	struct iter_profiles *prof = xcalloc(rep->n_runs, sizeof(*prof));
	double **totals = xcalloc(rep->n_runs, sizeof(*totals));
	const char **fns;
	size_t n = profile_functions(rep, bi, p, &fns);

	if (n && read_profiles(rep, b, p, prof)) {
		for (size_t r = 0; r < rep->n_runs; r++) {
			totals[r] = xcalloc(prof[r].n_iter, sizeof(**totals));
			profiles_totals(&prof[r], totals[r]);
		}
		if (prof[0].kind == PROFILE_INSNS && !had_total)
			total_row(f, rep, prof, totals, row);
		for (size_t k = 0; k < n; k++) {
			for (size_t r = 0; r < rep->n_runs; r++)
				share_of(&prof[r], totals[r], fns[k], &row->mean[r], &row->spread[r]);
			profile_name(&prof[0], fns[k], row->name, sizeof(row->name));
			put_row(f, rep, row);
		}
	}
	for (size_t r = 0; r < rep->n_runs; r++) {
		free(totals[r]);
		profiles_free(&prof[r]);
	}
	free(totals);
	free(prof);
	free(fns);
}

/*
 * Below the rows, per run, what the suite adds to the robot's view: under
 * icount, whether the work changed at all, by the total's test and the
 * bench's resolution; a point without profiles, why.
 */
static void profile_notes(FILE *f, const struct report *rep, size_t bi, size_t p)
{
	const struct where *w = rep->where;
	const char *bench = rep->benches[bi].data.name, *none = NULL;
	size_t i;

	/* One line when no run has profiles here for one reason. */
	for (i = 0; i < w->n; i++) {
		const struct where_block *blk = &w->blocks[i];

		if (blk->bench != bi || blk->param != p)
			continue;
		if (!blk->none || (none && strcmp(none, blk->none)))
			break;
		none = blk->none;
	}
	if (i == w->n && none) {
		fprintf(f, "no profile rows: %s\n", none);
		return;
	}
	for (i = 0; i < w->n; i++) {
		const struct where_block *blk = &w->blocks[i];
		const struct ttest *t = &blk->total.test;
		int significant = where_significant(&blk->total);

		if (blk->bench != bi || blk->param != p)
			continue;
		fprintf(f, "%s: ", rep->runs[blk->run].name);
		if (blk->none) {
			fprintf(f, "no profile rows: %s\n", blk->none);
			continue;
		}
		if (blk->kind != PROFILE_INSNS) {
			fprintf(f, "perf-profile rows: %zu of %zu functions changed significantly%s\n", blk->n_significant,
				blk->n_tested,
				blk->skid ? " (cpu-clock without hardware counters: samples carry interrupt-enable skid)" :
					    "");
			continue;
		}
		fprintf(f, "instructions %+.3g%%", t->has_pct ? t->diff_pct : NAN);
		if (t->outcome == TTEST_NOT_DONE)
			fprintf(f, " (not tested: %s)", t->why_not);
		else if (t->exact)
			fprintf(f, " (exact: the same count in every iteration)");
		else
			fprintf(f, " (%s, p %.2g)", significant ? "significant" : "no difference proven", t->p);
		if (blk->has_resolution)
			fprintf(f, ", %s %s's icount resolution (%.3g%%%s)", blk->beyond_resolution ? "beyond" : "within",
				bench, 100 * where_total_range(blk),
				where_total_range(blk) > blk->resolution.range ? " in these runs" : "");
		if (blk->has_resolution && !blk->beyond_resolution && !significant)
			fputs(": the work did not change", f);
		else if (blk->has_resolution && blk->beyond_resolution && significant)
			fputs(": the work changed", f);
		fputc('\n', f);
	}
}

static void print_block(FILE *f, const struct report *rep, size_t bi, size_t p, struct lkp_row *row)
{
	int had_total;

	print_axes(f, rep, &rep->benches[bi], p);
	print_columns(f, rep);
	had_total = bench_rows(f, rep, bi, p, row);
	if (rep->where) {
		share_rows(f, rep, bi, p, had_total, row);
		profile_notes(f, rep, bi, p);
	}
	fputc('\n', f);
}

void render_lkp(FILE *f, const struct report *rep)
{
	struct lkp_row row;

	row.mean = xcalloc(rep->n_runs, sizeof(*row.mean));
	row.spread = xcalloc(rep->n_runs, sizeof(*row.spread));
	if (rep->differences.n) {
		fputs("Not the same in every run:\n", f);
		differences_print(f, rep, "  ");
		fputc('\n', f);
	}
	for (size_t bi = 0; bi < rep->n_benches; bi++)
		for (size_t p = 0; p < rep->benches[bi].data.n_params; p++)
			print_block(f, rep, bi, p, &row);
	free(row.mean);
	free(row.spread);
}
