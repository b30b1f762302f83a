/*
 * cpsweep: precision and recall of the change-point detection on seeded
 * synthetic series (tests/stats/synth.h), over the grid the history's
 * requirements name: steps of 3-20% at CoeffVar 1-5%, single spikes, a
 * variance change without a mean change, A/A, series of 5 to 500 runs.
 *   cpsweep [SEEDS [MIN_SEGMENT [RUN_SD [MAX_P [BAD_NIGHTS [KEEP_OUTLIERS]]]]]]
 * BAD_NIGHTS 1: every series has 1-3 runs 10-50% slow (synth.h);
 * KEEP_OUTLIERS 1: the plain method, no run set aside (outliers.h).
 * One TSV line per case: kind n cv step run_sd seeds alerts hits found
 * (alerts: seeds with any change point; hits: seeds with one within +-1
 * run of the planted step; found: change points in all).
 */
#include <stdio.h>
#include <stdlib.h>

#include "synth.h"

static void one(enum synth_kind kind, size_t n, double cv, double step, double run_sd,
		unsigned long seeds, int bad_nights, const struct ed_opts *o)
{
	struct synth s = { kind, n, 10, 0, cv, step, run_sd, bad_nights };
	unsigned long alerts = 0, hits = 0, found = 0;

	for (unsigned long seed = 1; seed <= seeds; seed++) {
		struct synth_result r;

		/* a step anywhere a segment of min_seg runs fits on both sides, a
		 * spike anywhere, the noise growing half way */
		s.at = kind == SYNTH_STEP ? o->min_seg + seed % (n - 2 * o->min_seg + 1) :
		       kind == SYNTH_SPIKE ? seed % n : n / 2;
		synth_run(&s, o, seed, &r);
		alerts += r.found > 0;
		hits += (unsigned long)r.hit;
		found += r.found;
	}
	static const char *const names[] = { "aa", "step", "spike", "var" };
	printf("%s\t%zu\t%g\t%g\t%g\t%lu\t%lu\t%lu\t%lu\n", names[kind], n, cv, step, run_sd,
	       seeds, alerts, hits, found);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	unsigned long seeds = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;
	struct ed_opts o = { .max_p = argc > 4 ? strtod(argv[4], NULL) : 0.001, .min_seg = argc > 2 ? strtoul(argv[2], NULL, 10) : 3,
			     .window = 50, .keep_outliers = argc > 6 && atoi(argv[6]) };
	int bad = argc > 5 && atoi(argv[5]);
	double run_sd = argc > 3 ? strtod(argv[3], NULL) : 0;
	static const size_t ns[] = { 5, 10, 20, 50, 100, 500 };
	static const double cvs[] = { 0.01, 0.02, 0.05 }, steps[] = { 0.03, 0.05, 0.10, 0.20 };

	printf("kind\tn\tcv\tstep\trun_sd\tseeds\talerts\thits\tfound\n");
	for (size_t i = 0; i < sizeof(ns) / sizeof(*ns); i++) {
		for (size_t c = 0; c < sizeof(cvs) / sizeof(*cvs); c++) {
			one(SYNTH_AA, ns[i], cvs[c], 0, run_sd, seeds, bad, &o);
			one(SYNTH_VAR, ns[i], cvs[c], 3, run_sd, seeds, bad, &o);
			for (size_t s = 0; s < sizeof(steps) / sizeof(*steps); s++) {
				/* a series shorter than two segments has no place for a step */
				if (ns[i] >= 2 * o.min_seg)
					one(SYNTH_STEP, ns[i], cvs[c], steps[s], run_sd, seeds, bad, &o);
				one(SYNTH_SPIKE, ns[i], cvs[c], steps[s], run_sd, seeds, bad, &o);
			}
		}
	}
	return 0;
}
