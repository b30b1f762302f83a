/* Minimal JSON writing: strings escaped per RFC 8259, numbers or null. */
#ifndef MMDELTA_JSON_H
#define MMDELTA_JSON_H

#include <stdio.h>

void json_str(FILE *f, const char *s);
/* A string, or null for NULL. */
void json_str_or_null(FILE *f, const char *s);
/* "key": value pairs, each preceded by a comma unless first is set. */
void json_key(FILE *f, const char *key, int first);
/* %.17g round-trips a double; undefined values are null, never NaN. */
void json_num(FILE *f, int has, double v);

#endif
