/*
 * The run-sequence plot (plotseq.c): each run's values in the order run.sh
 * measured them, warm-ups included.
 */
#ifndef MMDELTA_PLOTSEQ_H
#define MMDELTA_PLOTSEQ_H

#include "plotfile.h"

/* The run-sequence plot's seq.dat and marks.gp (plotseq.c). */
int plot_runseq(const struct plot *pl, struct err *e);

#endif
