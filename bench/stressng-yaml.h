/*
 * stress-ng's --yaml output, as much of it as the stressng bench reads:
 * the version under system-info, and one stressor's entry under metrics,
 * "key: value" lines each:
 *
 *   system-info:
 *         stress-ng-version: 0.15.06
 *   metrics:
 *       - stressor: mremap
 *         bogo-ops: 200
 *         wall-clock-time: 57.979900
 *         nanosecs-per-mremap-call: 568510.711193
 */
#ifndef MMDELTA_STRESSNG_YAML_H
#define MMDELTA_STRESSNG_YAML_H

#include <stddef.h>

#define SNG_YAML_MAX 32

struct sng_yaml {
	char version[32];
	size_t n;
	struct {
		char key[64];
		double value;
	} metric[SNG_YAML_MAX];
};

/* 0 with the stressor's entry in *y, or -1 after saying what is missing. */
int sng_yaml_read(const char *path, const char *stressor, struct sng_yaml *y);

/* The value of KEY in *y; 0 when it has one, -1 when not. */
int sng_yaml_get(const struct sng_yaml *y, const char *key, double *value);

#endif
