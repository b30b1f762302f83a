/*
 * What is not the same in every run besides the code under test: a bench's
 * resolved config keys (SIZE 256M against 512M), the kernel command line,
 * the THP settings, the machine.  A "regression" that is really another
 * SIZE must say so wherever the result is read: above every table, in the
 * gate's line, in JSON and on the HTML page.
 */
#ifndef MMDELTA_DIFFER_H
#define MMDELTA_DIFFER_H

#include <stddef.h>
#include <stdio.h>

struct report;

struct difference {
	char *bench;	/* the bench whose BENCH/config differs; NULL: meta */
	char *key;	/* "SIZE", "cmdline", "thp_enabled" */
	char **values;	/* per run; NULL where the run has no such key */
};

struct difference_list {
	struct difference *d;
	size_t n;
};

/* Fill rep->differences from the runs' meta and the compared benches' configs. */
void differences_find(struct report *rep);
void differences_free(struct difference_list *l, size_t n_runs);
/*
 * Native figures compare kernels only on one machine: "native runs of
 * different machines (a: node1, b: node2): ..." when the runs come from
 * several (a Slurm job's node, else the hostname); 0 for one machine, and
 * for runs in a VM, whose clock is not the machine's.
 */
int machines_note(const struct report *rep, char *buf, size_t len);
/* Each difference_line() on a line of its own after prefix. */
void differences_print(FILE *f, const struct report *rep, const char *prefix);
/* "timedmunlock SIZE: 256M in base; 512M in big" */
void difference_line(const struct report *rep, const struct difference *d,
		     char *buf, size_t len);
/*
 * What differs between run `run` and the baseline for bench `bench`, for
 * the gate's line: "SIZE 512M (baseline 256M), cmdline (adds quiet)";
 * "" when nothing does.
 */
void difference_note(const struct report *rep, size_t bench, size_t run,
		     char *buf, size_t len);

#endif
