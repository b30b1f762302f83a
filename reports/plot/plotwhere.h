/*
 * The --profile blocks' plot (compare.sh --plot/--html with --profile): a
 * diverging bar chart of each block's top functions, their change per
 * iteration, drawn by where.gp as DIR/where-BENCH-POINT-RUN (the indexes of
 * the sweep point and the run).
 */
#ifndef MMDELTA_PLOTWHERE_H
#define MMDELTA_PLOTWHERE_H

#include "base/err.h"
#include "compare/report.h"

/* Its data files under dir, and a line each in dir/plots.list. */
int plot_where_write(const struct report *rep, const char *dir, struct err *e);

#endif
