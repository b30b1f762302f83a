/*
 * What a bench prints, in one place: metric<TAB>value lines, and for
 * --describe the lines of metrics.tsv (docs/running.md, "The run directory").
 */
#ifndef MMDELTA_OUTPUT_H
#define MMDELTA_OUTPUT_H
#include <stddef.h>

struct bench_metric;

/* "metric<TAB>value\n": 15 significant digits (all a double has) keep
 * nanoseconds of a 1000 s region. */
int output_value(char *buf, size_t len, const char *metric, double value);
/* "metric<TAB>label<TAB>unit<TAB>lower|higher|none\n" for --describe. */
int output_describe(char *buf, size_t len, const struct bench_metric *m);

#endif
