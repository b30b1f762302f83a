/*
 * mmseq: one look of run.sh's sequential gate.  After each counted
 * iteration of a candidate run, the gate's verdict for one bench's primary
 * metric at one swept value, against the baseline run, with the repeated
 * confidence interval of this look (seqbound.h):
 *
 *   mmseq --gate PCT --max N [--alpha A] BASE_RUNDIR CAND_RUNDIR BENCH PARAM
 *
 * prints the verdict line and exits 0 pass, 1 REGRESSION, 3 not decided
 * yet, 2 when the runs cannot be compared (one line on stderr).
 * Also, before any iteration:
 *
 *   mmseq --check BASE_RUNDIR BENCH PARAM
 *
 * exits 2 with the reason when the baseline cannot serve (no such bench or
 * swept value, fewer than 2 samples).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate.h"
#include "gate/gateline.h"
#include "stats/seqbound.h"

struct args {
	double pct, alpha;
	size_t max;
	int check;
	char **rest;
	int n_rest;
};

static void die(const char *fmt, const char *arg)
{
	fputs("mmseq: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static double number(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < 0)
		die("%s: expected a number >= 0", opt);
	return v;
}

static void parse(struct args *a, int argc, char **argv)
{
	int i = 1;

	*a = (struct args){ .alpha = 0.05 };
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--check"))
			a->check = 1;
		else if (i + 1 >= argc)
			die("%s needs a value", argv[i]);
		else if (!strcmp(argv[i], "--gate"))
			a->pct = number("--gate", argv[++i]);
		else if (!strcmp(argv[i], "--max"))
			a->max = (size_t)number("--max", argv[++i]);
		else if (!strcmp(argv[i], "--alpha"))
			a->alpha = number("--alpha", argv[++i]);
		else
			die("unknown option %s", argv[i]);
	}
	a->rest = argv + i;
	a->n_rest = argc - i;
	if (a->n_rest != (a->check ? 3 : 4) || !(a->alpha > 0 && a->alpha < 1))
		die("%s", "usage: mmseq --gate PCT --max N [--alpha A] BASE CAND BENCH PARAM | --check BASE BENCH PARAM");
}

static size_t find_bench(const struct report *rep, const char *name, struct err *e)
{
	for (size_t i = 0; i < rep->n_benches; i++)
		if (!strcmp(rep->benches[i].data.name, name))
			return i;
	err_set(e, "baseline run '%s' has no bench %s", rep->runs[0].name, name);
	return (size_t)-1;
}

/* The swept value's index, with at least 2 baseline samples of the primary metric. */
static size_t find_param(const struct report *rep, const struct bench_cmp *b,
			 const char *param, struct err *e)
{
	for (size_t p = 0; p < b->data.n_params; p++)
		if (!strcmp(b->data.params[p], param)) {
			size_t n = report_cell(b, p, 0, 0)->s.n;

			if (n >= 2)
				return p;
			err_set(e, "baseline run '%s' has %zu sample%s of %s %s%s%s: the gate needs 2 or more",
				rep->runs[0].name, n, n == 1 ? "" : "s", b->data.name,
				b->data.metrics[0].name, strcmp(param, "-") ? "-" : "",
				strcmp(param, "-") ? param : "");
			return (size_t)-1;
		}
	err_set(e, "baseline run '%s' has no %s samples at %s", rep->runs[0].name, b->data.name, param);
	return (size_t)-1;
}

static int look(const struct args *a, struct report *rep, struct err *e)
{
	struct gate g = { .pct = a->pct, .seq = { .max = a->max, .alpha = a->alpha } };
	size_t bi = find_bench(rep, a->rest[a->check ? 1 : 2], e), p;
	char line[1024];
	int status;

	if (bi == (size_t)-1 ||
	    (p = find_param(rep, &rep->benches[bi], a->rest[a->check ? 2 : 3], e)) == (size_t)-1)
		return -1;
	if (a->check)
		return 0;
	if (gate_judge(rep, &g, bi, 0, p, 1, e))
		return -1;
	gate_line(rep, &g.res[0], g.pct, line, sizeof(line));
	printf("%s\n", line);
	status = gate_status(&g);
	gate_free(&g);
	return status;
}

int main(int argc, char **argv)
{
	struct report_opts opt = { .alpha = 0.05, .test = TTEST_WELCH, .allow_partial = 1 };
	struct args a;
	struct report rep;
	struct err e;
	int status;

	parse(&a, argc, argv);
	if (!a.check && (a.max < SEQ_FIRST_LOOK || a.max > SEQ_MAX_LOOKS)) {
		char max[32];

		snprintf(max, sizeof(max), "%zu", a.max);
		die("--max %s: the sequential gate looks from iteration 3 to at most 200", max);
	}
	if (report_build(&rep, a.rest, a.check ? 1 : 2, &opt, &e))
		die("%s", e.msg);
	status = look(&a, &rep, &e);
	if (status < 0)
		die("%s", e.msg);
	report_free(&rep);
	return status;
}
