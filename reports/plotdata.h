/*
 * The data files of the gnuplot scripts (reports/{box,runseq,delta,sweep}.gp),
 * written from the comparison itself, so that a plot shows the numbers of
 * the table beside it: the same unit, quartiles, means, intervals and
 * significance.  The scripts only draw.
 *
 * For each plot, DIR/BENCH-METRIC-KIND/ holds vars.gp (titles, labels, run
 * names and colours) and the kind's data; DIR/plots.list has one line per
 * plot, "BENCH<TAB>METRIC<TAB>KIND<TAB>NAME", or NAME "-" and a fifth field
 * saying why there is no such plot.
 */
#ifndef MMDELTA_PLOTDATA_H
#define MMDELTA_PLOTDATA_H

#include <stdio.h>

#include "rows.h"

/* One colour per run ("0072B2"), the same on every plot and the page. */
const char *run_color(size_t run);
int plot_data_write(const struct report *rep, const char *dir, struct err *e);

/* Shared by the plot writers (plotdata.c, plotseq.c). */
struct plot {
	const struct report *rep;
	const struct bench_cmp *b;
	size_t m;
	struct scale sc;	/* the table's display unit */
	const char *swept;	/* the swept key, "SIZE", or "value" */
	char dir[4096];		/* DIR/BENCH-METRIC-KIND */
};

/* A gnuplot single-quoted string: nothing is special in it but the quote. */
void gp_str(FILE *f, const char *s);
/* Open plot->dir/NAME for writing, or fill e. */
FILE *plot_file(const struct plot *pl, const char *name, struct err *e);
int plot_close(FILE *f, const struct plot *pl, const char *name, struct err *e);
/* The run-sequence plot's seq.dat and marks.gp (plotseq.c). */
int plot_runseq(const struct plot *pl, struct err *e);

#endif
