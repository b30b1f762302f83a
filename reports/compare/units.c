/* Choosing a readable display unit (see units.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

struct step {
	double factor;
	const char *name;
};

/* Steps from the smallest unit up, factors relative to the SI base. */
static const struct step time_steps[] = {
	{ 1e-9, "ns" }, { 1e-6, "µs" }, { 1e-3, "ms" }, { 1, "s" }, { 0, NULL }
};
static const struct step byte_steps[] = {
	{ 1, "bytes" }, { 1024.0, "KiB" }, { 1048576.0, "MiB" },
	{ 1073741824.0, "GiB" }, { 1099511627776.0, "TiB" }, { 0, NULL }
};
static const struct step si_steps[] = {
	{ 1, "" }, { 1e3, "K" }, { 1e6, "M" }, { 1e9, "G" }, { 0, NULL }
};

/* Time units other than seconds are themselves steps of the time ladder. */
static double time_base(const char *unit)
{
	for (const struct step *s = time_steps; s->name; s++)
		if (!strcmp(unit, s->name) || (!strcmp(unit, "us") && !strcmp(s->name, "µs")))
			return s->factor;
	return 0;
}

/* The largest step that keeps the value at or above 1. */
static const struct step *pick(const struct step *steps, double base_value)
{
	const struct step *best = steps;

	for (const struct step *s = steps; s->name; s++)
		if (base_value >= s->factor)
			best = s;
	return best;
}

void unit_scale(const char *unit, double magnitude, struct scale *sc)
{
	double tb = time_base(unit), m = fabs(magnitude);
	const struct step *s;

	if (m == 0 || !isfinite(m)) {
		sc->div = 1;
		snprintf(sc->unit, sizeof(sc->unit), "%s", strcmp(unit, "count") ? unit : "");
	} else if (tb) {
		s = pick(time_steps, m * tb);
		sc->div = s->factor / tb;
		snprintf(sc->unit, sizeof(sc->unit), "%s", s->name);
	} else if (!strcmp(unit, "bytes")) {
		s = pick(byte_steps, m);
		sc->div = s->factor;
		snprintf(sc->unit, sizeof(sc->unit), "%s", s->name);
	} else {
		s = pick(si_steps, m);
		sc->div = s->factor;
		/* counts read as 12.34K; rates as 12.34Kops/s */
		snprintf(sc->unit, sizeof(sc->unit), "%s%s", s->name,
			 strcmp(unit, "count") ? unit : "");
	}
	sc->scaled = sc->div != 1;
}

int display_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

double tidy2(double x)
{
	return fabs(x) < 0.005 ? 0.0 : x;
}
