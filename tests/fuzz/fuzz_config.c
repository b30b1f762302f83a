/*
 * libFuzzer target: one config line through config_parse_line, and the key
 * it yields through config_key_allowed.  Configs come from users and are
 * the way into the shell drivers, so a pair that comes out must be exactly
 * what the parser promises: a well-formed key, a bounded value without
 * control characters or surrounding blanks.
 */
#include "parse.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_pair(const char *key, const char *value)
{
	size_t klen = strlen(key), vlen = strlen(value);

	if (klen == 0 || klen >= CONFIG_KEY_MAX || vlen >= CONFIG_VALUE_MAX)
		abort();
	if (!isupper((unsigned char)key[0]) && key[0] != '_')
		abort();
	for (size_t i = 0; i < klen; i++)
		if (!isupper((unsigned char)key[i]) && !isdigit((unsigned char)key[i]) && key[i] != '_')
			abort();
	for (size_t i = 0; i < vlen; i++)
		if (iscntrl((unsigned char)value[i]))
			abort();
	if (vlen && (value[0] == ' ' || value[0] == '\t' ||
		     value[vlen - 1] == ' ' || value[vlen - 1] == '\t'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char key[CONFIG_KEY_MAX], value[CONFIG_VALUE_MAX];
	const char *why = NULL;
	char *line = malloc(size + 1);

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	switch (config_parse_line(line, key, value, &why)) {
	case CONFIG_PAIR:
		check_pair(key, value);
		/* A key is always allowed by a list that names it, and by "*". */
		if (!config_key_allowed(key, "*") || !config_key_allowed(key, key))
			abort();
		/* The rest of the line as an allow-list: only its bounds matter. */
		config_key_allowed(key, value);
		break;
	case CONFIG_ERROR:
		if (!why || !*why)
			abort();
		break;
	case CONFIG_BLANK:
		break;
	default:
		abort();
	}
	free(line);
	return 0;
}
