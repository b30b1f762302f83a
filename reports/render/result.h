/*
 * The end of a run: one bench directory (RUN/BENCH) summarized in a few
 * lines for the terminal.  The bench's own metrics get their mean in a unit
 * that reads well, and, unless they are counters, their spread; the
 * monitors get one line saying what they put into samples.tsv.
 */
#ifndef MMDELTA_RESULT_H
#define MMDELTA_RESULT_H

#include <stdio.h>

#include "base/err.h"

int result_print(FILE *f, const char *benchdir, struct err *e);

#endif
