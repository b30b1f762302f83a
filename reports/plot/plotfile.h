/*
 * One plot being written: the comparison it is drawn from, the metric, the
 * table's display unit, and the directory of its files.  Shared by the
 * writers of every kind of plot (plotdata.c, plotseq.c), and each run's
 * colour, which the HTML page uses too.
 */
#ifndef MMDELTA_PLOTFILE_H
#define MMDELTA_PLOTFILE_H

#include <stdio.h>

#include "compare/rows.h"

struct plot {
	const struct report *rep;
	const struct bench_cmp *b;
	size_t m;
	struct scale sc;	/* the table's display unit */
	const char *swept;	/* the swept key, "SIZE", or "value" */
	char dir[4096];		/* DIR/BENCH-METRIC-KIND */
};

/* One colour per run ("0072B2"), the same on every plot and the page. */
const char *run_color(size_t run);
/* A gnuplot single-quoted string: nothing is special in it but the quote. */
void gp_str(FILE *f, const char *s);
/* Open plot->dir/NAME for writing, or fill e. */
FILE *plot_file(const struct plot *pl, const char *name, struct err *e);
int plot_close(FILE *f, const struct plot *pl, const char *name, struct err *e);

#endif
