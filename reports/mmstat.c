/*
 * mmstat: the arithmetic behind compare.sh.  Reads run directories, compares
 * every bench they share against the first run, prints the tables and applies
 * the CI gate.  Exit 0, 1 when the gate finds a regression, 3 when it is
 * inconclusive (unless --inconclusive pass|fail), 2 on usage or input errors
 * (one line on stderr naming the problem).
 *
 * usage: mmstat --result RUN/BENCH    (run.sh's lines at the end of a bench)
 *        mmstat [--format text|markdown|csv|json|html|lkp] [--alpha A]
 *               [--test welch|student] [--allow-partial] [--all-metrics]
 *               [--threshold PCT]
 *               [--plot-data DIR] [--plots DIR] [--profile [--top N]]
 *               [--gate PCT [--gate-metric M]... [--inconclusive pass|fail]
 *               [--junit FILE]] RUNDIR RUNDIR...
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "compare/report.h"
#include "gate/gate.h"
#include "gate/gateline.h"
#include "plot/plotdata.h"
#include "plot/plotwhere.h"
#include "profile/where.h"
#include "render/render.h"
#include "render/result.h"

enum format { FMT_TEXT, FMT_MARKDOWN, FMT_CSV, FMT_JSON, FMT_HTML, FMT_LKP };

struct options {
	struct report_opts rep;
	enum format format;
	int gated;
	struct gate gate;
	char **gate_metrics;
	const char *junit;
	int policy_set;
	const char *plot_data;	/* --plot-data: write the plots' data files here */
	const char *plots;	/* --plots: where the HTML page's plots are */
	int profile;		/* --profile: the "where" blocks */
	size_t top;		/* --top N: functions a block shows */
};

static void fail(const char *fmt, const char *arg)
{
	fprintf(stderr, "mmstat: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

/* A number with lo < v < hi (lo <= v when lo_ok), or exit naming the option. */
static double parse_number(const char *opt, const char *s, double lo, int lo_ok,
			   double hi, const char *expected)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < lo || (v == lo && !lo_ok) || v >= hi) {
		fprintf(stderr, "mmstat: %s '%s': expected %s\n", opt, s, expected);
		exit(2);
	}
	return v;
}

static enum format parse_format(const char *s)
{
	static const char *const names[] = { "text", "markdown", "csv", "json", "html", "lkp" };

	for (int i = 0; i < 6; i++)
		if (!strcmp(s, names[i]))
			return (enum format)i;
	fail("--format '%s': expected text, markdown, csv, json, html or lkp", s);
	return FMT_TEXT;
}

static void add_gate_metric(struct options *o, const char *m)
{
	o->gate_metrics = xreallocarray(o->gate_metrics, o->gate.n_metrics + 1, sizeof(char *));
	o->gate_metrics[o->gate.n_metrics++] = (char *)m;
	o->gate.metrics = o->gate_metrics;
}

static void parse_option(struct options *o, int c, const char *arg)
{
	switch (c) {
	case 'f': o->format = parse_format(arg); break;
	case 'a': o->rep.alpha = parse_number("--alpha", arg, 0, 0, 1, "a level between 0 and 1, such as 0.05");
		break;
	case 't':
		if (strcmp(arg, "welch") && strcmp(arg, "student"))
			fail("--test '%s': expected welch or student", arg);
		o->rep.test = strcmp(arg, "student") ? TTEST_WELCH : TTEST_STUDENT;
		break;
	case 'p': o->rep.allow_partial = 1; break;
	case 'u': o->rep.unlike_clocks = 1; break;
	case 'A': o->rep.all_metrics = 1; break;
	case 'h':
		o->rep.threshold = parse_number("--threshold", arg, 0, 1, 1e9, "a percentage, 0 or more");
		break;
	case 'g':
		o->gated = 1;
		o->gate.pct = parse_number("--gate", arg, 0, 1, 1e9, "a percentage, 0 or more");
		break;
	case 'm': add_gate_metric(o, arg); break;
	case 'j': o->junit = arg; break;
	case 'i':
		if (strcmp(arg, "pass") && strcmp(arg, "fail"))
			fail("--inconclusive '%s': expected pass or fail", arg);
		o->gate.policy = strcmp(arg, "pass") ? GATE_INCONCLUSIVE_FAIL : GATE_INCONCLUSIVE_PASS;
		o->policy_set = 1;
		break;
	case 'D': o->plot_data = arg; o->rep.warmups = 1; break;
	case 'P': o->plots = arg; break;
	case 'W': o->profile = 1; break;
	case 'T':
		o->top = (size_t)parse_number("--top", arg, 1, 1, 1e6, "a whole number of functions, 1 or more");
		if ((double)o->top != strtod(arg, NULL))
			fail("--top '%s': expected a whole number of functions, 1 or more", arg);
		break;
	default: exit(2);	/* getopt printed the problem */
	}
}

