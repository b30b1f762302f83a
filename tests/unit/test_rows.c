/*
 * reports/rows.c: which rows a metric's block has, its unit, label and
 * header, and each run's cell as every table prints it.  The bench is built
 * by hand: a struct bench_cmp whose cells hold summaries of the samples
 * given, and, where a test needs one, a t-test outcome set directly, so
 * that these tests check rows.c and not the t-test.  The percentages are
 * mmtests' (docs/compare.md): positive is better, 100 - new*100/base where
 * lower is better, new*100/base - 100 where higher is, spread always
 * lower-is-better, and a counter's the plain change.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "compare/rows.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

enum { ELAPSED, RATE, PAGES, N_METRICS };

/* As timedmunlock and heaprelease describe them in metrics.tsv. */
static struct metric_def metrics[N_METRICS] = {
	[ELAPSED] = { "elapsed", "Elapsed", "s", BETTER_LOWER, "" },
	[RATE] = { "rate", "Rate", "ops/s", BETTER_HIGHER, "" },
	[PAGES] = { "pages", "Pages", "count", BETTER_NONE, "" },
};

/* A bench whose metric 0 is listed after a monitor's, as a merged
 * metrics.tsv may have it: the tables still put the bench's own first. */
enum { VM_A, OWN, VM_B, PERF, VM_C, N_MON };
static struct metric_def monitored[N_MON] = {
	[VM_A] = { "vmstat_pgfault", "pgfault", "count", BETTER_NONE, "vmstat" },
	[OWN] = { "elapsed", "Elapsed", "s", BETTER_LOWER, "" },
	[VM_B] = { "vmstat_pgmajfault", "pgmajfault", "count", BETTER_NONE, "vmstat" },
	[PERF] = { "perf_dtlb_misses", "dTLB-misses", "count", BETTER_NONE, "perfstat" },
	[VM_C] = { "vmstat_thp_fault_alloc", "thp_fault_alloc", "count", BETTER_NONE, "vmstat" },
};

static char *unswept[] = { "-" };
static char *swept[] = { "1", "2" };	/* THREADS=1 2 */

#define MAX_CELLS 32
static struct cmp_cell cells[MAX_CELLS];
static struct bench_cmp bench;

static struct bench_cmp *bench_of(struct metric_def *defs, size_t n_metrics,
				  char **params, size_t n_params, size_t n_runs)
{
	assert_true(n_params * n_runs * n_metrics <= MAX_CELLS);
	memset(cells, 0, sizeof(cells));
	bench = (struct bench_cmp){
		.data = { .name = "timedmunlock", .n_runs = n_runs, .metrics = defs,
			  .n_metrics = n_metrics, .params = params, .n_params = n_params },
		.cells = cells,
	};
	return &bench;
}

static struct cmp_cell *cell(size_t p, size_t r, size_t m)
{
	return (struct cmp_cell *)report_cell(&bench, p, r, m);
}

/* The samples of one cell: summarized as report.c does it. */
static void fill(size_t p, size_t r, size_t m, const double *x, size_t n)
{
	double copy[64];

	assert_true(n <= 64);
	memcpy(copy, x, n * sizeof(*x));
	summarize(copy, n, &cell(p, r, m)->s);
}

#define SAMPLES(p, r, m, ...)								\
	do {										\
		const double x_[] = { __VA_ARGS__ };					\
		fill(p, r, m, x_, sizeof(x_) / sizeof(x_[0]));			\
	} while (0)

/* n samples 1, 2, ..., n seconds */
static void ramp(size_t p, size_t r, size_t m, size_t n)
{
	double x[64];

	for (size_t i = 0; i < n; i++)
		x[i] = (double)(i + 1);
	fill(p, r, m, x, n);
}

/* The cell of run r in the row of stat, in the block's own unit. */
static struct row_cell cell_of(size_t m, size_t p, enum stat_id stat, size_t r)
{
	struct row rw = { m, p, stat };
	struct scale sc;
	struct row_cell c;

	metric_scale(&bench, m, &sc);
	row_cell(&bench, &rw, r, &sc, &c);
	return c;
}

/* The fixtures' README: 3.11-rc3-0 against 3.11-rc3-1. */
static void elapsed_base_and_faster(void)
{
	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, ELAPSED, 3.38, 3.39, 3.40, 3.41);	/* mean 3.395 */
	SAMPLES(0, 1, ELAPSED, 1.90, 1.92, 1.93, 1.94);	/* mean 1.9225 */
}

