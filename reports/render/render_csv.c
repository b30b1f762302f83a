/*
 * CSV for spreadsheets: one row per bench, metric, swept value and run, with
 * every statistic in SI base units at full precision (%.17g round-trips a
 * double).  Undefined values are empty fields.  The last field, constant,
 * is 1 for a metric that is one number in every run (the tables' one line).
 */
#include <string.h>

#include "render.h"
#include "compare/rows.h"
#include "stats/statrows.h"

static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, int has, double v)
{
	fputc(',', f);
	if (has)
		fprintf(f, "%.17g", v);
}

static void csv_header(FILE *f)
{
	fputs("bench,metric,label,unit,better,param,run,status,n", f);
	for (enum stat_id s = ST_MIN; s < ST_COUNT; s++)
		fprintf(f, ",%s", stat_name(s));
	for (enum stat_id s = ST_MIN; s < ST_COUNT; s++)
		fprintf(f, ",pct_%s", stat_name(s));
	fputs(",test,diff,ci_half,diff_pct,ci_half_pct,df,t,p_value,verdict,constant\n", f);
}

static const char *verdict(const struct ttest *t, size_t run)
{
	if (run == 0)
		return "baseline";
	return t->outcome == TTEST_DIFFERENCE ? "difference" :
	       t->outcome == TTEST_NO_DIFFERENCE ? "no difference" : "no test";
}

static void csv_test(FILE *f, const struct report *rep, const struct ttest *t, size_t r)
{
	int done = r > 0 && t->outcome != TTEST_NOT_DONE;

	fprintf(f, ",%s", r > 0 ? ttest_kind_name(rep->opt.test) : "");
	csv_num(f, done, t->diff);
	csv_num(f, done, t->ci_half);
	csv_num(f, done && t->has_pct, t->diff_pct);
	csv_num(f, done && t->has_pct, t->ci_half_pct);
	csv_num(f, done, t->df);
	csv_num(f, done, t->t);
	csv_num(f, done, t->p);
	fprintf(f, ",%s", verdict(t, r));
}

static void csv_cell(FILE *f, const struct report *rep, const struct bench_cmp *b,
		     size_t m, size_t p, size_t r)
{
	const struct metric_def *md = &b->data.metrics[m];
	const struct cmp_cell *c = report_cell(b, p, r, m), *base = report_cell(b, p, 0, m);
	double v = 0;
	int has;

	csv_str(f, b->data.name);
	fputc(',', f);
	csv_str(f, md->name);
	fputc(',', f);
	csv_str(f, md->label);
	fprintf(f, ",%s,%s,", md->unit, better_name(md->better));
	csv_str(f, b->data.params[p]);
	fputc(',', f);
	csv_str(f, rep->runs[r].name);
	fprintf(f, ",%s,%zu", rep->runs[r].status, c->s.n);
	/* `has` first: argument evaluation order would race it with v */
	for (enum stat_id s = ST_MIN; s < ST_COUNT; s++) {
		has = c->s.n && stat_value(&c->s, s, &v);
		csv_num(f, has, v);
	}
	for (enum stat_id s = ST_MIN; s < ST_COUNT; s++) {
		has = c->s.n && base->s.n &&
		      stat_pct(&base->s, &c->s, s, md->better, &v);
		csv_num(f, has, v);
	}
	csv_test(f, rep, &c->test, r);
	/* the tables print such a metric as one line (rows.h) */
	fprintf(f, ",%d\n", metric_constant(b, m));
}

void render_csv(FILE *f, const struct report *rep)
{
	csv_header(f);
	for (size_t i = 0; i < rep->n_benches; i++) {
		const struct bench_cmp *b = &rep->benches[i];

		for (size_t m = 0; m < b->data.n_metrics; m++)
			for (size_t p = 0; p < b->data.n_params; p++)
				for (size_t r = 0; r < rep->n_runs; r++)
					csv_cell(f, rep, b, m, p, r);
	}
}
