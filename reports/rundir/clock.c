/* Exact clocks and clocked units (see clock.h). */
#include <stdio.h>
#include <string.h>

#include "clock.h"

/* The value of "key: value" in RUNDIR/meta into buf, or "" when absent. */
static void meta_value(const char *rundir, const char *key, char *buf, size_t len)
{
	char path[4096], line[1024];
	size_t k = strlen(key);
	FILE *f;

	*buf = '\0';
	snprintf(path, sizeof(path), "%s/meta", rundir);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, k) && line[k] == ':' && line[k + 1] == ' ') {
			snprintf(buf, len, "%s", line + k + 2);
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	fclose(f);
}

int clock_exact_run(const char *rundir)
{
	char v[64];

	meta_value(rundir, "clock", v, sizeof(v));
	if (!*v)
		meta_value(rundir, "vm_clock", v, sizeof(v));
	return !strcmp(v, "icount");
}

int unit_is_clocked(const char *unit)
{
	static const char *const times[] = { "s", "ms", "us", "µs", "ns" };
	size_t n = strlen(unit);

	for (size_t i = 0; i < sizeof(times) / sizeof(*times); i++)
		if (!strcmp(unit, times[i]))
			return 1;
	return n > 2 && !strcmp(unit + n - 2, "/s");
}