TEST(rows_are_min_to_cv_for_each_swept_value)
{
	struct row *rows;
	size_t n;

	bench_of(metrics, N_METRICS, swept, 2, 2);
	for (size_t p = 0; p < 2; p++)
		for (size_t r = 0; r < 2; r++)
			ramp(p, r, ELAPSED, 3);
	n = metric_rows(&bench, ELAPSED, &rows);
	/* min mean stddev max range cv for THREADS=1, then the same for 2 */
	assert_int_equal(n, 12);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(rows[i].metric, ELAPSED);
		assert_int_equal(rows[i].param, i / 6);
		assert_int_equal(rows[i].stat, (enum stat_id)(ST_MIN + i % 6));
	}
	assert_int_equal(rows[5].stat, ST_COEFFVAR);
	free(rows);
}

TEST(times_with_20_samples_in_every_run_add_median_and_percentiles)
{
	struct row *rows;
	size_t n;

	bench_of(metrics, N_METRICS, unswept, 1, 2);
	ramp(0, 0, ELAPSED, 20);
	ramp(0, 1, ELAPSED, 20);
	n = metric_rows(&bench, ELAPSED, &rows);
	/* min mean stddev max range cv median p90 p95 p99 */
	assert_int_equal(n, 10);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(rows[i].stat, (enum stat_id)i);
	assert_int_equal(rows[6].stat, ST_MEDIAN);
	assert_int_equal(rows[9].stat, ST_P99);
	free(rows);
}

/* Percentiles of 19 samples are the max under another name. */
TEST(a_run_under_20_samples_leaves_out_the_percentiles)
{
	struct row *rows;

	bench_of(metrics, N_METRICS, unswept, 1, 2);
	ramp(0, 0, ELAPSED, 20);
	ramp(0, 1, ELAPSED, 19);
	assert_int_equal(metric_rows(&bench, ELAPSED, &rows), 6);
	assert_int_equal(rows[5].stat, ST_COEFFVAR);
	free(rows);
}

/*
 * Means 3.395 s and 1.9225 s at THREADS=1, 0.002 s and 0 at THREADS=2: the
 * smallest non-zero one is 0.002 s = 2 ms, so the whole block is in ms
 * (in s it would read 0.00).
 */
TEST(block_unit_follows_the_smallest_nonzero_mean)
{
	struct scale sc;

	bench_of(metrics, N_METRICS, swept, 2, 2);
	SAMPLES(0, 0, ELAPSED, 3.38, 3.39, 3.40, 3.41);
	SAMPLES(0, 1, ELAPSED, 1.90, 1.92, 1.93, 1.94);
	SAMPLES(1, 0, ELAPSED, 0.0019, 0.0020, 0.0021);
	SAMPLES(1, 1, ELAPSED, 0, 0, 0);
	metric_scale(&bench, ELAPSED, &sc);
	assert_string_equal(sc.unit, "ms");
	NEAR(sc.div, 1e-3, 1e-18);
}

TEST(header_names_the_block_unit)
{
	char buf[64];

	/* smallest mean 0.002 s: "Elapsed [ms]" */
	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, ELAPSED, 3.38, 3.39, 3.40, 3.41);
	SAMPLES(0, 1, ELAPSED, 0.0019, 0.0020, 0.0021);
	metric_header(&bench, ELAPSED, buf, sizeof(buf));
	assert_string_equal(buf, "Elapsed [ms]");
	/* pages 2e6: 2.00 M; 500 pages take no prefix and say count */
	SAMPLES(0, 0, PAGES, 2e6, 2e6);
	SAMPLES(0, 1, PAGES, 2e6, 2e6);
	metric_header(&bench, PAGES, buf, sizeof(buf));
	assert_string_equal(buf, "Pages [M]");
	SAMPLES(0, 1, PAGES, 500, 500);
	metric_header(&bench, PAGES, buf, sizeof(buf));
	assert_string_equal(buf, "Pages [count]");
}

TEST(a_swept_value_labels_its_rows_name_dash_value)
{
	char buf[64];

	bench_of(metrics, N_METRICS, swept, 2, 2);
	metric_label(&bench, ELAPSED, 1, buf, sizeof(buf));
	assert_string_equal(buf, "Elapsed-2");
	bench_of(metrics, N_METRICS, unswept, 1, 2);
	metric_label(&bench, ELAPSED, 0, buf, sizeof(buf));
	assert_string_equal(buf, "Elapsed");
}

