/*
 * Why a run has no profile of a bench at one sweep point, from what the run
 * recorded: the point's samples, RUN/insns.tsv's regions (regions.h),
 * BENCH/monitors/skipped, and meta's clock.  The reason names the remedy
 * where there is one; no bench is known by name.
 */
#ifndef MMDELTA_ABSENCE_H
#define MMDELTA_ABSENCE_H

#include <stddef.h>

#include "base/err.h"
#include "compare/report.h"
#include "profile/regions.h"

/* The reason into buf, for run r of bench b at param p (rep->benches indexes). */
int profile_absence(const struct report *rep, size_t b, size_t p, size_t r, const struct point_regions *rg,
		    char *buf, size_t len, struct err *e);

#endif
