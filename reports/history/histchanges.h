/*
 * Change points over the series of the history, as `history.sh changes`
 * prints them and `history.sh html` draws them.
 */
#ifndef MMDELTA_HISTCHANGES_H
#define MMDELTA_HISTCHANGES_H

#include <stdio.h>

#include "histseries.h"

struct hchange {
	const struct hseries *s;
	struct seg_test t;	/* over the series' kept runs (no outliers) */
	size_t before, after;	/* the runs around it: indexes into s->run */
	int last;		/* the series' newest run is in its after-segment */
	int regression;
	int has_pct;
	double pct, ci_pct;	/* positive = better, as in compare.sh */
};

/* A run set aside as an outlier (stats/outliers.h), and how far off it is. */
struct houtlier {
	const struct hseries *s;
	size_t run;		/* index into s->run */
	double level;		/* the mean of the level it sits in */
	double pct;		/* its mean against that level, in percent (+ = higher) */
};

struct hist_changes {
	struct hchange *c;
	size_t n;
	struct houtlier *o;
	size_t n_outliers;
	size_t *n_per_series;	/* change points found in each series */
	size_t **cp_per_series;	/* their positions (the first run after), for the charts */
	unsigned char **outlier_per_series;	/* 1 per run set aside, for the charts */
	size_t *kept_per_series;	/* runs not set aside */
};

/* Detect in every series; keep those whose first run after is after `since` (epoch). */
void hist_detect(const struct hist_data *d, const struct ed_opts *o, double since,
		 struct hist_changes *out);
void hist_changes_free(const struct hist_data *d, struct hist_changes *c);

struct hist_output {
	int json;
	int gated;
	double gate_pct;
	int gate_all;		/* gate every metric shown, not only primary ones */
	size_t min_seg;		/* runs a level needs (--min-segment) */
};

/* Print the changes (and the gate's verdicts); returns the gate's exit
 * status: 1 when it fails, else 3 when a gated series is too short to
 * judge, else 0. */
int hist_render(FILE *f, const struct hist_data *d, const struct hist_changes *c,
		const struct hist_output *o);
/* "./bisect.sh CONFIG IMAGE IMAGE" when both runs were --kernel runs, else NULL. */
char *hist_bisect_line(const struct hist_data *d, const struct hchange *c);

/* "" without a swept value, else "-VALUE" (into buf). */
const char *hist_param_suffix(const struct hseries *s, char *buf, size_t size);

#endif
