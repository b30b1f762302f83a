#include "cpus.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

long cpus_allowed(void)
{
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0;
	return CPU_COUNT(&allowed);
}

/*
 * sched_getaffinity rather than hwloc: the allowed set already honours
 * cpusets and taskset, and x86 numbers one thread of every core before the
 * SMT siblings, so the first CPUs are separate cores, as will-it-scale's
 * binding to hwloc's cores gives them.
 */
int cpus_nth(uint64_t i)
{
	cpu_set_t allowed;
	uint64_t n, seen = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -1;
	n = (uint64_t)CPU_COUNT(&allowed);
	for (int c = 0; n && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed) && seen++ == i % n)
			return c;
	return -1;
}

int cpus_nth_set(uint64_t i, cpu_set_t *one)
{
	int cpu = cpus_nth(i);

	CPU_ZERO(one);
	if (cpu >= 0)
		CPU_SET(cpu, one);
	return cpu;
}

int tasks_parse(const char *s, long ncpus, uint64_t *out, const char **why)
{
	char *end;
	unsigned long long n;

	if (!isdigit((unsigned char)*s)) {
		*why = "not a number of tasks (expected N, or P% of the CPUs)";
		return -1;
	}
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno == ERANGE || n > 1000000) {
		*why = "number too large";
		return -1;
	}
	if (end[0] == '%' && end[1] == '\0' && n > 0) {
		if (ncpus <= 0) {
			*why = "cannot read the CPUs this process may run on, for a percentage";
			return -1;
		}
		/* The robot's 50% of one CPU is one task, not none. */
		n = n * (unsigned long long)ncpus / 100;
		if (n == 0)
			n = 1;
	} else if (*end && strcmp(end, "%")) {
		*why = "not a number of tasks (expected N, or P% of the CPUs)";
		return -1;
	}
	if (n == 0) {
		*why = "at least one task is needed";
		return -1;
	}
	*out = n;
	return 0;
}
