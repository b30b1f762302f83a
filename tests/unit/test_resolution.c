/*
 * reports/stats/resolution.c: a bench's icount spread from a table in the
 * form of drivers/vm/resolution.tsv.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "stats/resolution.h"
#include "rundir/kvfile.h"

static const char *table(const char *text)
{
	static char path[64];
	int fd;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/mmdelta-resolution-XXXXXX");
	fd = mkstemp(path);
	f = fdopen(fd, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static const char lines[] =
	"# bench\tmetric\tparam\tcv\trange\tboots\tkernel\titerations\n"
	"heaprelease\telapsed\tmadvise\t1.07e-03\t2.53e-03\tidentical\t6.12.117\t5\n"
	"heaprelease\telapsed\tmprotect\t1.65e-03\t3.62e-03\tidentical\t6.12.117\t5\n"
	"heaprelease\tcpu_time\tmadvise\t1.38e-04\t3.85e-04\tidentical\t6.12.117\t5\n"
	"timedmunlock\telapsed\t-\t2.30e-05\t4.40e-05\tidentical\t6.12.117\t5\n";

TEST(the_point_s_own_line_is_read)
{
	struct resolution r;
	struct err e;
	const char *p = table(lines);

	assert_int_equal(resolution_find(p, "heaprelease", "elapsed", "madvise", NULL, &r, &e), 1);
	assert_true(fabs(r.cv - 1.07e-3) < 1e-15);
	assert_true(fabs(r.range - 2.53e-3) < 1e-15);
	assert_string_equal(r.kernel, "6.12.117");
	assert_int_equal(resolution_find(p, "timedmunlock", "elapsed", "-", NULL, &r, &e), 1);
	assert_true(fabs(r.range - 4.4e-5) < 1e-15);
	remove(p);
}

TEST(a_point_the_table_lacks_takes_the_widest_spread_of_the_bench)
{
	struct resolution r;
	struct err e;
	const char *p = table(lines);

	assert_int_equal(resolution_find(p, "heaprelease", "elapsed", "-", NULL, &r, &e), 1);
	assert_true(fabs(r.range - 3.62e-3) < 1e-15);
	assert_int_equal(resolution_find(p, "sparsemunmap", "elapsed", "-", NULL, &r, &e), 0);
	assert_int_equal(resolution_find("/nonexistent/resolution.tsv", "heaprelease", "elapsed", "-", NULL, &r, &e), 0);
	remove(p);
}

static const char catalog[] =
	"stressng\tns_per_bogo_op\tSTRESSOR=mremap\t3.0e-03\t6.0e-03\tidentical\t6.1.0-57\t3\n"
	"stressng\tns_per_bogo_op\tSTRESSOR=mremap\t2.0e-03\t9.0e-03\tidentical\t6.12.117\t3\n"
	"stressng\tns_per_bogo_op\tSTRESSOR=vm\t0.9\t2.1\tidentical\t6.12.117\t3\n";

TEST(a_key_value_line_is_every_point_whose_config_has_that_value)
{
	static struct kv one[] = { { "BENCH", "stressng" }, { "STRESSOR", "mremap" }, { "WORKERS", "1 50%" }, { "sweep", "WORKERS" } };
	static struct kv all[] = { { "BENCH", "stressng" }, { "STRESSOR", "mremap vm" }, { "sweep", "STRESSOR" } };
	static const struct kvlist stress_ng_mremap = { one, 4 }, the_catalog = { all, 3 };
	struct resolution r;
	struct err e;
	const char *p = table(catalog);

	/* stress-ng-mremap at either WORKERS: mremap's lines, the wider of its two kernels' */
	assert_int_equal(resolution_find(p, "stressng", "ns_per_bogo_op", "50%", &stress_ng_mremap, &r, &e), 1);
	assert_true(fabs(r.range - 9.0e-3) < 1e-15);
	assert_string_equal(r.kernel, "6.12.117");
	/* the catalog's point mremap: the swept key's value is the point's */
	assert_int_equal(resolution_find(p, "stressng", "ns_per_bogo_op", "mremap", &the_catalog, &r, &e), 1);
	assert_true(fabs(r.range - 9.0e-3) < 1e-15);
	/* no config: no line is the point's, so the widest, vm's */
	assert_int_equal(resolution_find(p, "stressng", "ns_per_bogo_op", "mremap", NULL, &r, &e), 1);
	assert_true(fabs(r.range - 2.1) < 1e-15);
	remove(p);
}

TEST(a_spread_that_is_no_number_is_an_error_naming_the_line)
{
	struct resolution r;
	struct err e;
	const char *p = table("heaprelease\telapsed\t-\tfast\t0.1\n");

	assert_int_equal(resolution_find(p, "heaprelease", "elapsed", "-", NULL, &r, &e), -1);
	assert_non_null(strstr(e.msg, ":1: 'fast' is not a spread"));
	remove(p);
}
