/*
 * libFuzzer target: metrics.tsv (a bench's --describe output) as the stats
 * tool reads it.  Accepted metrics have non-empty, distinct names without
 * tabs or newlines; a refusal names the file.
 */
#include "infile.h"
#include "rundir/metricsfile.h"

#include <stdlib.h>
#include <string.h>

static void check_metrics(const struct metric_def *m, size_t n)
{
	if (n == 0)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (!*m[i].name || !*m[i].label || !*m[i].unit || !m[i].monitor ||
		    m[i].better > BETTER_NONE ||
		    strpbrk(m[i].name, "\t\n") || strpbrk(m[i].unit, "\t\n"))
			abort();
		for (size_t j = 0; j < i; j++)
			if (!strcmp(m[i].name, m[j].name))
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct metric_def *m = NULL;
	struct err e = { "" };
	size_t n = 0;
	const char *path = infile_write(data, size);

	if (metrics_read(path, &m, &n, &e)) {
		if (strncmp(e.msg, path, strlen(path)) || e.msg[strlen(path)] != ':' || n != 0)
			abort();
		return 0;
	}
	check_metrics(m, n);
	metrics_free(m, n);
	return 0;
}
