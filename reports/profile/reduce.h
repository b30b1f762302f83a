/*
 * One bench process's instructions per kernel function: the insns plugin's
 * per-address counts (drivers/vm/insns-plugin.c, process-NNNN.tsv) named
 * with the guest's kallsyms, plus [user] (everything below the kernel half:
 * the bench, libc, the vDSO) and [unknown] (kernel addresses no function
 * covers).  The rows add up to the process's total.
 */
#ifndef MMDELTA_REDUCE_H
#define MMDELTA_REDUCE_H

#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "profile/kallsyms.h"

struct fcount {
	char *name;
	uint64_t count;
};

struct fprofile {
	struct fcount *v;	/* most instructions first, ties by name */
	size_t n;
	uint64_t total, kernel, user, unknown;
	unsigned int regions;
};

/*
 * Compiler clones are the function they were cloned from: foo.isra.0,
 * foo.constprop.1, foo.part.0, foo.cold -> foo (C names have no dots).
 */
void fold_clone(char *name);
/*
 * Reduce the plugin's file; raw_names keeps kallsyms' names (clones apart).
 * -1 with e set on a malformed line or counts that do not add up to the
 * file's own total.
 */
int profile_reduce(FILE *process, const struct ksyms *k, int raw_names, struct fprofile *p, struct err *e);
/* function<TAB>instructions, one a line, in the profile's order. */
void fprofile_write(FILE *out, const struct fprofile *p);
void fprofile_free(struct fprofile *p);

#endif
