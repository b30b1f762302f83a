/*
 * One run's per-iteration profiles of one bench, from RUN/BENCH/monitors/:
 * insns.N.tsv (the insns monitor: instructions per function, exact) or,
 * without those, profile.N.self.tsv (the profile monitor: each function's
 * self share of perf's samples, in percent).  Counted iterations only, of a
 * bench that sweeps nothing (TAG is the iteration number).
 */
#ifndef MMDELTA_PROFREAD_H
#define MMDELTA_PROFREAD_H

#include <stddef.h>

#include "base/err.h"

enum profile_kind { PROFILE_NONE, PROFILE_INSNS, PROFILE_SAMPLES };

struct func_series {
	char *name;
	double *v;		/* one value per iteration, 0 where it did not appear */
};

struct iter_profiles {
	enum profile_kind kind;
	size_t n_iter;
	struct func_series *f;	/* by name */
	size_t n;
	char event[32];		/* samples: perf's event, "cpu-clock" or "cycles" */
};

/* A bench without profiles is kind PROFILE_NONE, not an error. */
int profiles_read(const char *run, const char *bench, struct iter_profiles *p, struct err *e);
/* The series of name, or NULL. */
const struct func_series *profiles_find(const struct iter_profiles *p, const char *name);
void profiles_free(struct iter_profiles *p);

#endif
