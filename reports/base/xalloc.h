/*
 * Allocation for the report library.  A comparison holds a few MB of samples
 * at most, so running out of memory is not a condition worth a message per
 * call site: every allocation here aborts on failure instead of returning
 * NULL, and callers never check.
 */
#ifndef MMDELTA_XALLOC_H
#define MMDELTA_XALLOC_H

#include <stddef.h>

void *xcalloc(size_t n, size_t size);
/* realloc(p, n * size), refusing an overflowing product. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);

#endif
