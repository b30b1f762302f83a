/* Unit tests for bench/lib/cpus.c: task counts as N or a share of the CPUs. */
#include <sched.h>
#include <stdint.h>

#include "cpus.h"
#include "unit.h"

static uint64_t tasks_ok(const char *s, long ncpus)
{
	uint64_t v = 0;
	const char *why = NULL;

	assert_int_equal(tasks_parse(s, ncpus, &v, &why), 0);
	return v;
}

static const char *tasks_err(const char *s, long ncpus)
{
	uint64_t v = 0;
	const char *why = NULL;

	assert_int_equal(tasks_parse(s, ncpus, &v, &why), -1);
	assert_non_null(why);
	return why;
}

TEST(tasks_plain_numbers_are_taken_as_they_are)
{
	(void)state;
	assert_int_equal(tasks_ok("1", 8), 1);
	assert_int_equal(tasks_ok("4096", 8), 4096);
	assert_int_equal(tasks_ok("17", 2), 17);
}

TEST(tasks_percent_is_a_share_of_the_cpus_rounded_down)
{
	(void)state;
	assert_int_equal(tasks_ok("100%", 104), 104);
	assert_int_equal(tasks_ok("50%", 104), 52);
	assert_int_equal(tasks_ok("50%", 3), 1);
	assert_int_equal(tasks_ok("200%", 3), 6);
	assert_int_equal(tasks_ok("25%", 8), 2);
}

TEST(tasks_percent_of_one_cpu_is_one_task_not_none)
{
	(void)state;
	assert_int_equal(tasks_ok("50%", 1), 1);
	assert_int_equal(tasks_ok("1%", 2), 1);
	assert_int_equal(tasks_ok("100%", 1), 1);
}

TEST(tasks_rejects_none_and_what_is_not_a_count)
{
	(void)state;
	assert_string_equal(tasks_err("0", 8), "at least one task is needed");
	assert_string_equal(tasks_err("0%", 8), "at least one task is needed");
	assert_string_equal(tasks_err("", 8), "not a number of tasks (expected N, or P% of the CPUs)");
	assert_string_equal(tasks_err("-1", 8), "not a number of tasks (expected N, or P% of the CPUs)");
	assert_string_equal(tasks_err("4x", 8), "not a number of tasks (expected N, or P% of the CPUs)");
	assert_string_equal(tasks_err("50%%", 8), "not a number of tasks (expected N, or P% of the CPUs)");
	assert_string_equal(tasks_err("99999999999999999999", 8), "number too large");
	assert_string_equal(tasks_err("50%", 0), "cannot read the CPUs this process may run on, for a percentage");
}

TEST(cpus_nth_counts_round_the_allowed_set)
{
	cpu_set_t allowed;
	long n = cpus_allowed();
	int first = -1;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	assert_int_equal(n, CPU_COUNT(&allowed));
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &allowed))
			first = c;
	assert_int_equal(cpus_nth(0), first);
	assert_int_equal(cpus_nth((uint64_t)n), first);
	assert_true(CPU_ISSET(cpus_nth((uint64_t)n - 1), &allowed));
	/* the set to bind to holds that CPU alone */
	assert_int_equal(cpus_nth_set((uint64_t)n, &allowed), first);
	assert_int_equal(CPU_COUNT(&allowed), 1);
	assert_true(CPU_ISSET(first, &allowed));
}
