/*
 * Isolated outlier runs of a series (outliers.c): a bad night (a noisy
 * neighbour, a firmware hiccup) is one run far from the runs on both sides
 * of it.  Left in, one 30%-slow night inflates the run-to-run scatter that
 * the segment test divides by, and hides every step of its series; set
 * aside, the change points are found among the other runs, and the
 * outliers are listed beside them (CAPA's point anomalies, found here by a
 * simpler rule: docs/history.md).
 */
#ifndef MMDELTA_OUTLIERS_H
#define MMDELTA_OUTLIERS_H

#include <stddef.h>

#include "segtest.h"

/* Neighbours a run is judged against, on each side. */
#define OUTLIER_SIDE 5
/* Robust standard deviations of the run-to-run scatter from both sides' medians. */
#define OUTLIER_SIGMAS 5.0

/*
 * Flag the isolated outliers of pt[0, n) in flag[] (1 = set aside); returns
 * how many.  A run is one when its mean is more than OUTLIER_SIGMAS robust
 * standard deviations (of consecutive run means' differences) from the
 * median of the OUTLIER_SIDE runs before it and from the median of those
 * after it, on the same side of both.  A run needs 2 runs on each side to
 * be judged: the two oldest and the two newest never are (tonight's run
 * may start a new level).  min_seg or more flagged runs in a row are a
 * level, not outliers.
 */
size_t outlier_runs(const struct run_point *pt, size_t n, size_t min_seg, unsigned char *flag);

/* A series without its outliers: pt[i] was run orig[i] of the full series. */
struct kept_runs {
	size_t n, n_outliers;
	struct run_point *pt;
	size_t *orig;
	unsigned char *outlier;	/* per run of the full series */
};

/* The runs of pt[0, n) that are not outliers; every run with keep_all. */
void kept_runs_make(const struct run_point *pt, size_t n, size_t min_seg, int keep_all,
		    struct kept_runs *k);
void kept_runs_free(struct kept_runs *k);

#endif
