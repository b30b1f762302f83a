/* stress-ng's --yaml output.  See stressng-yaml.h. */
#include "stressng-yaml.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "  key: value" split in place; 0, or -1 for a line that is not so. */
static int key_value(char *line, char **key, char **value)
{
	char *colon;

	*key = line + strspn(line, " -");
	colon = strstr(*key, ": ");
	if (!colon)
		return -1;
	*colon = '\0';
	*value = colon + 2;
	(*value)[strcspn(*value, "\r\n")] = '\0';
	return 0;
}

static void add_metric(struct sng_yaml *y, const char *key, const char *value)
{
	char *end;
	double v = strtod(value, &end);

	if (end == value || *end || y->n == SNG_YAML_MAX)
		return;
	snprintf(y->metric[y->n].key, sizeof(y->metric[y->n].key), "%s", key);
	y->metric[y->n].value = v;
	y->n++;
}

/*
 * Entries under metrics: start with "- stressor: NAME"; a key line of the
 * entry being read belongs to it until the next entry or section.
 */
static void read_lines(FILE *f, const char *stressor, struct sng_yaml *y, int *found)
{
	char line[512], *key, *value;
	int in_metrics = 0, ours = 0;

	while (fgets(line, sizeof(line), f)) {
		if (line[0] != ' ' && line[0] != '-') {
			in_metrics = !strncmp(line, "metrics:", 8);
			ours = 0;
			continue;
		}
		if (key_value(line, &key, &value))
			continue;
		if (!strcmp(key, "stress-ng-version"))
			snprintf(y->version, sizeof(y->version), "%s", value);
		else if (in_metrics && !strcmp(key, "stressor"))
			*found |= ours = !strcmp(value, stressor);
		else if (ours)
			add_metric(y, key, value);
	}
}

int sng_yaml_read(const char *path, const char *stressor, struct sng_yaml *y)
{
	FILE *f = fopen(path, "r");
	int found = 0;

	memset(y, 0, sizeof(*y));
	if (!f)
		return bench_fail("stress-ng wrote no YAML (%s): %m", path);
	read_lines(f, stressor, y, &found);
	fclose(f);
	if (!found)
		return bench_fail("%s: stress-ng's YAML has no metrics of this stressor", stressor);
	return 0;
}

int sng_yaml_get(const struct sng_yaml *y, const char *key, double *value)
{
	for (size_t i = 0; i < y->n; i++) {
		if (!strcmp(y->metric[i].key, key)) {
			*value = y->metric[i].value;
			return 0;
		}
	}
	return -1;
}
