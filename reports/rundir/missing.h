/*
 * Benches and metrics that some run lacks: not compared, and said once on
 * stderr (and in the JSON) so that a reader knows what the tables leave out.
 */
#ifndef MMDELTA_MISSING_H
#define MMDELTA_MISSING_H

#include <stddef.h>

struct missing_note {
	size_t run;
	char *bench;
	char *metric;	/* NULL: the whole bench is missing */
	char *monitor;	/* set when the metric's monitor did not run there */
	char *why;	/* ... and why, from BENCH/monitors/skipped */
};

struct missing_list {
	struct missing_note *notes;
	size_t n;
};

/* Add a note unless it is there already; monitor and why may be NULL. */
void missing_add(struct missing_list *l, size_t run, const char *bench,
		 const char *metric, const char *monitor, const char *why);
void missing_free(struct missing_list *l);
/*
 * The metrics run `run` lacks, in one phrase: "metric 'pages' of bench
 * 'timedmunlock'", or "3 metrics: pages, vmstat_a (timedmunlock); rate
 * (heaprelease)", the list cut after a few names, then which monitors did
 * not run there and why.  0 when it lacks none.
 */
int missing_metrics_line(const struct missing_list *l, size_t run, char *buf,
			 size_t len);

#endif
