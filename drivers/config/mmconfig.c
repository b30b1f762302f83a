/*
 * mmconfig: read a config file (and --set overrides) for the shell drivers.
 *   mmconfig --keys K1,K2,... [--set KEY=VALUE]... FILE
 * prints KEY<TAB>VALUE<TAB>file|set<TAB>LINE per key (LINE: where in FILE,
 * 0 for a --set), the --set value replacing the file's, or one line
 * "FILE:LINE: problem" and exit 1.
 */
#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAIRS 128

static struct pair {
	char key[CONFIG_KEY_MAX], value[CONFIG_VALUE_MAX];
	const char *origin;
	int line;
} pairs[MAX_PAIRS];
static int npairs;

static struct pair *lookup(const char *key)
{
	for (int i = 0; i < npairs; i++)
		if (!strcmp(pairs[i].key, key))
			return &pairs[i];
	return NULL;
}

/* 0, or 1 after printing "where: problem". */
static int add(const char *where, const char *line, const char *allowed, const char *origin,
	       int lineno)
{
	char key[CONFIG_KEY_MAX], value[CONFIG_VALUE_MAX];
	const char *why;
	struct pair *p;

	switch (config_parse_line(line, key, value, &why)) {
	case CONFIG_BLANK:
		if (strcmp(origin, "set"))
			return 0;
		why = "expected KEY=VALUE";
		/* fall through */
	case CONFIG_ERROR:
		fprintf(stderr, "%s: %s\n", where, why);
		return 1;
	case CONFIG_PAIR:
		break;
	}
	/* "SIZE=" is a slip, not a way to ask for the default: leave the key out. */
	if (!*value) {
		fprintf(stderr, "%s: %s has no value (leave the key out for the default)\n", where, key);
		return 1;
	}
	if (!config_key_allowed(key, allowed)) {
		fprintf(stderr, "%s: unknown key %s (known: %s)\n", where, key, allowed);
		return 1;
	}
	p = lookup(key);
	if (p && !strcmp(origin, "file") && !strcmp(p->origin, "file")) {
		fprintf(stderr, "%s: %s given twice\n", where, key);
		return 1;
	}
	if (!p) {
		if (npairs == MAX_PAIRS) {
			fprintf(stderr, "%s: too many keys\n", where);
			return 1;
		}
		p = &pairs[npairs++];
	}
	snprintf(p->key, sizeof(p->key), "%s", key);
	snprintf(p->value, sizeof(p->value), "%s", value);
	p->origin = origin;
	p->line = lineno;
	return 0;
}

/* One line at a time; getline, unlike fgets, tells a NUL byte from the end. */
static int read_file(const char *path, const char *allowed)
{
	char *line = NULL, where[4200];
	size_t cap = 0;
	ssize_t len;
	FILE *f = fopen(path, "r");
	int lineno = 0, bad = 0;

	if (!f) {
		perror(path);
		return 1;
	}
	while (!bad && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (strlen(line) != (size_t)len)
			fprintf(stderr, "%s: NUL byte in line\n", where), bad = 1;
		else if ((size_t)len >= CONFIG_VALUE_MAX + CONFIG_KEY_MAX + 64)
			fprintf(stderr, "%s: line too long\n", where), bad = 1;
		else
			bad = add(where, line, allowed, "file", lineno);
	}
	free(line);
	fclose(f);
	return bad;
}

int main(int argc, char **argv)
{
	const char *allowed = NULL, *file = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--keys") && i + 1 < argc)
			allowed = argv[++i];
		else if (!strcmp(argv[i], "--set") && i + 1 < argc)
			i++;	/* applied after the file */
		else if (argv[i][0] != '-' && !file)
			file = argv[i];
		else {
			fprintf(stderr, "usage: mmconfig --keys K1,K2 [--set KEY=VALUE]... FILE\n");
			return 2;
		}
	}
	if (!allowed || !file) {
		fprintf(stderr, "usage: mmconfig --keys K1,K2 [--set KEY=VALUE]... FILE\n");
		return 2;
	}
	if (read_file(file, allowed))
		return 1;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--set") && add("--set", argv[++i], allowed, "set", 0))
			return 1;
	for (i = 0; i < npairs; i++)
		printf("%s\t%s\t%s\t%d\n", pairs[i].key, pairs[i].value, pairs[i].origin, pairs[i].line);
	return 0;
}
