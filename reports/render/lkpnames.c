/*
 * The mapping from the suite's names to the kernel test robot's.  Its
 * metrics are those of lkp-tests' parsers (programs/will-it-scale/parse,
 * programs/stress-ng/parse) and monitors (proc-vmstat is /proc/vmstat);
 * its axes are the job's parameters, named as its mails name them.
 */
#include <stdio.h>
#include <string.h>

#include "render/lkpnames.h"

/*
 * metric: the suite's name, a trailing '*' matching any rest; robot: the
 * robot's, where '*' is that rest and {KEY} the key's value at the point.
 * bench NULL: any bench.  The first match wins; a metric without a line
 * is the suite's own.  stressng's other metrics (stress-ng's times, RSS,
 * CPU share; the harness's time per bogo-op) are not the robot's: its
 * stress-ng.time.* are /usr/bin/time's of the whole stress-ng process.
 * A stressor's own figures ("page remaps per sec" in stress-ng's table)
 * are the robot's under its parser's names, the words joined by '_'.
 */
static const struct {
	const char *bench, *metric, *robot;
} metrics[] = {
	{ "willitscale", "per_process_ops", "will-it-scale.per_process_ops" },
	{ "willitscale", "per_thread_ops", "will-it-scale.per_thread_ops" },
	{ "willitscale", "workload", "will-it-scale.workload" },
	{ "stressng", "ops_per_sec", "stress-ng.{STRESSOR}.ops_per_sec" },
	{ "stressng", "ops", "stress-ng.{STRESSOR}.ops" },
	{ "stressng", "page_remaps_per_sec", "stress-ng.{STRESSOR}.page_remaps_per_sec" },
	{ "stressng", "nanosecs_per_*", "stress-ng.{STRESSOR}.nanosecs_per_*" },
	{ NULL, "vmstat_*", "proc-vmstat.*" },
	/* the insns monitor's counts of the region, named as a robot monitor's are */
	{ NULL, "insns_*", "insns.*" },
};

#define MAX_AXES 4

/* The robot's axes of a bench, in the order its mails list them, and the keys behind them. */
static const struct {
	const char *bench, *testcase;
	const char *axis[MAX_AXES], *key[MAX_AXES];
} axes[] = {
	{ "willitscale", "will-it-scale", { "mode", "nr_task", "test" }, { "MODE", "TASKS", "TEST" } },
	{ "stressng", "stress-ng", { "nr_threads", "test" }, { "WORKERS", "STRESSOR" } },
};

const char *lkp_key(const struct lkp_point *pt, const char *key)
{
	const char *swept = pt->config ? kv_get(pt->config, "sweep") : NULL;

	if (swept && pt->sweep_value && !strcmp(swept, key))
		return pt->sweep_value;
	return pt->config ? kv_get(pt->config, key) : NULL;
}

static int metric_matches(const char *pattern, const char *metric, const char **rest)
{
	size_t n = strlen(pattern);

	if (n && pattern[n - 1] == '*') {
		*rest = metric + n - 1;
		return !strncmp(pattern, metric, n - 1);
	}
	*rest = "";
	return !strcmp(pattern, metric);
}

/* Append s to buf at *at, cut at len. */
static void put(char *buf, size_t len, size_t *at, const char *s, size_t n)
{
	while (n-- && *s && *at + 1 < len)
		buf[(*at)++] = *s++;
	buf[*at] = '\0';
}

/* robot with '*' replaced by rest and {KEY} by its value ("{KEY}" itself when the point has none). */
static void expand(const struct lkp_point *pt, const char *robot, const char *rest, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	while (*robot) {
		const char *close = *robot == '{' ? strchr(robot, '}') : NULL;

		if (*robot == '*') {
			put(buf, len, &at, rest, strlen(rest));
			robot++;
		} else if (close) {
			char key[64];
			const char *v;

			snprintf(key, sizeof(key), "%.*s", (int)(close - robot - 1), robot + 1);
			v = lkp_key(pt, key);
			put(buf, len, &at, v ? v : robot, v ? strlen(v) : (size_t)(close - robot + 1));
			robot = close + 1;
		} else {
			put(buf, len, &at, robot++, 1);
		}
	}
}

int lkp_metric_name(const struct lkp_point *pt, const char *metric, char *buf, size_t len)
{
	const char *rest;

	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if ((!metrics[i].bench || !strcmp(metrics[i].bench, pt->bench)) &&
		    metric_matches(metrics[i].metric, metric, &rest)) {
			expand(pt, metrics[i].robot, rest, buf, len);
			return 1;
		}
	snprintf(buf, len, "%s.%s", pt->bench, metric);
	return 0;
}

/* A bench the table lacks: its swept key, lower case as the robot's axes are, and the bench as testcase. */
static void default_axes(const struct lkp_point *pt, char *keys, char *values, size_t len)
{
	const char *swept = pt->config ? kv_get(pt->config, "sweep") : NULL;
	size_t i;

	if (!swept || !pt->sweep_value) {
		snprintf(keys, len, "testcase");
		snprintf(values, len, "%s", pt->bench);
		return;
	}
	for (i = 0; swept[i] && i + 1 < len; i++)
		keys[i] = (char)(swept[i] >= 'A' && swept[i] <= 'Z' ? swept[i] - 'A' + 'a' : swept[i]);
	keys[i] = '\0';
	snprintf(keys + i, len - i, "/testcase");
	snprintf(values, len, "%s/%s", pt->sweep_value, pt->bench);
}

void lkp_axes(const struct lkp_point *pt, char *keys, char *values, size_t len)
{
	size_t k = 0, v = 0;

	for (size_t i = 0; i < sizeof(axes) / sizeof(axes[0]); i++) {
		if (strcmp(axes[i].bench, pt->bench))
			continue;
		keys[0] = values[0] = '\0';
		for (size_t a = 0; a < MAX_AXES && axes[i].axis[a]; a++) {
			const char *val = lkp_key(pt, axes[i].key[a]);

			put(keys, len, &k, axes[i].axis[a], strlen(axes[i].axis[a]));
			put(keys, len, &k, "/", 1);
			put(values, len, &v, val ? val : "-", strlen(val ? val : "-"));
			put(values, len, &v, "/", 1);
		}
		put(keys, len, &k, "testcase", 8);
		put(values, len, &v, axes[i].testcase, strlen(axes[i].testcase));
		return;
	}
	default_axes(pt, keys, values, len);
}

int lkp_absolute_change(const char *name)
{
	size_t n = strlen(name);

	return !strncmp(name, "perf-profile", 12) || (n && name[n - 1] == '%');
}
