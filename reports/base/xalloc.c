/* Allocation that cannot fail (see xalloc.h for why). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		abort();
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	size_t bytes = n * size;

	if (size && n > SIZE_MAX / size)
		abort();
	p = realloc(p, bytes ? bytes : 1);	/* realloc(p, 0) may free p */
	if (!p)
		abort();
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}
