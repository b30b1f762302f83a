/*
 * mmci: ITERATIONS=auto's stopping check.  The mean of one bench's metric at
 * one swept value of a (partial) run, and its 95% confidence interval:
 *
 *   mmci --target PCT RUNDIR BENCH METRIC PARAM
 *
 * prints n<TAB>mean<TAB>half_width<TAB>half_width_percent_of_|mean|<TAB>
 * divisor<TAB>unit, the last two how compare.sh's table would show the mean
 * (compare/units.c: shown = mean / divisor, in unit; bisect.sh's lines), and
 * exits 0 when the half width is within PCT percent of the mean, 1 when not
 * yet (the half width is "inf" with fewer than 2 values, the percentage
 * then and with a zero mean: a counter that is 0 in every run has a half
 * width of 0, which bisect.sh needs to tell it from an unknown one),
 * 2 when the run cannot be read (one line on stderr).
 *
 *   mmci --iterations CV PCT MAX
 *
 * prints n<TAB>seen: the iterations (2 to MAX) two runs at coefficient of
 * variation CV need to see a change of PCT percent, and the change in
 * percent that count sees (stats/meanci.h, iterations_for); a --kernel run
 * under icount takes its count from it (drivers/vm/resolution.sh).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/report.h"
#include "compare/units.h"
#include "stats/meanci.h"

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "mmci: %s%s\n", what, arg);
	exit(2);
}

/* The summary of METRIC at PARAM in the only run of rep, and its unit. */
static const struct summary *find(const struct report *rep, char **argv, const char **unit)
{
	for (size_t i = 0; i < rep->n_benches; i++) {
		const struct bench_cmp *b = &rep->benches[i];
		int m = bench_metric_index(&b->data, argv[1]);

		if (strcmp(b->data.name, argv[0]))
			continue;
		if (m < 0)
			die("no metric ", argv[1]);
		*unit = b->data.metrics[m].unit;
		for (size_t p = 0; p < b->data.n_params; p++)
			if (!strcmp(b->data.params[p], argv[2]))
				return &report_cell(b, p, 0, (size_t)m)->s;
		die("no samples at ", argv[2]);
	}
	die("no bench ", argv[0]);
	return NULL;
}

/* --iterations' bad argument: one line, exit 2. */
static void bad(const char *what, const char *arg)
{
	fprintf(stderr, "mmci: --iterations: %s, not '%s'\n", what, arg);
	exit(2);
}

/* A number argument of --iterations, at least min; exit 2 otherwise. */
static double number(const char *what, const char *arg, double min)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || errno || !isfinite(v) || !(v >= min))
		bad(what, arg);
	return v;
}

static int iterations(char **argv)
{
	double cv = number("CV must be a number >= 0", argv[0], 0);
	double pct = number("PCT must be a percentage > 0", argv[1], 0);
	unsigned long max;
	char *end;
	double seen;
	unsigned n;

	if (!(pct > 0))
		bad("PCT must be a percentage > 0", argv[1]);
	errno = 0;
	max = strtoul(argv[2], &end, 10);
	if (*argv[2] < '0' || *argv[2] > '9' || *end || errno || max < 2 || max > 100000)
		bad("MAX must be a whole number from 2 to 100000", argv[2]);
	n = iterations_for(cv, pct, (unsigned)max, &seen);
	printf("%u\t%.3g\n", n, seen);
	return 0;
}

int main(int argc, char **argv)
{
	struct report_opts opt = { .alpha = 0.05, .test = TTEST_WELCH, .allow_partial = 1 };
	struct report rep;
	struct err e;
	const struct summary *s;
	const char *unit = "";
	struct scale sc;
	double target, half, pct;
	char *end;

	if (argc == 5 && !strcmp(argv[1], "--iterations"))
		return iterations(argv + 2);
	if (argc != 7 || strcmp(argv[1], "--target"))
		die("usage: mmci --target PCT RUNDIR BENCH METRIC PARAM, or mmci --iterations CV PCT MAX", "");
	errno = 0;
	target = strtod(argv[2], &end);
	if (!*argv[2] || *end || errno || !(target > 0))
		die("--target: expected a percentage > 0, not ", argv[2]);
	if (report_build(&rep, argv + 3, 1, &opt, &e))
		die(e.msg, "");
	s = find(&rep, argv + 4, &unit);
	unit_scale(unit, s->mean, &sc);
	if (mean_ci_half(s, 0.95, &half)) {
		printf("%zu\t%.15g\tinf\tinf\t%.15g\t%s\n", s->n, s->mean, sc.div, sc.unit);
		report_free(&rep);
		return 1;
	}
	if (s->mean == 0) {
		printf("%zu\t%.15g\t%.15g\tinf\t%.15g\t%s\n", s->n, s->mean, half, sc.div, sc.unit);
		report_free(&rep);
		return 1;
	}
	pct = 100.0 * half / fabs(s->mean);
	printf("%zu\t%.15g\t%.15g\t%.15g\t%.15g\t%s\n", s->n, s->mean, half, pct, sc.div, sc.unit);
	report_free(&rep);
	return pct <= target ? 0 : 1;
}
