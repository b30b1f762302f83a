/*
 * reports/render/lkpnames.c: the suite's names in the kernel test robot's
 * words.  The expected names are the robot's own, as lkp-tests' parsers
 * print them (programs/will-it-scale/parse, programs/stress-ng/parse) and
 * its mails head their comparisons.
 */
#include <string.h>

#include "unit.h"
#include "render/lkpnames.h"

static struct kv wis_kv[] = {
	{ "BENCH", "willitscale" }, { "MODE", "thread" }, { "TASKS", "1 50% 100%" },
	{ "TEST", "mmap1" }, { "sweep", "TASKS" },
};
static const struct kvlist wis = { wis_kv, 5 };

static struct kv sng_kv[] = {
	{ "BENCH", "stressng" }, { "STRESSOR", "mremap" }, { "WORKERS", "1 2" }, { "sweep", "WORKERS" },
};
static const struct kvlist sng = { sng_kv, 4 };

static struct kv heap_kv[] = { { "BENCH", "heaprelease" }, { "PATTERN", "mprotect madvise" }, { "sweep", "PATTERN" } };
static const struct kvlist heap = { heap_kv, 3 };

TEST(will_it_scale_metrics_take_the_robots_names)
{
	struct lkp_point pt = { "willitscale", &wis, "50%" };
	char name[128];

	assert_int_equal(lkp_metric_name(&pt, "per_thread_ops", name, sizeof(name)), 1);
	assert_string_equal(name, "will-it-scale.per_thread_ops");
	assert_int_equal(lkp_metric_name(&pt, "per_process_ops", name, sizeof(name)), 1);
	assert_string_equal(name, "will-it-scale.per_process_ops");
	assert_int_equal(lkp_metric_name(&pt, "workload", name, sizeof(name)), 1);
	assert_string_equal(name, "will-it-scale.workload");
}

TEST(a_metric_the_robot_lacks_keeps_the_suites_name)
{
	struct lkp_point pt = { "willitscale", &wis, "1" };
	char name[128];

	/* will-it-scale has no time per operation: no will-it-scale.ns_per_op */
	assert_int_equal(lkp_metric_name(&pt, "ns_per_op", name, sizeof(name)), 0);
	assert_string_equal(name, "willitscale.ns_per_op");
}

TEST(stress_ng_metrics_name_the_stressor_from_the_config)
{
	struct lkp_point pt = { "stressng", &sng, "2" };
	char name[128];

	assert_int_equal(lkp_metric_name(&pt, "ops_per_sec", name, sizeof(name)), 1);
	assert_string_equal(name, "stress-ng.mremap.ops_per_sec");
	assert_int_equal(lkp_metric_name(&pt, "ops", name, sizeof(name)), 1);
	assert_string_equal(name, "stress-ng.mremap.ops");
	/* a stressor's own figure, as the robot's parser names stress-ng's table line */
	assert_int_equal(lkp_metric_name(&pt, "nanosecs_per_mremap_call", name, sizeof(name)), 1);
	assert_string_equal(name, "stress-ng.mremap.nanosecs_per_mremap_call");
	assert_int_equal(lkp_metric_name(&pt, "page_remaps_per_sec", name, sizeof(name)), 1);
	assert_string_equal(name, "stress-ng.mremap.page_remaps_per_sec");
}

TEST(stress_ngs_times_and_the_harness_ones_are_not_the_robots)
{
	struct lkp_point pt = { "stressng", &sng, "1" };
	char name[128];

	/* the robot's stress-ng.time.user_time is /usr/bin/time's, not the stressor's */
	assert_int_equal(lkp_metric_name(&pt, "user_time", name, sizeof(name)), 0);
	assert_string_equal(name, "stressng.user_time");
	assert_int_equal(lkp_metric_name(&pt, "ns_per_bogo_op", name, sizeof(name)), 0);
	assert_string_equal(name, "stressng.ns_per_bogo_op");
}

TEST(a_swept_key_takes_the_points_value)
{
	static struct kv kv[] = { { "BENCH", "stressng" }, { "STRESSOR", "mremap madvise" }, { "sweep", "STRESSOR" } };
	static const struct kvlist swept = { kv, 3 };
	struct lkp_point pt = { "stressng", &swept, "madvise" };
	char name[128];

	lkp_metric_name(&pt, "ops_per_sec", name, sizeof(name));
	assert_string_equal(name, "stress-ng.madvise.ops_per_sec");
	assert_string_equal(lkp_key(&pt, "STRESSOR"), "madvise");
	assert_null(lkp_key(&pt, "NOSUCH"));
}

TEST(vmstat_counters_are_the_robots_proc_vmstat)
{
	struct lkp_point pt = { "heaprelease", &heap, "mprotect" };
	char name[128];

	assert_int_equal(lkp_metric_name(&pt, "vmstat_pgfault", name, sizeof(name)), 1);
	assert_string_equal(name, "proc-vmstat.pgfault");
}

TEST(insns_counts_are_named_as_a_monitors)
{
	struct lkp_point pt = { "willitscale", &wis, "1" };
	char name[128];

	assert_int_equal(lkp_metric_name(&pt, "insns_total", name, sizeof(name)), 1);
	assert_string_equal(name, "insns.total");
}

TEST(axes_are_the_robots_job_parameters)
{
	struct lkp_point pt = { "willitscale", &wis, "50%" };
	char keys[128], values[128];

	lkp_axes(&pt, keys, values, sizeof(keys));
	assert_string_equal(keys, "mode/nr_task/test/testcase");
	assert_string_equal(values, "thread/50%/mmap1/will-it-scale");
	pt = (struct lkp_point){ "stressng", &sng, "2" };
	lkp_axes(&pt, keys, values, sizeof(keys));
	assert_string_equal(keys, "nr_threads/test/testcase");
	assert_string_equal(values, "2/mremap/stress-ng");
}

TEST(a_bench_the_robot_lacks_has_its_swept_key_and_name_as_axes)
{
	struct lkp_point pt = { "heaprelease", &heap, "madvise" };
	char keys[128], values[128];

	lkp_axes(&pt, keys, values, sizeof(keys));
	assert_string_equal(keys, "pattern/testcase");
	assert_string_equal(values, "madvise/heaprelease");
	pt.sweep_value = NULL;
	pt.config = NULL;
	lkp_axes(&pt, keys, values, sizeof(keys));
	assert_string_equal(keys, "testcase");
	assert_string_equal(values, "heaprelease");
}

TEST(names_are_cut_to_the_buffer_not_past_it)
{
	struct lkp_point pt = { "stressng", &sng, "1" };
	char name[12];

	lkp_metric_name(&pt, "ops_per_sec", name, sizeof(name));
	assert_string_equal(name, "stress-ng.m");
}

TEST(perf_profile_shares_and_percentages_change_in_points)
{
	assert_true(lkp_absolute_change("perf-profile.self.instructions.can_modify_mm"));
	assert_true(lkp_absolute_change("mpstat.cpu.all.usr%"));
	assert_false(lkp_absolute_change("will-it-scale.per_thread_ops"));
	assert_false(lkp_absolute_change(""));
}
