#include "parse.h"

#include <ctype.h>
#include <string.h>

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/*
 * Where the value after the "=" at s ends: at a "#" that follows a blank (a
 * comment, as in the shell: "SIZE=256M  # a quarter" is 256M, "A#B" stays
 * whole), else at the end of the line; trailing blanks excluded.
 */
static const char *value_end(const char *s)
{
	const char *end = s;

	while (*end && !(*end == '#' && end > s && (end[-1] == ' ' || end[-1] == '\t')))
		end++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	return end;
}

enum config_line config_parse_line(const char *line, char key[CONFIG_KEY_MAX],
				   char value[CONFIG_VALUE_MAX], const char **why)
{
	const char *p = skip_blanks(line), *eq, *end;
	size_t klen, vlen;

	if (*p == '\0' || *p == '#')
		return CONFIG_BLANK;
	eq = strchr(p, '=');
	if (!eq) {
		*why = "expected KEY=VALUE";
		return CONFIG_ERROR;
	}
	for (klen = 0; p + klen < eq && p[klen] != ' ' && p[klen] != '\t'; klen++)
		if (!(isupper((unsigned char)p[klen]) || p[klen] == '_' ||
		      (klen > 0 && isdigit((unsigned char)p[klen])))) {
			*why = "a key is upper-case letters, digits and _";
			return CONFIG_ERROR;
		}
	if (klen == 0 || *skip_blanks(p + klen) != '=') {
		*why = klen ? "blank inside the key" : "empty key";
		return CONFIG_ERROR;
	}
	if (klen >= CONFIG_KEY_MAX) {
		*why = "key too long";
		return CONFIG_ERROR;
	}
	p = skip_blanks(eq + 1);
	end = value_end(eq + 1);
	if (end < p)	/* only blanks and a comment: no value */
		end = p;
	vlen = (size_t)(end - p);
	if (vlen >= CONFIG_VALUE_MAX) {
		*why = "value too long";
		return CONFIG_ERROR;
	}
	for (size_t i = 0; i < vlen; i++)
		if (iscntrl((unsigned char)p[i])) {
			*why = "control character in value";
			return CONFIG_ERROR;
		}
	memcpy(key, skip_blanks(line), klen);
	key[klen] = '\0';
	memcpy(value, p, vlen);
	value[vlen] = '\0';
	return CONFIG_PAIR;
}

int config_key_allowed(const char *key, const char *allowed)
{
	size_t len = strlen(key);
	const char *p = allowed;

	if (!strcmp(allowed, "*"))
		return 1;
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, key, len))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}
