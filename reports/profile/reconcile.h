/*
 * Does a region's instruction total account for its icount figure?  Under
 * -icount shift=0 the guest's TSC advances one cycle per instruction, and
 * the guest turns cycles into nanoseconds with the frequency it calibrated
 * at boot (1000.000 MHz, or 999.999 in some boots, whose figures are then
 * 1 ppm long).  So elapsed x tsc_khz / 10^6 is the instructions from the
 * first clock sample to the second: the region's, plus the clock reads'
 * own that lie outside the markers, plus the two markers (docs/monitors.md).
 */
#ifndef MMDELTA_RECONCILE_H
#define MMDELTA_RECONCILE_H

#include <stdint.h>

/* Measured (bench/lib/harness.h's clock reads, static glibc, Debian 6.1 and
 * 6.12 vDSOs): the instructions in elapsed that the markers leave out. */
#define RECONCILE_CLOCK_INSNS 75
/* The vDSO truncates each clock read to whole ns, and the cycles-to-ns
 * scale is rounded: two reads, one ns each. */
#define RECONCILE_MARGIN 2

struct reconcile {
	int64_t gap;	/* cycles - instructions - RECONCILE_CLOCK_INSNS */
	int64_t margin;	/* RECONCILE_MARGIN plus the plugin's own slack */
	int ok;		/* |gap| <= margin */
};

/*
 * tsc_khz: the guest's calibration (0: unknown, taken as 1000000).  slack:
 * what the plugin says its count may be off by, the blocks left early and
 * the instructions they may have over-counted (an MMIO access that icount
 * re-executes is one instruction the plugin does not see).
 */
struct reconcile reconcile_region(uint64_t elapsed_ns, uint64_t instructions, uint64_t tsc_khz, uint64_t slack);

#endif
