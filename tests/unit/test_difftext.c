/*
 * reports/compare/difftext.c: the sentences under a table and above it.
 * The bench and the t-test outcomes are set by hand, as in test_rows.c, so
 * that these tests check the words and signs, not the statistics: the
 * difference keeps ministat's sign (run - baseline), its percentage is
 * unsigned and says better or worse (more or less for a counter), which is
 * the tables' "positive = better" in words.
 */
#include <string.h>

#include "unit.h"
#include "compare/difftext.h"

enum { ELAPSED, RATE, PAGES, N_METRICS };

static struct metric_def metrics[N_METRICS] = {
	[ELAPSED] = { "elapsed", "Elapsed", "s", BETTER_LOWER, "" },
	[RATE] = { "rate", "Rate", "ops/s", BETTER_HIGHER, "" },
	[PAGES] = { "pages", "Pages", "count", BETTER_NONE, "" },
};

static char *unswept[] = { "-" };
static char *sizes[] = { "16M", "32M" };
static struct run_info runs[2] = { { .name = "base" }, { .name = "cand" } };
static struct cmp_cell cells[2 * 2 * N_METRICS];
static struct bench_cmp bench;
static struct report rep;

static void bench_of(char **params, size_t n_params)
{
	memset(cells, 0, sizeof(cells));
	bench = (struct bench_cmp){
		.data = { .name = "timedmunlock", .n_runs = 2, .metrics = metrics,
			  .n_metrics = N_METRICS, .params = params, .n_params = n_params },
		.cells = cells,
	};
	rep = (struct report){ .opt = { .alpha = 0.05 }, .runs = runs, .n_runs = 2,
			       .benches = &bench, .n_benches = 1 };
}

static struct cmp_cell *cell(size_t p, size_t r, size_t m)
{
	return (struct cmp_cell *)report_cell(&bench, p, r, m);
}

/* Run r's samples of metric m all v (n of them): summary by hand. */
static void constant(size_t p, size_t r, size_t m, double v, size_t n)
{
	cell(p, r, m)->s = (struct summary){ .n = n, .min = v, .max = v, .mean = v,
					     .has_stddev = n > 1, .has_coeffvar = n > 1 };
}

/* A significant difference of the means, the test's figures given. */
static void difference(size_t m, double base, double diff, double half)
{
	struct ttest *t = &cell(0, 1, m)->test;

	cell(0, 0, m)->s = (struct summary){ .n = 4, .min = base, .max = base, .mean = base };
	cell(0, 1, m)->s = (struct summary){ .n = 4, .min = base + diff, .max = base + diff,
					     .mean = base + diff };
	*t = (struct ttest){ .outcome = TTEST_DIFFERENCE, .diff = diff, .ci_half = half,
			     .has_pct = 1, .diff_pct = diff * 100 / base,
			     .ci_half_pct = half * 100 / base, .exact = 1 };
}

static const char *sentence(size_t m)
{
	static char buf[512];

	diff_sentence(&rep, &bench, m, 0, 1, buf, sizeof(buf));
	return buf;
}

/* 3.395 s -> 1.92247 s: 43.37% faster, better. */
TEST(a_lower_time_is_better_its_difference_negative)
{
	bench_of(unswept, 1);
	difference(ELAPSED, 3.395, -1.47253, 0.0268);
	assert_string_equal(sentence(ELAPSED),
			    "Difference at 95.0% confidence: -1.473 ± 0.027 s, 43.37% ± 0.79% better");
}

/* 10 s -> 12 s: 20% slower, worse, and the difference +2 s. */
TEST(a_higher_time_is_worse_its_difference_positive)
{
	bench_of(unswept, 1);
	difference(ELAPSED, 10, 2, 0.5);
	assert_string_equal(sentence(ELAPSED),
			    "Difference at 95.0% confidence: 2.00 ± 0.50 s, 20.0% ± 5.0% worse");
}

/* A rate up from 100 to 125 ops/s is 25% better; down to 75, worse. */
TEST(a_higher_rate_is_better_a_lower_one_worse)
{
	bench_of(unswept, 1);
	difference(RATE, 100, 25, 1);
	assert_string_equal(sentence(RATE),
			    "Difference at 95.0% confidence: 25.0 ± 1.0 ops/s, 25.0% ± 1.0% better");
	difference(RATE, 100, -25, 1);
	assert_string_equal(sentence(RATE),
			    "Difference at 95.0% confidence: -25.0 ± 1.0 ops/s, 25.0% ± 1.0% worse");
}

/* A count is neither better nor worse: 100 -> 125 is more, 100 -> 0 less. */
TEST(a_count_is_more_or_less)
{
	bench_of(unswept, 1);
	difference(PAGES, 100, 25, 1);
	assert_string_equal(sentence(PAGES),
			    "Difference at 95.0% confidence: 25.0 ± 1.0, 25.0% ± 1.0% more");
	difference(PAGES, 100, -100, 1);
	assert_string_equal(sentence(PAGES),
			    "Difference at 95.0% confidence: -100.0 ± 1.0, 100.0% ± 1.0% less");
}

/* The number as measured, not the table's 16.38 K. */
TEST(a_constant_is_one_line_with_its_exact_number)
{
	char buf[256];

	bench_of(unswept, 1);
	constant(0, 0, PAGES, 16384, 5);
	constant(0, 1, PAGES, 16384, 5);
	constant_sentence(&bench, PAGES, buf, sizeof(buf));
	assert_string_equal(buf, "Pages 16384 in every run");
	constant(0, 0, ELAPSED, 0.0117800495, 2);
	constant(0, 1, ELAPSED, 0.0117800495, 2);
	constant_sentence(&bench, ELAPSED, buf, sizeof(buf));
	assert_string_equal(buf, "Elapsed 0.0117800495 s in every run");
}

/* 16M and 32M of 4 KiB pages: 4096 and 8192, each named by its row label. */
TEST(a_swept_constant_names_each_value)
{
	char buf[256];

	bench_of(sizes, 2);
	constant(0, 0, PAGES, 4096, 2);
	constant(0, 1, PAGES, 4096, 2);
	constant(1, 0, PAGES, 8192, 2);
	constant(1, 1, PAGES, 8192, 2);
	constant_sentence(&bench, PAGES, buf, sizeof(buf));
	assert_string_equal(buf, "Pages-16M 4096, Pages-32M 8192 in every run");
}

/* The legend names the counts whose tables are shown, not a constant one. */
TEST(the_legend_names_the_counts_whose_tables_are_shown)
{
	char buf[512];

	bench_of(unswept, 1);
	constant(0, 0, ELAPSED, 3, 2);
	constant(0, 1, ELAPSED, 2, 2);
	constant(0, 0, PAGES, 16384, 2);
	constant(0, 1, PAGES, 16384, 2);
	percent_legend(&rep, shown_metrics, buf, sizeof(buf));
	assert_string_equal(buf, "Percentages: change against base, positive = better.");
	constant(0, 1, PAGES, 20480, 2);
	percent_legend(&rep, shown_metrics, buf, sizeof(buf));
	assert_string_equal(buf, "Percentages: change against base, positive = better; "
				 "for the count Pages (neither better nor worse): the plain change.");
}
