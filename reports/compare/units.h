/*
 * Display scaling for the tables: a metric's rows are shown in one unit,
 * chosen from the smallest non-zero mean of any run (rows.c's
 * metric_scale) so that it reads as 1..999 (3.39 s stays
 * seconds as in the munlock thread; 0.0004 s becomes 400.00 us).  CSV and
 * JSON keep SI base units at full precision.
 */
#ifndef MMDELTA_UNITS_H
#define MMDELTA_UNITS_H

struct scale {
	double div;		/* shown value = value / div */
	char unit[24];		/* "s", "ms", "µs", "KiB", "K", "Kops/s" */
	int scaled;		/* unit differs from the metric's own */
};

void unit_scale(const char *unit, double magnitude, struct scale *sc);
/* x, or 0 when %.2f would print it as -0.00 (rounding noise, not a change). */
double tidy2(double x);
/* Columns a UTF-8 string takes on a terminal (µ is 2 bytes, 1 column). */
int display_width(const char *s);

#endif
