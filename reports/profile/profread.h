/*
 * One run's per-iteration profiles of one bench at one sweep point, from
 * RUN/BENCH/monitors/: insns.TAG.tsv (the insns monitor: instructions per
 * function, exact) or, without those, profile.TAG.self.tsv (the profile
 * monitor: each function's self share of perf's samples, in percent).
 * Counted iterations only: TAG is the iteration, "3", or at a swept value
 * KEY=VALUE.3 ("PATTERN=mprotect.3"); warm-ups ("warmup1") are left out.
 * The bench's task regions (harness.h) are insns-tasks.TAG.tsv, read apart.
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
	char key[64];		/* the swept key the tags name ("PATTERN"), or "" */
};

/*
 * Does TAG name a counted iteration of the point param ("-": a bench that
 * sweeps nothing)?  Its key, if any, into key (len bytes).
 */
int profile_tag_point(const char *tag, const char *param, char *key, size_t len);
/* A point without profiles is kind PROFILE_NONE, not an error. */
int profiles_read(const char *run, const char *bench, const char *param, struct iter_profiles *p,
		  struct err *e);
/* The task regions' insns-tasks.TAG.tsv; kind PROFILE_NONE where there are none. */
int profiles_read_tasks(const char *run, const char *bench, const char *param, struct iter_profiles *p,
			struct err *e);
/* The series of name, or NULL. */
const struct func_series *profiles_find(const struct iter_profiles *p, const char *name);
/* Each iteration's sum over every function, into v (n_iter values). */
void profiles_totals(const struct iter_profiles *p, double *v);
void profiles_free(struct iter_profiles *p);

#endif
