#include "profile/reconcile.h"

struct reconcile reconcile_region(uint64_t elapsed_ns, uint64_t instructions, uint64_t tsc_khz, uint64_t slack)
{
	uint64_t khz = tsc_khz ? tsc_khz : 1000000;
	/* rounded to the nearest cycle; 10^10 ns x 10^6 still fits 64 bits */
	int64_t cycles = (int64_t)((elapsed_ns * khz + 500000) / 1000000);
	struct reconcile r;

	r.gap = cycles - (int64_t)instructions - RECONCILE_CLOCK_INSNS;
	r.margin = RECONCILE_MARGIN + (int64_t)slack;
	r.ok = r.gap >= -r.margin && r.gap <= r.margin;
	return r;
}