/* mean 3.395 -> 1.9225 s: 100 - 192.25/3.395 = 43.37% better. */
TEST(lower_is_better_shows_a_smaller_value_as_positive)
{
	struct row_cell c;

	elapsed_base_and_faster();
	c = cell_of(ELAPSED, 0, ST_MEAN, 1);
	assert_true(c.has_value && c.has_pct);
	NEAR(c.v, 1.9225, 1e-12);	/* smallest mean 1.9225 s: the block is in s */
	NEAR(c.pct, 43.3726067746686, 1e-9);
}

/* Rate 101200 -> 220000 ops/s: 220000*100/101200 - 100 = 117.39% better. */
TEST(higher_is_better_shows_a_larger_value_as_positive)
{
	struct row_cell c;

	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, RATE, 101000, 101200, 101400);
	SAMPLES(0, 1, RATE, 219000, 220000, 221000);
	c = cell_of(RATE, 0, ST_MEAN, 1);
	assert_true(c.has_pct);
	NEAR(c.pct, 117.3913043478261, 1e-9);
	NEAR(c.v, 220, 1e-9);	/* smallest mean 101200: Kops/s */
}

/* Rate stddev 200 -> 1000 (deviations ±200 and ±1000 of 3 samples): more
 * spread is worse whatever the direction, 100 - 1000*100/200 = -400%. */
TEST(spread_of_a_rate_is_lower_is_better)
{
	struct row_cell c;

	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, RATE, 101000, 101200, 101400);
	SAMPLES(0, 1, RATE, 219000, 220000, 221000);
	c = cell_of(RATE, 0, ST_STDDEV, 1);
	assert_true(c.has_pct);
	NEAR(c.pct, -400, 1e-9);
}

/*
 * Pages 1000 -> 500: the plain change (500 - 1000)*100/1000 = -50%, where
 * lower-is-better would say +50%; and a significant change of a count is
 * not starred.
 */
TEST(a_counter_shows_the_plain_change_and_is_never_marked)
{
	struct row_cell c;

	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, PAGES, 1000, 1000, 1000);
	SAMPLES(0, 1, PAGES, 500, 500, 500);
	cell(0, 1, PAGES)->test.outcome = TTEST_DIFFERENCE;
	c = cell_of(PAGES, 0, ST_MEAN, 1);
	assert_true(c.has_pct);
	NEAR(c.pct, -50, 1e-12);
	assert_false(c.marked);
	assert_false(mean_marked(&bench, PAGES, cell(0, 1, PAGES)));
}

TEST(a_significant_mean_is_marked_on_the_mean_row_only)
{
	elapsed_base_and_faster();
	cell(0, 1, ELAPSED)->test.outcome = TTEST_DIFFERENCE;
	assert_true(cell_of(ELAPSED, 0, ST_MEAN, 1).marked);
	assert_false(cell_of(ELAPSED, 0, ST_MIN, 1).marked);
	assert_false(cell_of(ELAPSED, 0, ST_MEAN, 0).marked);	/* the baseline */
	cell(0, 1, ELAPSED)->test.outcome = TTEST_NO_DIFFERENCE;
	assert_false(cell_of(ELAPSED, 0, ST_MEAN, 1).marked);
}

/* A run that lacks the metric (its monitor did not run there): "-". */
TEST(a_run_without_samples_shows_a_dash)
{
	struct row_cell c;

	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, ELAPSED, 3.38, 3.39, 3.40, 3.41);
	c = cell_of(ELAPSED, 0, ST_MEAN, 1);
	assert_false(c.has_value);
	assert_false(c.na);
	assert_false(c.has_pct);
}

/* The stddev of one sample is undefined: "n/a", never NaN. */
TEST(a_statistic_undefined_for_one_sample_shows_n_a)
{
	struct row_cell c;

	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, ELAPSED, 3.38, 3.39, 3.40, 3.41);
	SAMPLES(0, 1, ELAPSED, 1.9);
	c = cell_of(ELAPSED, 0, ST_STDDEV, 1);
	assert_true(c.na);
	assert_false(c.has_value);
	assert_true(cell_of(ELAPSED, 0, ST_COEFFVAR, 1).na);
}

/* 0 -> 2 s has no ratio: the value is shown, its percentage is "n/a". */
TEST(a_zero_baseline_has_no_percentage)
{
	struct row_cell c;

	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, ELAPSED, 0, 0, 0);
	SAMPLES(0, 1, ELAPSED, 1, 2, 3);
	c = cell_of(ELAPSED, 0, ST_MEAN, 1);
	assert_true(c.has_value);
	NEAR(c.v, 2, 1e-12);
	assert_false(c.has_pct);
}

/*
 * A metric only a later run has: no baseline to compare with, even where
 * the later run's value is 0 (0 against the empty baseline's zeroed
 * summary would otherwise read as "no change", 0.00%).
 */
