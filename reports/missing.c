/* The list of what some run lacks (see missing.h). */
#include <stdlib.h>
#include <string.h>

#include "missing.h"
#include "xalloc.h"

static int same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

void missing_add(struct missing_list *l, size_t run, const char *bench,
		 const char *metric)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->notes[i].run == run && !strcmp(l->notes[i].bench, bench) &&
		    same(l->notes[i].metric, metric))
			return;
	l->notes = xreallocarray(l->notes, l->n + 1, sizeof(*l->notes));
	l->notes[l->n++] = (struct missing_note){
		run, xstrdup(bench), metric ? xstrdup(metric) : NULL
	};
}

void missing_free(struct missing_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->notes[i].bench);
		free(l->notes[i].metric);
	}
	free(l->notes);
	*l = (struct missing_list){ 0 };
}
