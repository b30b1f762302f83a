/* One plot's files (plotfile.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plotfile.h"

/*
 * Okabe-Ito: distinguishable with the common colour-vision deficiencies;
 * the baseline is the neutral dark grey.
 */
static const char *const colors[] = {
	"555555", "0072B2", "E69F00", "009E73", "CC79A7", "D55E00", "56B4E9", "8C564B"
};

const char *run_color(size_t run)
{
	return colors[run % (sizeof(colors) / sizeof(colors[0]))];
}

FILE *plot_file(const struct plot *pl, const char *name, struct err *e)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", pl->dir, name);
	f = fopen(path, "w");
	if (!f)
		err_set(e, "%s: %s", path, strerror(errno));
	return f;
}

int plot_close(FILE *f, const struct plot *pl, const char *name, struct err *e)
{
	if (ferror(f) | fclose(f))
		return err_set(e, "%s/%s: %s", pl->dir, name, strerror(errno));
	return 0;
}

void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("''", f);
		else
			fputc(*s == '\n' ? ' ' : *s, f);
	fputc('\'', f);
}
