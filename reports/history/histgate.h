/*
 * The history's gate, `history.sh changes --gate PCT` (histgate.c): the
 * newest level of a series against the level before it.  compare.sh's gate
 * and run.sh's sequential gate are reports/gate/.
 */
#ifndef MMDELTA_HISTGATE_H
#define MMDELTA_HISTGATE_H

#include <stdio.h>

#include "histchanges.h"

/* Does this change fail the gate? */
int hist_gate_fails(const struct hchange *c, const struct hist_output *o);
/* The gate's lines; *failed counts the series that fail, *inconclusive
 * those too short to judge (or 1 when no series is gated at all). */
void hist_gate_lines(FILE *f, const struct hist_data *d, const struct hist_changes *c,
		     const struct hist_output *o, size_t *failed, size_t *inconclusive);

#endif
