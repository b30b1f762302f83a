/*
 * The sequential gate's boundaries: how wide the interval must be at each
 * look so that looking after every iteration does not inflate the errors.
 *
 * run.sh --baseline BASE --gate PCT looks at the candidate after each of its
 * counted iterations n = 3, 4, ..., MAX_ITERATIONS, and stops at the first
 * decided verdict.  An interval that covers with 95% at one look covers
 * with much less than 95% at some look out of 28.  The intervals used are
 * therefore repeated confidence intervals (Jennison & Turnbull, 1989): at
 * look n the interval leaves a one-sided tail tail(n) instead of 2.5%, with
 * tail(n) from the Lan-DeMets spending function of O'Brien-Fleming type,
 *     spent(t) = 2 - 2 Phi(z(1 - alpha1/2) / sqrt(t)),  t = n / MAX,
 * so that all of them together cover the true change with 1 - 2*alpha1.
 * The boundaries come from the recursive numerical integration of
 * Armitage, McPherson and Rowe over the joint normal distribution of the
 * looks.  They are computed as if the baseline were exact (information
 * proportional to n): a baseline's own noise is common to every look, which
 * only raises their correlation, and by Slepian's inequality that lowers
 * the chance of any crossing, so the boundaries stay valid, and
 * conservative, for any baseline.  Each look's normal tail is used with the
 * t distribution of that look's degrees of freedom (change.h).
 */
#ifndef MMDELTA_SEQBOUND_H
#define MMDELTA_SEQBOUND_H

#include <stddef.h>

#include "base/err.h"

#define SEQ_FIRST_LOOK 3	/* two values give a uselessly wide t */
#define SEQ_MAX_LOOKS 200	/* the integration's cost grows with max^2 */

/*
 * tail[n] for n = SEQ_FIRST_LOOK..max (tail has max + 1 entries; the first
 * ones are unused): the one-sided normal tail of look n when the whole
 * sequence may spend alpha1 on each side.  -1 with a message when max is
 * out of range.
 */
int seq_tails(size_t max, double alpha1, double *tail, struct err *e);

/* One look's tail, cached for the last (max, alpha1) asked. */
int seq_tail(size_t n, size_t max, double alpha1, double *tail, struct err *e);

/*
 * P(Z_n >= z[n] at some look n = first..last) for the standardized sums
 * Z_n of n independent normal steps: the integration behind seq_tails, for
 * checking it against published figures.
 */
double seq_crossing(size_t first, size_t last, const double *z);

/* What the spending function has spent by fraction t of the looks. */
double seq_spent(double t, double alpha1);

#endif
