/*
 * Config files: KEY=VALUE lines and # comments, parsed and never sourced, so
 * no shell code in a config ever runs.  mmconfig (mmconfig.c) is the
 * shell's way in.
 */
#ifndef MMDELTA_PARSE_H
#define MMDELTA_PARSE_H
#include <stddef.h>

#define CONFIG_KEY_MAX 64
#define CONFIG_VALUE_MAX 1024

enum config_line { CONFIG_ERROR = -1, CONFIG_BLANK = 0, CONFIG_PAIR = 1 };

/*
 * Parse one line (without its newline).  On CONFIG_PAIR, key and value hold
 * the pair with surrounding blanks trimmed; on CONFIG_ERROR *why says what is
 * wrong.
 */
enum config_line config_parse_line(const char *line, char key[CONFIG_KEY_MAX],
				   char value[CONFIG_VALUE_MAX], const char **why);

/* Is key in the comma-separated list allowed?  "*" allows any key. */
int config_key_allowed(const char *key, const char *allowed);

#endif
