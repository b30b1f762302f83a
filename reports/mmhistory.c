/*
 * mmhistory: the C side of history.sh (which resolves names and draws).
 *   mmhistory -o ROOT ingest [RUNDIR...]
 *   mmhistory -o ROOT rebuild
 *   mmhistory -o ROOT changes [--bench B] [--metric M] [--since RUN] [--format text|json]
 *                             [--gate PCT] [--order-by KEY] [--min-segment N] [--pvalue P]
 *   mmhistory -o ROOT export OUTDIR [the same selection options]
 * Exit 0; 1 when --gate finds a regression; 3 when it has a series too
 * short to judge, or none; 2 on usage or input errors, with one line on
 * stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/histchanges.h"
#include "history/histexport.h"
#include "history/histingest.h"

struct options {
	const char *root, *since, *outdir;
	struct hist_filter filter;
	struct ed_opts ed;
	struct hist_output render;
};

static void fail(const char *fmt, const char *arg)
{
	fprintf(stderr, "history: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static double number(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < lo || v > hi) {
		fprintf(stderr, "history: %s '%s': expected a number from %g to %g\n", opt, s, lo, hi);
		exit(2);
	}
	return v;
}

static void parse_option(struct options *o, int c, const char *arg)
{
	switch (c) {
	case 'b': o->filter.bench = arg; break;
	case 'm': o->filter.metric = arg; o->render.gate_all = 1; break;
	case 's': o->since = arg; break;
	case 'k': o->filter.order_by = arg; break;
	case 'f':
		if (strcmp(arg, "text") && strcmp(arg, "json"))
			fail("--format '%s': expected text or json", arg);
		o->render.json = !strcmp(arg, "json");
		break;
	case 'g': o->render.gated = 1; o->render.gate_pct = number("--gate", arg, 0, 1e9); break;
	case 'n': o->ed.min_seg = (size_t)number("--min-segment", arg, 2, 1000); break;
	case 'p': o->ed.max_p = number("--pvalue", arg, 1e-300, 0.5); break;
	case 'w': o->ed.window = (size_t)number("--window", arg, 6, 1e6); break;
	default: exit(2);	/* getopt said what */
	}
}

static void parse_args(struct options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bench", required_argument, NULL, 'b' }, { "metric", required_argument, NULL, 'm' },
		{ "since", required_argument, NULL, 's' }, { "order-by", required_argument, NULL, 'k' },
		{ "format", required_argument, NULL, 'f' }, { "gate", required_argument, NULL, 'g' },
		{ "min-segment", required_argument, NULL, 'n' }, { "pvalue", required_argument, NULL, 'p' },
		{ "window", required_argument, NULL, 'w' }, { NULL, 0, NULL, 0 },
	};
	int c;

	/* Otava's defaults: p <= 0.001, windows of 50 runs; three runs a side
	 * at least, so that no single run (a spike) is a level of its own */
	*o = (struct options){ .ed = { .max_p = 0.001, .min_seg = 3, .window = 50 } };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1)
		parse_option(o, c, optarg);
	if (o->ed.window < 2 * o->ed.min_seg)
		o->ed.window = 2 * o->ed.min_seg;
	o->render.min_seg = o->ed.min_seg;
}

/* Start of the newest run named `name` (names repeat across hosts). */
static double since_epoch(const struct hist_data *d, const char *name)
{
	double t = -INFINITY;

	for (size_t i = 0; i < d->n_runs; i++)
		if (!strcmp(d->runs[i].name, name) && d->runs[i].epoch > t)
			t = d->runs[i].epoch;
	if (t == -INFINITY)
		fail("--since %s: no run of that name in the history", name);
	return t;
}

static void print_splits(sqlite3 *db, const struct hist_data *d)
{
	for (size_t i = 0; i < d->n_splits; i++) {
		const struct hsplit *s = &d->splits[i];
		char *a = hist_config_text(db, s->config[0]), *b = hist_config_text(db, s->config[1]);
		char *sa, *sb, *la = strtok_r(a, "\n", &sa), *lb = strtok_r(b, "\n", &sb);

		/* the first line where the two configs part */
		while (la && lb && !strcmp(la, lb)) {
			la = strtok_r(NULL, "\n", &sa);
			lb = strtok_r(NULL, "\n", &sb);
		}
		la = la ? la : "";
		lb = lb ? lb : "";
		fprintf(stderr, "history: %s%s%s on %s ran with %zu configs, kept as separate series (%s | %s)\n",
			s->bench, strcmp(s->param, "-") ? " " : "", strcmp(s->param, "-") ? s->param : "",
			s->machine, s->n_configs, la, lb);
		free(a);
		free(b);
	}
	if (d->unordered)
		fprintf(stderr, "history: %zu runs have no such meta key; left out\n", d->unordered);
}

/*
 * The history as one snapshot.  A database read as immutable (this user
 * may not create its -shm) is read again when a writer changed it meanwhile.
 */
static sqlite3 *load(struct options *o, struct hist_data *d)
{
	struct err e;
	sqlite3 *db;

	for (int tries = 0;; tries++) {
		if (hist_read_root(&db, o->root, &e) || hist_load(db, &o->filter, d, &e))
			fail("%s", e.msg);
		if (histdb_unchanged(db))
			return db;
		hist_data_free(d);
		sqlite3_close(db);
		if (tries == 5)
			fail("%s", "the history changed each time it was read; try again when no one writes it");
	}
}

static int analyse(struct options *o, int export)
{
	struct hist_data d;
	struct hist_changes c;
	sqlite3 *db = load(o, &d);
	struct err e;
	int status = 0;

	if ((o->filter.bench || o->filter.metric) && !d.n_series)
		fail("%s", "no series in the history has that bench and metric");
	print_splits(db, &d);
	hist_detect(&d, &o->ed, o->since ? since_epoch(&d, o->since) : -INFINITY, &c);
	if (export && hist_export(db, o->outdir, &d, &c, &e))
		fail("%s", e.msg);
	if (!export)
		status = hist_render(stdout, &d, &c, &o->render);
	if (fflush(stdout) || ferror(stdout))
		fail("%s", "error writing the output");
	hist_changes_free(&d, &c);
	hist_data_free(&d);
	sqlite3_close(db);
	return status;
}

int main(int argc, char **argv)
{
	struct options o;
	struct err e;
	const char *cmd;
	size_t bad = 0;

	if (argc < 4 || strcmp(argv[1], "-o"))
		fail("%s", "usage: mmhistory -o ROOT ingest|rebuild|changes|export ...");
	cmd = argv[3];
	parse_args(&o, argc - 3, argv + 3);
	o.root = argv[2];
	if (!strcmp(cmd, "ingest") && optind < argc - 3) {
		if (hist_ingest(o.root, argv + 3 + optind, (size_t)(argc - 3 - optind), &e))
			fail("%s", e.msg);
		return 0;
	}
	if (optind != argc - 3 - !strcmp(cmd, "export"))
		fail("%s", "unexpected arguments (see ./history.sh --help)");
	if (!strcmp(cmd, "ingest") || !strcmp(cmd, "rebuild")) {
		if ((!strcmp(cmd, "ingest") ? hist_ingest_all : hist_rebuild)(o.root, &bad, &e))
			fail("%s", e.msg);
		return bad ? 2 : 0;
	}
	if (!strcmp(cmd, "export"))
		o.outdir = argv[argc - 1];
	else if (strcmp(cmd, "changes"))
		fail("unknown command '%s' (ingest, rebuild, changes, html)", cmd);
	return analyse(&o, !strcmp(cmd, "export"));
}
