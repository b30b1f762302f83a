/* The list of what some run lacks (see missing.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "missing.h"
#include "base/xalloc.h"

static int same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void missing_add(struct missing_list *l, size_t run, const char *bench,
		 const char *metric, const char *monitor, const char *why)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->notes[i].run == run && !strcmp(l->notes[i].bench, bench) &&
		    same(l->notes[i].metric, metric))
			return;
	l->notes = xreallocarray(l->notes, l->n + 1, sizeof(*l->notes));
	l->notes[l->n++] = (struct missing_note){
		run, xstrdup(bench), dup_or_null(metric), dup_or_null(monitor), dup_or_null(why)
	};
}

void missing_free(struct missing_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->notes[i].bench);
		free(l->notes[i].metric);
		free(l->notes[i].monitor);
		free(l->notes[i].why);
	}
	free(l->notes);
	*l = (struct missing_list){ 0 };
}

/* Names listed before "and N more": enough to recognise a monitor's set. */
#define NAMES_SHOWN 6

static size_t count_metrics(const struct missing_list *l, size_t run)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += l->notes[i].run == run && l->notes[i].metric;
	return n;
}

static int first_of_bench(const struct missing_list *l, size_t run, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (l->notes[k].run == run && l->notes[k].metric &&
		    !strcmp(l->notes[k].bench, l->notes[i].bench))
			return 0;
	return 1;
}

/* ", name" for each of bench b's metrics that run lacks, while there is room. */
static size_t list_bench(const struct missing_list *l, size_t run, const char *b,
			 size_t *listed, char *buf, size_t len)
{
	size_t o = 0;

	for (size_t k = 0; k < l->n && *listed < NAMES_SHOWN && o < len; k++) {
		const struct missing_note *n = &l->notes[k];

		if (n->run != run || !n->metric || strcmp(n->bench, b))
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s %s", o ? "," : "", n->metric);
		(*listed)++;
	}
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o, " (%s)", b);
	return o;
}

/* "; monitor vmstat did not run there (why)", once per monitor. */
static void skipped_monitors(const struct missing_list *l, size_t run, char *buf,
			     size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < l->n && o < len; i++) {
		const struct missing_note *n = &l->notes[i];
		int first = 1;

		if (n->run != run || !n->monitor)
			continue;
		for (size_t k = 0; k < i && first; k++)
			first = l->notes[k].run != run || !l->notes[k].monitor ||
				strcmp(l->notes[k].monitor, n->monitor);
		if (first)
			o += (size_t)snprintf(buf + o, len - o, "; monitor %s did not run there (%s)",
					      n->monitor, n->why);
	}
}

int missing_metrics_line(const struct missing_list *l, size_t run, char *buf,
			 size_t len)
{
	size_t total = count_metrics(l, run), listed = 0, o = 0;

	if (total == 0)
		return 0;
	if (total == 1) {
		for (size_t i = 0; i < l->n; i++)
			if (l->notes[i].run == run && l->notes[i].metric)
				o = (size_t)snprintf(buf, len, "metric '%s' of bench '%s'",
						     l->notes[i].metric, l->notes[i].bench);
		skipped_monitors(l, run, buf + (o < len ? o : len), o < len ? len - o : 0);
		return 1;
	}
	o = (size_t)snprintf(buf, len, "%zu metrics:", total);
	for (size_t i = 0; i < l->n && listed < NAMES_SHOWN && o < len; i++) {
		const struct missing_note *n = &l->notes[i];

		if (n->run != run || !n->metric || !first_of_bench(l, run, i))
			continue;
		if (listed && o < len)
			o += (size_t)snprintf(buf + o, len - o, ";");
		o += list_bench(l, run, n->bench, &listed, buf + o, o < len ? len - o : 0);
	}
	if (total > listed && o < len)
		o += (size_t)snprintf(buf + o, len - o, "; and %zu more", total - listed);
	skipped_monitors(l, run, buf + (o < len ? o : len), o < len ? len - o : 0);
	return 1;
}
