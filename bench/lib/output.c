#include "output.h"
#include "harness.h"

#include <stdio.h>

int output_value(char *buf, size_t len, const char *metric, double value)
{
	return snprintf(buf, len, "%s\t%.15g\n", metric, value);
}

int output_describe(char *buf, size_t len, const struct bench_metric *m)
{
	static const char *const words[] = { "lower", "higher", "none" };

	return snprintf(buf, len, "%s\t%s\t%s\t%s\n", m->name, m->label, m->unit,
			words[m->better]);
}
