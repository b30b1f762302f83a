/*
 * reports/compare/changes.c: which figures the summary lists and how.  A
 * bench is built by hand, its cells' summaries and test outcomes set
 * directly, so that these tests check the selection and the words, not
 * the t-test: a change is listed when significant or, between two icount
 * runs, when its mean moved by more than the bench's resolution (the
 * table's range, or the runs' own spread where wider); under the
 * threshold it goes to the one line of small changes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "compare/changes.h"
#include "compare/report.h"

enum { ELAPSED, CPU, N_METRICS };

static struct metric_def metrics[N_METRICS] = {
	[ELAPSED] = { "elapsed", "Elapsed", "s", BETTER_LOWER, "" },
	[CPU] = { "cpu_time", "CPU", "s", BETTER_LOWER, "" },
};

static char *unswept[] = { "-" };
static struct cmp_cell cells[N_METRICS * 2];
static struct bench_cmp bench;
static struct run_info runs[2];
static struct report rep;

/* base and new, icount or not; the resolution table of timedmunlock at path. */
static void setup_report(int icount)
{
	memset(cells, 0, sizeof(cells));
	bench = (struct bench_cmp){
		.data = { .name = "timedmunlock", .n_runs = 2, .metrics = metrics,
			  .n_metrics = N_METRICS, .params = unswept, .n_params = 1 },
		.cells = cells,
	};
	runs[0] = (struct run_info){ .name = "base", .exact_clock = icount };
	runs[1] = (struct run_info){ .name = "new", .exact_clock = icount };
	rep = (struct report){ .opt = { .alpha = 0.05, .threshold = CHANGE_THRESHOLD },
			       .runs = runs, .n_runs = 2, .benches = &bench, .n_benches = 1 };
}

/* A cell's means and spread: mean m, min and max m -+ half, 3 samples. */
static void means(size_t m, double base, double new, double half)
{
	struct cmp_cell *b = (struct cmp_cell *)report_cell(&bench, 0, 0, m);
	struct cmp_cell *c = (struct cmp_cell *)report_cell(&bench, 0, 1, m);

	b->s = (struct summary){ .n = 3, .mean = base, .min = base - half, .max = base + half };
	c->s = (struct summary){ .n = 3, .mean = new, .min = new - half, .max = new + half };
	c->test = (struct ttest){ .outcome = TTEST_NO_DIFFERENCE, .has_pct = 1, .diff = new - base,
				  .diff_pct = 100 * (new - base) / base, .p = 0.3, .mde_pct = 5,
				  .ci_half_pct = 1.5 };
}

static void significant(size_t m, double half_pct)
{
	struct cmp_cell *c = (struct cmp_cell *)report_cell(&bench, 0, 1, m);

	c->test.outcome = TTEST_DIFFERENCE;
	c->test.p = 0.001;
	c->test.ci_half_pct = half_pct;
	c->test.exact = half_pct == 0;
}

static const char *table(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/mmdelta-changes-XXXXXX");
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	setenv("MMDELTA_RESOLUTION", path, 1);
	return path;
}

/* No resolution table: not even drivers/vm/resolution.tsv under $MMDELTA_ROOT. */
static void no_table(void)
{
	setenv("MMDELTA_RESOLUTION", "/nonexistent/resolution.tsv", 1);
}

static void find(void)
{
	struct err e;

	assert_int_equal(changes_find(&rep, &rep.changes, &e), 0);
}

/* Elapsed 2.00 -> 2.04 s, +2% ± 0.5% significant: one line, worse. */
TEST(a_significant_change_is_listed_with_its_interval)
{
	char buf[256];

	no_table();
	setup_report(0);
	means(ELAPSED, 2.0, 2.04, 0.01);
	significant(ELAPSED, 0.5);
	means(CPU, 1.0, 1.0, 0.01);
	find();
	assert_int_equal(rep.changes.n, 1);
	assert_int_equal(rep.changes.c[0].metric, ELAPSED);
	assert_false(rep.changes.c[0].under);
	assert_int_equal(rep.changes.unchanged, 1);
	change_words(&rep, &rep.changes.c[0], buf, sizeof(buf));
	assert_string_equal(buf, "2.00% ± 0.50% worse");
	assert_true(metric_changed(&rep, 0, ELAPSED));
	assert_false(metric_changed(&rep, 0, CPU));
	changes_free(&rep.changes);
}

/* 0.05% exact (icount, constant samples) is real but under 0.1%. */
TEST(a_significant_change_under_the_threshold_goes_on_one_line)
{
	char buf[512];

	no_table();
	setup_report(1);
	means(ELAPSED, 2.0, 2.001, 0);
	significant(ELAPSED, 0);
	means(CPU, 1.0, 1.0, 0);
	find();
	assert_int_equal(rep.changes.n, 1);
	assert_true(rep.changes.c[0].under);
	assert_false(bench_changed(&rep, 0));
	assert_true(under_line(&rep, 1, buf, sizeof(buf)));
	assert_string_equal(buf, "Significant, under 0.1%: timedmunlock Elapsed 0.050% worse, exact.");
	rep.opt.threshold = 0.01;
	changes_free(&rep.changes);
	find();
	assert_false(rep.changes.c[0].under);
	assert_true(bench_changed(&rep, 0));
	changes_free(&rep.changes);
}

/*
 * icount, not significant: CPU's mean moved 1% (1.00 -> 1.01), the table's
 * range is 0.2% and the runs' own spread 0.5% (±0.0025 of 1.0): beyond.
 * Elapsed moved 1% too, but its iterations spread by 4% (±0.04 of 2.0):
 * within.
 */
TEST(under_icount_a_move_beyond_the_resolution_is_listed_though_not_significant)
{
	const char *path = table("timedmunlock\tcpu_time\t-\t1e-3\t2e-3\tidentical\tk\t5\n"
				 "timedmunlock\telapsed\t-\t1e-3\t2e-3\tidentical\tk\t5\n");
	char buf[256];

	setup_report(1);
	means(ELAPSED, 2.0, 2.02, 0.04);
	means(CPU, 1.0, 1.01, 0.0025);
	find();
	assert_int_equal(rep.changes.n, 1);
	assert_int_equal(rep.changes.c[0].metric, CPU);
	assert_true(rep.changes.c[0].beyond);
	assert_true(fabs(rep.changes.c[0].range_pct - 0.5) < 1e-9);
	change_words(&rep, &rep.changes.c[0], buf, sizeof(buf));
	assert_string_equal(buf, "1.0% ± 1.5% worse, beyond resolution 0.5%, not significant (p 0.3)");
	/* the same figures under a real clock: nothing is listed */
	changes_free(&rep.changes);
	setup_report(0);
	means(ELAPSED, 2.0, 2.02, 0.04);
	means(CPU, 1.0, 1.01, 0.0025);
	find();
	assert_int_equal(rep.changes.n, 0);
	assert_int_equal(rep.changes.unchanged, 2);
	remove(path);
	no_table();
}

/* What the runs could see: the primary metric's detectable change. */
TEST(the_unchanged_line_names_what_each_bench_could_detect)
{
	char buf[512];

	no_table();
	setup_report(0);
	means(ELAPSED, 2.0, 2.0, 0.01);
	means(CPU, 1.0, 1.0, 0.01);
	find();
	unchanged_line(&rep, buf, sizeof(buf));
	assert_string_equal(buf, "2 figures: no difference proven; the smallest change each bench could detect "
				 "(its primary metric, 80% power): timedmunlock 5.0%.");
	changes_free(&rep.changes);
}