TEST(a_baseline_without_samples_gives_no_percentage)
{
	struct row_cell c;

	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 1, PAGES, 0, 0);
	c = cell_of(PAGES, 0, ST_MEAN, 1);
	assert_true(c.has_value);
	assert_false(c.has_pct);
}

/*
 * 1, 2, 3 ms: mean 0.002 s, stddev sqrt((1e-6 + 0 + 1e-6)/2) = 0.001 s,
 * cv 0.001/0.002 = 50%.  In the ms block the mean reads 2.00 and cv 50.00,
 * not 50000.
 */
TEST(cv_stays_a_percentage_while_values_take_the_block_unit)
{
	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, ELAPSED, 0.001, 0.002, 0.003);
	SAMPLES(0, 1, ELAPSED, 0.001, 0.002, 0.003);
	NEAR(cell_of(ELAPSED, 0, ST_MEAN, 0).v, 2, 1e-9);
	NEAR(cell_of(ELAPSED, 0, ST_COEFFVAR, 0).v, 50, 1e-9);
}

/* Only pgmajfault differs significantly: the tables show elapsed, then it. */
TEST(monitor_metrics_are_shown_after_the_bench_s_own_where_a_run_differs)
{
	struct report rep = { .opt = { .all_metrics = 0 } };
	size_t order[N_MON];

	bench_of(monitored, N_MON, unswept, 1, 2);
	cell(0, 1, VM_B)->test.outcome = TTEST_DIFFERENCE;
	assert_int_equal(shown_metrics(&rep, &bench, order), 2);
	assert_int_equal(order[0], OWN);
	assert_int_equal(order[1], VM_B);
	rep.opt.all_metrics = 1;
	assert_int_equal(shown_metrics(&rep, &bench, order), N_MON);
	assert_int_equal(order[0], OWN);
	assert_int_equal(order[1], VM_A);
	assert_int_equal(order[4], VM_C);
}

/* pgfault and thp_fault_alloc left out (2 vmstat), dTLB-misses (1 perfstat),
 * in the order the monitors first appear. */
TEST(hidden_metrics_are_counted_per_monitor)
{
	struct report rep = { .opt = { .all_metrics = 0 } };
	char buf[128];

	bench_of(monitored, N_MON, unswept, 1, 2);
	cell(0, 1, VM_B)->test.outcome = TTEST_DIFFERENCE;
	assert_true(hidden_metrics(&rep, &bench, buf, sizeof(buf)));
	assert_string_equal(buf, "2 vmstat metrics, 1 perfstat metric");
	rep.opt.all_metrics = 1;
	assert_false(hidden_metrics(&rep, &bench, buf, sizeof(buf)));
	assert_string_equal(buf, "");
}

/* Pages 16384 in every sample of both runs: one number, one line. */
TEST(one_number_in_every_sample_of_every_run_is_constant)
{
	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, PAGES, 16384, 16384, 16384);
	SAMPLES(0, 1, PAGES, 16384, 16384);
	assert_true(metric_constant(&bench, PAGES));
}

/* Constant in each run but 16384 against 20480 (64M and 80M): a table. */
TEST(constant_in_each_run_but_not_equal_across_is_not_constant)
{
	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, PAGES, 16384, 16384, 16384);
	SAMPLES(0, 1, PAGES, 20480, 20480, 20480);
	assert_false(metric_constant(&bench, PAGES));
}

/* One sample off in one run, or a run without samples: not constant. */
TEST(one_sample_off_or_a_run_without_samples_is_not_constant)
{
	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, PAGES, 16384, 16384, 16384);
	SAMPLES(0, 1, PAGES, 16384, 16385, 16384);
	assert_false(metric_constant(&bench, PAGES));
	bench_of(metrics, N_METRICS, unswept, 1, 2);
	SAMPLES(0, 0, PAGES, 16384, 16384, 16384);
	assert_false(metric_constant(&bench, PAGES));
}

/* A sweep: one number per swept value, the same in every run. */
TEST(a_sweep_is_constant_when_each_swept_value_is)
{
	bench_of(metrics, N_METRICS, swept, 2, 2);
	SAMPLES(0, 0, PAGES, 4096, 4096);
	SAMPLES(0, 1, PAGES, 4096, 4096);
	SAMPLES(1, 0, PAGES, 8192, 8192);
	SAMPLES(1, 1, PAGES, 8192, 8192);
	assert_true(metric_constant(&bench, PAGES));
	SAMPLES(1, 1, PAGES, 8192, 8000);
	assert_false(metric_constant(&bench, PAGES));
}
