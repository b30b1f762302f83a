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

#include "compare/report.h"

int plot_data_write(const struct report *rep, const char *dir, struct err *e);

#endif