static void parse_args(struct options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "test", required_argument, NULL, 't' },
		{ "allow-partial", no_argument, NULL, 'p' },
		{ "unlike-clocks", no_argument, NULL, 'u' },
		{ "all-metrics", no_argument, NULL, 'A' },
		{ "threshold", required_argument, NULL, 'h' },
		{ "gate", required_argument, NULL, 'g' },
		{ "gate-metric", required_argument, NULL, 'm' },
		{ "junit", required_argument, NULL, 'j' },
		{ "inconclusive", required_argument, NULL, 'i' },
		{ "plot-data", required_argument, NULL, 'D' },
		{ "plots", required_argument, NULL, 'P' },
		{ "profile", no_argument, NULL, 'W' },
		{ "top", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct options){ .rep = { .alpha = 0.05, .test = TTEST_WELCH, .threshold = CHANGE_THRESHOLD }, .top = WHERE_TOP };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1)
		parse_option(o, c, optarg);
	if (argc - optind < 2)
		fail("%s", "need at least two run directories (the first is the baseline)");
	if (!o->gated && (o->gate.n_metrics || o->junit || o->policy_set))
		fail("%s", "--gate-metric, --inconclusive and --junit need --gate PCT");
	if (o->top != WHERE_TOP && !o->profile)
		fail("%s", "--top N needs --profile");
}

static void render(FILE *f, const struct options *o, const struct report *rep)
{
	struct err e;

	switch (o->format) {
	case FMT_TEXT: render_text(f, rep); break;
	case FMT_MARKDOWN: render_markdown(f, rep); break;
	case FMT_LKP: render_lkp(f, rep); break;
	case FMT_CSV: render_csv(f, rep); break;
	case FMT_JSON: render_json(f, rep, o->gated ? &o->gate : NULL); break;
	case FMT_HTML:
		if (render_html(f, rep, o->gated ? &o->gate : NULL, o->plots, &e))
			fail("%s", e.msg);
		break;
	}
}

/*
 * Notes go to stderr so that stdout stays a table or a document: per run,
 * one line per bench it lacks and one line for all the metrics it lacks
 * (a monitor's counters can be dozens; JSON's "missing" lists every one).
 */
static void print_missing(const struct report *rep)
{
	char line[1024];

	for (size_t r = 0; r < rep->n_runs; r++) {
		for (size_t i = 0; i < rep->missing.n; i++) {
			const struct missing_note *n = &rep->missing.notes[i];

			if (n->run == r && !n->metric)
				fprintf(stderr, "mmstat: run '%s' lacks bench '%s'; not compared\n",
					rep->runs[r].name, n->bench);
		}
		if (missing_metrics_line(&rep->missing, r, line, sizeof(line)))
			fprintf(stderr, "mmstat: run '%s' lacks %s\n", rep->runs[r].name, line);
	}
}

/* CSV has no place for them above its rows: they go with the notes. */
static void print_unlike(const struct options *o, const struct report *rep)
{
	char line[2048];

	if (machines_note(rep, line, sizeof(line)))
		fprintf(stderr, "mmstat: %s\n", line);
	if (o->format == FMT_CSV)
		differences_print(stderr, rep, "mmstat: not the same in every run: ");
}

/*
 * Verdict lines follow a table, or go to stderr after a document, under a
 * line that says how to read their percentages (they may be read alone, in
 * a CI log).
 */
static void print_gate(const struct options *o, const struct report *rep)
{
	FILE *f = o->format == FMT_TEXT || o->format == FMT_MARKDOWN ? stdout : stderr;
	char line[2048];

	fprintf(f, "\nGate at %g%%: percentages are the change of the mean against %s, positive = better.\n",
		o->gate.pct, rep->runs[0].name);
	for (size_t i = 0; i < o->gate.n_res; i++) {
		gate_text(rep, &o->gate, &o->gate.res[i], line, sizeof(line));
		fprintf(f, "gate: %s\n", line);
	}
}

int main(int argc, char **argv)
{
	struct options o;
	struct report rep;
	struct where where;
	struct err e;
	int status = 0;

	if (argc == 3 && strcmp(argv[1], "--result") == 0) {
		if (result_print(stdout, argv[2], &e))
			fail("%s", e.msg);
		return 0;
	}
	parse_args(&o, argc, argv);
	if (report_build(&rep, argv + optind, (size_t)(argc - optind), &o.rep, &e))
		fail("%s", e.msg);
	if (o.gated && gate_evaluate(&rep, &o.gate, &e))
		fail("%s", e.msg);
	if (o.profile) {
		if (where_build(&rep, o.top, &where, &e))
			fail("%s", e.msg);
		rep.where = &where;
	}
	/* Before the table: a JUnit file that cannot be written is bad input,
	 * answered in one line, not after a table that looks like success. */
	if (o.junit && render_junit(o.junit, &rep, &o.gate, &e))
		fail("%s", e.msg);
	if (o.plot_data && (plot_data_write(&rep, o.plot_data, &e) || plot_where_write(&rep, o.plot_data, &e)))
		fail("%s", e.msg);
	print_missing(&rep);
	print_unlike(&o, &rep);
	render(stdout, &o, &rep);
	if (o.gated) {
		print_gate(&o, &rep);
		status = gate_status(&o.gate);
	}
	if (fflush(stdout) || ferror(stdout))
		fail("%s", "error writing the output");
	gate_free(&o.gate);
	free(o.gate_metrics);
	if (o.profile)
		where_free(&where);
	report_free(&rep);
	return status;
}
