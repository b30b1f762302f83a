/*
 * The CPUs this process may run on, as sched_getaffinity() gives them (so
 * cpusets, taskset and a config's CPU= are honoured): how many there are,
 * which is the i-th (to bind task i), and a number of tasks written as a
 * share of them, as the kernel test robot writes nr_task ("50%").
 */
#ifndef MMDELTA_CPUS_H
#define MMDELTA_CPUS_H
#include <sched.h>
#include <stdint.h>

/* How many CPUs this process may run on; 0 when that cannot be read. */
long cpus_allowed(void);

/* The number of the (i modulo their count)-th allowed CPU; -1 when unreadable. */
int cpus_nth(uint64_t i);

/* *one holds only that CPU, to bind task i to; its number, or -1. */
int cpus_nth_set(uint64_t i, cpu_set_t *one);

/*
 * A number of tasks: "N", or "P%" of ncpus, rounded down but at least 1.
 * 0 and *out set, or -1 with *why pointing at a static description.
 */
int tasks_parse(const char *s, long ncpus, uint64_t *out, const char **why);

#endif
