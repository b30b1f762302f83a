/*
 * The kernel test robot's names for what the suite measures, in one place
 * (compare.sh --format lkp, docs/robot.md): its metric names
 * (will-it-scale.per_process_ops, stress-ng.mremap.ops_per_sec,
 * proc-vmstat.pgfault) and the axes that head its comparisons
 * (mode/nr_task/test/testcase).  A metric the robot has no equal of keeps
 * the suite's own name, BENCH.METRIC, so that no figure passes for one of
 * the robot's that it is not.
 */
#ifndef MMDELTA_LKPNAMES_H
#define MMDELTA_LKPNAMES_H

#include <stddef.h>

#include "rundir/kvfile.h"

/* One bench at one sweep point of one run: where a name's keys come from. */
struct lkp_point {
	const char *bench;		/* "willitscale" */
	const struct kvlist *config;	/* the run's BENCH/config; may be NULL */
	const char *sweep_value;	/* the point's value of the swept key, or NULL */
};

/* KEY's value at the point (the swept key's from the point), or NULL. */
const char *lkp_key(const struct lkp_point *pt, const char *key);
/*
 * The robot's name of metric at the point: "will-it-scale.per_thread_ops",
 * or a monitor's, MONITOR.NAME as the robot's ("insns.total"); 1 when the
 * table names it, 0 for a bench's own ("willitscale.ns_per_op").
 */
int lkp_metric_name(const struct lkp_point *pt, const char *metric, char *buf, size_t len);
/*
 * The robot's axes of the point, keys and values each joined by '/':
 * "mode/nr_task/test/testcase" and "process/1/mmap1/will-it-scale".
 */
void lkp_axes(const struct lkp_point *pt, char *keys, char *values, size_t len);
/*
 * Does the robot show the metric's change in points, not percent?  Its
 * perf-profile shares and its percentages (names ending in '%').
 */
int lkp_absolute_change(const char *name);

#endif
