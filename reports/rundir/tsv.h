/*
 * Reading the run directory's tab-separated files line by line, with the
 * file name and line number at hand for every error message.
 */
#ifndef MMDELTA_TSV_H
#define MMDELTA_TSV_H

#include <stdio.h>

#include "base/err.h"

#define TSV_MAX_FIELDS 16	/* insns.tsv has 12 */

struct tsv {
	FILE *f;
	const char *path;
	size_t line;
	char *buf;
	size_t cap;
	int nf;
	char *field[TSV_MAX_FIELDS];
};

int tsv_open(struct tsv *t, const char *path, struct err *e);
/* The same for a file that may be absent: 1 opened, 0 no such file, -1. */
int tsv_open_optional(struct tsv *t, const char *path, struct err *e);
/*
 * Read the next line and split it at tabs into t->field[0..nf).
 * Returns 1 for a line, 0 at the end, -1 on error: a last line without its
 * newline is a truncated file (the writer died mid-line) and an error.
 */
int tsv_next(struct tsv *t, struct err *e);
/* The same, without splitting: the whole line is t->field[0] (nf = 1). */
int tsv_next_line(struct tsv *t, struct err *e);
void tsv_close(struct tsv *t);

#endif
