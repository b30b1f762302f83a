/* Reading a sequential run's design (see seqdesign.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seqdesign.h"
#include "stats/seqbound.h"

#define KEY "sequential: "

static int parse(const char *path, const char *line, struct seq_design *d, struct err *e)
{
	const char *mx = strstr(line, "max="), *al = strstr(line, "alpha=");
	char *end;

	if (!mx || !al)
		return err_set(e, "%s: '%s' lacks max= or alpha=", path, line);
	d->max = strtoul(mx + 4, &end, 10);
	if (end == mx + 4 || d->max < SEQ_FIRST_LOOK || d->max > SEQ_MAX_LOOKS)
		return err_set(e, "%s: '%s': max must be %d..%d", path, line, SEQ_FIRST_LOOK, SEQ_MAX_LOOKS);
	d->alpha = strtod(al + 6, &end);
	if (end == al + 6 || !(d->alpha > 0 && d->alpha < 1))
		return err_set(e, "%s: '%s': alpha must be between 0 and 1", path, line);
	return 0;
}

int seq_design_read(const char *rundir, const char *bench, struct seq_design *d,
		    struct err *e)
{
	char path[4096], line[1024];
	FILE *f;
	int ret = 0;

	*d = (struct seq_design){ 0 };
	snprintf(path, sizeof(path), "%s/%s/config", rundir, bench);
	if (!(f = fopen(path, "r")))
		return 0;	/* runs older than BENCH/config were never sequential */
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, KEY, strlen(KEY))) {
			line[strcspn(line, "\n")] = '\0';
			ret = parse(path, line, d, e);
			break;
		}
	fclose(f);
	return ret;
}

int seq_design_tail(const struct seq_design *d, size_t n, double *tail, struct err *e)
{
	return seq_tail(n, d->max, d->alpha / 2, tail, e);
}
