/*
 * The timed region of a stress-ng run, as bench/stressng.c and the library
 * it preloads into stress-ng (bench/preload/stressng-region.c) share it: a
 * page of a memfd whose descriptor stress-ng inherits, named by
 * STRESSNG_REGION_ENV.  stress-ng times each stressor instance in the
 * instance's own process; the library marks the same stretch there, with
 * the clock reads and insns markers of bench_region_start_ns() and
 * bench_region_end_ns(), so that no part of stress-ng's start-up or exit
 * is in the figure or the profile.
 */
#ifndef MMDELTA_STRESSNG_REGION_H
#define MMDELTA_STRESSNG_REGION_H

#include <stdint.h>

#define STRESSNG_REGION_ENV "MMDELTA_STRESSNG_REGION_FD"

struct stressng_region {
	uint64_t begin_ns;	/* the first instance's start (CLOCK_MONOTONIC); 0 until then */
	uint64_t end_ns;	/* the latest instance's end */
	uint32_t running;	/* instances between their start and end */
	uint32_t started;	/* instances that started */
	uint32_t ended;		/* instances that ended */
	uint32_t attached;	/* stress-ng processes that loaded the library */
};

#endif
