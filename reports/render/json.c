/* JSON output helpers (see json.h). */
#include <math.h>

#include "json.h"

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void json_str_or_null(FILE *f, const char *s)
{
	if (s)
		json_str(f, s);
	else
		fputs("null", f);
}

void json_key(FILE *f, const char *key, int first)
{
	if (!first)
		fputc(',', f);
	json_str(f, key);
	fputc(':', f);
}

void json_num(FILE *f, int has, double v)
{
	if (has && isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}
