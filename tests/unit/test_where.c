/*
 * reports/profile/where.c: compare.sh --profile's blocks from the runs in
 * tests/fixtures/profile (its README gives every figure), worked out by
 * hand: the top functions, [rest], shares, per page, every row's test
 * across iterations (Welch, and the exact rule for counts that never
 * move), the total against the bench's icount resolution, a block per
 * sweep point, and the reasons a point has no profile.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "compare/report.h"
#include "profile/where.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)
#define NEAR_REL(a, b, tol) assert_true(fabs((a) - (b)) <= (tol) * fabs(b))

/* The blocks of runs a and b, against the resolution table res. */
static void build_res(const char *a, const char *b, size_t top, const char *res, struct report *rep,
		      struct where *w)
{
	char pa[256], pb[256];
	char *paths[2] = { pa, pb };
	/* sbase is a native run: insns counts against its perf samples is a
	 * case these tests check, past the refusal of unlike clocks */
	struct report_opts opt = { .alpha = 0.05, .test = TTEST_WELCH, .unlike_clocks = 1 };
	struct err e;

	setenv("MMDELTA_RESOLUTION", res, 1);
	snprintf(pa, sizeof(pa), "tests/fixtures/profile/%s", a);
	snprintf(pb, sizeof(pb), "tests/fixtures/profile/%s", b);
	assert_int_equal(report_build(rep, paths, 2, &opt, &e), 0);
	assert_int_equal(where_build(rep, top, w, &e), 0);
}

static void build(const char *a, const char *b, size_t top, struct report *rep, struct where *w)
{
	build_res(a, b, top, "tests/fixtures/profile/resolution.tsv", rep, w);
}

static const struct where_row *row(const struct where_block *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->rows[i].name, name))
			return &b->rows[i];
	fail_msg("no row %s", name);
	return NULL;
}

/* Welch's two-sided p for df 2 (two iterations a side), in closed form: 1 - |t| / sqrt(t^2 + 2). */
static double p_df2(double t) { return 1 - fabs(t) / sqrt(t * t + 2); }

TEST(the_top_functions_then_the_rest_add_up_to_the_total)
{
	struct report rep;
	struct where w;
	const struct where_block *b;

	build("base", "new", 2, &rep, &w);
	assert_int_equal(w.n, 1);
	b = &w.blocks[0];
	assert_null(b->none);
	assert_string_equal(b->point, "");
	assert_int_equal(b->kind, PROFILE_INSNS);
	assert_int_equal(b->n_base, 2);	/* the warm-up is not read */
	assert_int_equal(b->n, 3);
	/* b 51 -> 81 (+30), d 0 -> 20 (+20); the rest: a, c, [user] */
	assert_string_equal(b->rows[0].name, "b");
	NEAR(b->rows[0].base, 51);
	NEAR(b->rows[0].new, 81);
	NEAR(b->rows[0].share, 0.75);	/* 30 of the total's 40 */
	assert_string_equal(b->rows[1].name, "d");
	NEAR(b->rows[1].change, 20);
	assert_string_equal(b->rows[2].name, "[rest]");
	NEAR(b->rows[2].base, 115);	/* 100 + 10 + 5 */
	NEAR(b->rows[2].new, 105);
	NEAR(b->rows[2].share, -0.25);
	NEAR(b->total.base, 166);
	NEAR(b->total.new, 206);
	/* per page: 10 pages an iteration */
	assert_string_equal(b->per, "page");
	NEAR(b->base_units, 10);
	where_free(&w);
	report_free(&rep);
}

TEST(every_row_is_tested_across_iterations_and_counts_that_never_move_are_exact)
{
	struct report rep;
	struct where w;
	const struct where_block *b;

	build("base", "new", 2, &rep, &w);
	b = &w.blocks[0];
	/* b: 50, 52 against 80, 82: se sqrt(2/2 + 2/2), t 30 / sqrt(2), df 2 */
	assert_int_equal(b->rows[0].test.outcome, TTEST_DIFFERENCE);
	assert_false(b->rows[0].test.exact);
	NEAR_REL(b->rows[0].test.p, p_df2(30 / sqrt(2)), 1e-6);
	/* d: 0, 0 against 20, 20; [rest]: 115, 115 against 105, 105 */
	assert_true(b->rows[1].test.exact);
	assert_int_equal(b->rows[1].test.outcome, TTEST_DIFFERENCE);
	NEAR(b->rows[1].test.p, 0);
	assert_true(b->rows[2].test.exact);
	assert_int_equal(b->rows[2].test.outcome, TTEST_DIFFERENCE);
	/* the total: 166, 168 against 206, 208 */
	NEAR_REL(b->total.test.p, p_df2(40 / sqrt(2)), 1e-6);
	/* b, c, d changed; a and [user] are the same count everywhere */
	assert_int_equal(b->n_tested, 5);
	assert_int_equal(b->n_significant, 3);
	where_free(&w);
	report_free(&rep);
}

TEST(equal_counts_in_every_iteration_are_no_change_not_an_untested_row)
{
	struct report rep;
	struct where w;
	const struct where_block *b;

	build("base", "new", 10, &rep, &w);
	b = &w.blocks[0];
	/* a, b, c, d, [user], then an empty [rest]: a and [user] last */
	assert_int_equal(b->n, 6);
	assert_string_equal(b->rows[5].name, "[rest]");
	NEAR(b->rows[5].base, 0);
	assert_int_equal(row(b, "a")->test.outcome, TTEST_NO_DIFFERENCE);
	assert_true(row(b, "a")->test.exact);
	NEAR(row(b, "a")->test.p, 1);
	NEAR(row(b, "a")->share, 0);
	where_free(&w);
	report_free(&rep);
}

TEST(a_swept_bench_has_a_block_per_point_named_by_its_key)
{
	struct report rep;
	struct where w;

	build("sweep-base", "sweep-new", 10, &rep, &w);
	/* heaprelease at mprotect and madvise, then sparsemunmap */
	assert_int_equal(w.n, 3);
	assert_string_equal(w.blocks[0].point, "PATTERN=mprotect");
	assert_string_equal(w.blocks[1].point, "PATTERN=madvise");
	assert_null(w.blocks[0].none);
	assert_null(w.blocks[1].none);
	assert_int_equal(w.blocks[0].n_base, 3);
	assert_int_equal(w.blocks[1].n_new, 3);
	/* 4 operations an iteration: ops_per_sec x elapsed */
	assert_string_equal(w.blocks[0].per, "op");
	NEAR(w.blocks[0].base_units, 4);
	/* madvise marks 4 regions an iteration in both runs, mprotect 1 */
	assert_int_equal(w.blocks[1].regions[0], 4);
	assert_int_equal(w.blocks[1].regions[1], 4);
	assert_int_equal(w.blocks[0].regions[0], 1);
	where_free(&w);
	report_free(&rep);
}

TEST(an_exact_total_beyond_the_resolution_is_a_certain_change)
{
	struct report rep;
	struct where w;
	const struct where_block *b;

	build("sweep-base", "sweep-new", 10, &rep, &w);
	b = &w.blocks[0];
	/* mprotect: 1600 in every iteration against 1610 */
	NEAR(b->total.change, 10);
	assert_true(b->total.test.exact);
	assert_int_equal(b->total.test.outcome, TTEST_DIFFERENCE);
	/* 10 / 1600 = 0.625% against the table's range of 0.1% */
	assert_true(b->has_resolution);
	NEAR(b->resolution.range, 1e-3);
	assert_true(b->beyond_resolution);
	assert_string_equal(b->rows[0].name, "mprotect_fixup");
	assert_int_equal(b->n_significant, 1);
	where_free(&w);
	report_free(&rep);
}

TEST(a_noisy_total_within_the_resolution_is_no_difference_proven)
{
	struct report rep;
	struct where w;
	const struct where_block *b;
	/* tlb_flush 300, 900, 600 against 700, 200, 450 (variances 90000 and
	 * 62500), and free_pages_ok 50 against 55 in every iteration */
	double vb = 90000.0 / 3, vn = 62500.0 / 3, se = sqrt(vb + vn);
	double df = (vb + vn) * (vb + vn) / (vb * vb / 2 + vn * vn / 2);

	build("sweep-base", "sweep-new", 10, &rep, &w);
	b = &w.blocks[1];
	NEAR(b->total.base, 2750);
	NEAR(b->total.change, -145);
	assert_int_equal(b->total.test.outcome, TTEST_NO_DIFFERENCE);
	NEAR_REL(b->total.test.t, -145 / se, 1e-9);
	NEAR_REL(b->total.test.df, df, 1e-9);
	/* 145 / 2750 = 5.3% against a range of 10% */
	assert_true(b->has_resolution);
	assert_false(b->beyond_resolution);
	assert_int_equal(row(b, "tlb_flush")->test.outcome, TTEST_NO_DIFFERENCE);
	NEAR_REL(row(b, "tlb_flush")->test.t, -150 / se, 1e-9);
	assert_int_equal(b->n_significant, 1);
	where_free(&w);
	report_free(&rep);
}

TEST(the_primary_metrics_verdict_is_its_tables)
{
	struct report rep;
	struct where w;
	const struct where_block *b;

	build("sweep-base", "sweep-new", 10, &rep, &w);
	/* mprotect: elapsed 1675 ns in every iteration against 1685, a certain
	 * +0.597%, beyond the range of 0.1% */
	b = &w.blocks[0];
	assert_string_equal(b->primary, "Elapsed-mprotect");
	assert_int_equal(b->primary_test.outcome, TTEST_DIFFERENCE);
	assert_true(b->primary_test.exact);
	assert_true(b->primary_beyond);
	assert_true(where_primary_changed(b));
	/* madvise: 2525, 3125, 2825 against 2930, 2430, 2680 ns: -145 of 2825
	 * (-5.13%), t = -145 / sqrt(300^2 / 3 + 250^2 / 3) = -0.64, within 10%;
	 * free_pages_ok's exact +5 is the one significant function */
	b = &w.blocks[1];
	assert_string_equal(b->primary, "Elapsed-madvise");
	assert_int_equal(b->primary_test.outcome, TTEST_NO_DIFFERENCE);
	NEAR_REL(b->primary_test.t, -145e-9 / sqrt(0.09e-12 / 3 + 0.0625e-12 / 3), 1e-6);
	assert_false(b->primary_beyond);
	assert_false(where_primary_changed(b));
	assert_int_equal(b->n_significant, 1);
	where_free(&w);
	report_free(&rep);
}

TEST(the_runs_own_spread_where_wider_is_the_resolution)
{
	struct report rep;
	struct where w;
	const struct where_block *b;

	/* madvise's -5.13% against resolution.tsv's 1%, but its own iterations
	 * spread by (3125 - 2525) / 2825 = 21.2% in sweep-base and (2930 -
	 * 2430) / 2680 = 18.7% in sweep-new: the change is within that */
	build_res("sweep-base", "sweep-new", 10, "tests/fixtures/profile/resolution-tight.tsv", &rep, &w);
	b = &w.blocks[1];
	NEAR(b->resolution.range, 1e-2);
	NEAR_REL(b->runs_range, 600.0 / 2825, 1e-9);
	NEAR_REL(where_range(b), 600.0 / 2825, 1e-9);
	assert_false(b->primary_beyond);
	assert_false(b->beyond_resolution);
	assert_false(where_primary_changed(b));
	/* mprotect's iterations never move: the table's 0.1% stands */
	b = &w.blocks[0];
	NEAR(b->runs_range, 0);
	NEAR(where_range(b), 1e-3);
	assert_true(b->primary_beyond);
	where_free(&w);
	report_free(&rep);
}

TEST(a_run_against_its_own_figures_is_no_change)
{
	struct report rep;
	struct where w;
	const struct where_block *b;

	/* mprotect's figures never move: the same elapsed and counts in every iteration */
	build("sweep-base", "sweep-base", 10, &rep, &w);
	b = &w.blocks[0];
	assert_int_equal(b->primary_test.outcome, TTEST_NO_DIFFERENCE);
	assert_true(b->primary_test.exact);
	assert_false(b->primary_beyond);
	assert_false(where_primary_changed(b));
	assert_int_equal(b->n_significant, 0);
	where_free(&w);
	report_free(&rep);
}

TEST(a_significant_row_comes_before_a_larger_change_that_is_noise)
{
	struct report rep;
	struct where w;
	const struct where_block *b;

	/* madvise: free_pages_ok's exact +5 before tlb_flush's -150 */
	build("sweep-base", "sweep-new", 10, &rep, &w);
	b = &w.blocks[1];
	assert_string_equal(b->rows[0].name, "free_pages_ok");
	assert_true(b->rows[0].test.exact);
	assert_string_equal(b->rows[1].name, "tlb_flush");
	where_free(&w);
	report_free(&rep);
	/* with one row shown, the noise is in [rest], tested as a row */
	build("sweep-base", "sweep-new", 1, &rep, &w);
	b = &w.blocks[1];
	assert_int_equal(b->n, 2);
	assert_string_equal(b->rows[0].name, "free_pages_ok");
	assert_string_equal(b->rows[1].name, "[rest]");
	NEAR(b->rows[1].change, -150);
	assert_int_equal(b->rows[1].test.outcome, TTEST_NO_DIFFERENCE);
	where_free(&w);
	report_free(&rep);
}

TEST(perf_shares_are_tested_and_only_the_significant_shown)
{
	struct report rep;
	struct where w;
	const struct where_block *b;

	build("sbase", "snew", 10, &rep, &w);
	b = &w.blocks[0];
	assert_int_equal(b->kind, PROFILE_SAMPLES);
	assert_true(b->skid);
	assert_string_equal(b->event, "cpu-clock");
	assert_int_equal(b->n_tested, 2);
	assert_int_equal(b->n, 1);
	assert_int_equal(b->n_significant, 1);
	assert_string_equal(b->rows[0].name, "f");
	NEAR(b->rows[0].change, -30);
	assert_int_equal(b->rows[0].test.outcome, TTEST_DIFFERENCE);
	/* the block's total is the primary metric, as its table tests it */
	assert_string_equal(b->total.name, "elapsed");
	assert_int_equal(b->total.test.outcome, report_cell(&rep.benches[0], 0, 1, 0)->test.outcome);
	assert_false(b->has_resolution);	/* native runs */
	where_free(&w);
	report_free(&rep);
}

TEST(a_bench_that_marks_no_region_says_so_from_what_each_run_recorded)
{
	struct report rep;
	struct where w;
	const char *none;

	build("sweep-base", "sweep-new", 10, &rep, &w);
	none = w.blocks[2].none;
	assert_non_null(none);
	/* sweep-base: insns.tsv's rows of 0 regions; sweep-new: the skipped
	 * line that runs wrote before those rows */
	assert_non_null(strstr(none, "no profile in sweep-base: the bench marked no timed region in any of its 2 iterations"));
	assert_non_null(strstr(none, "nor in sweep-new: the insns monitor counted nothing: the bench marks no single timed region"));
	assert_null(strstr(none, "add --monitors insns"));
	where_free(&w);
	report_free(&rep);
}

TEST(runs_without_profiles_get_a_line_naming_the_monitor)
{
	struct report rep;
	struct where w;

	build("base", "sbase", 10, &rep, &w);
	assert_non_null(strstr(w.blocks[0].none, "not comparable"));
	where_free(&w);
	report_free(&rep);
	/* two native runs without a profiling monitor */
	build("../compare/3.11-rc3-0", "../compare/3.11-rc3-1", 10, &rep, &w);
	assert_non_null(strstr(w.blocks[0].none, "no profile in either run: a native run without a profiling monitor"));
	assert_non_null(strstr(w.blocks[0].none, "--monitors insns"));
	assert_non_null(strstr(w.blocks[0].none, "--monitors profile"));
	where_free(&w);
	report_free(&rep);
}

TEST(a_tag_names_its_point_and_iteration_whatever_dots_the_value_has)
{
	char key[16] = "";

	assert_true(profile_tag_point("12", "-", key, sizeof(key)));
	assert_false(profile_tag_point("warmup1", "-", key, sizeof(key)));
	assert_false(profile_tag_point("PATTERN=mprotect.1", "-", key, sizeof(key)));
	assert_true(profile_tag_point("PATTERN=mprotect.1", "mprotect", key, sizeof(key)));
	assert_string_equal(key, "PATTERN");
	assert_false(profile_tag_point("PATTERN=mprotect.1", "madvise", key, sizeof(key)));
	assert_false(profile_tag_point("PATTERN=mprotect.warmup1+3", "mprotect", key, sizeof(key)));
	assert_true(profile_tag_point("SIZE=1.5G.3", "1.5G", key, sizeof(key)));
	assert_false(profile_tag_point("SIZE=1.5G.3", "1", key, sizeof(key)));
	assert_false(profile_tag_point("SIZE=1.5G.", "1.5G", key, sizeof(key)));
}

TEST(a_point_whose_runs_both_counted_task_regions_gets_their_block_and_the_split)
{
	struct report rep;
	struct where w;
	const struct where_block *b, *t;

	build("tasks-base", "tasks-new", 10, &rep, &w);
	assert_int_equal(w.n, 3);	/* mprotect, madvise, sparsemunmap */
	b = &w.blocks[0];
	assert_string_equal(b->point, "PATTERN=mprotect");
	/* 1750 1760 1770 -> 1970 1980 1990: the work 1600 in every iteration
	 * of both, the interleaving 150 160 170 -> 370 380 390 */
	NEAR(b->total.change, 220);
	NEAR(b->work.base, 1600);
	NEAR(b->work.change, 0);
	assert_true(b->work.test.exact);
	NEAR(b->interleaved.base, 160);
	NEAR(b->interleaved.change, 220);
	assert_true(where_significant(&b->interleaved));
	assert_true(where_only_interleaving(b));
	assert_int_equal(row(b, "__schedule")->interleaving, 1);
	assert_int_equal(row(b, "mprotect_fixup")->interleaving, 0);
	assert_int_equal(row(b, "[rest]")->interleaving, -1);
	assert_false(b->of_tasks);
	/* the threads' tables: 600 610 620 -> 640 650 660, all do_mprotect_pkey */
	t = b->tasks;
	assert_non_null(t);
	assert_true(t->of_tasks);
	assert_null(t->tasks);
	assert_int_equal(t->task_regions[0], 2);
	assert_int_equal(t->task_regions[1], 2);
	assert_int_equal(t->n_base, 3);	/* the warm-up is not read */
	NEAR(t->total.base, 610);
	NEAR(t->total.change, 40);
	NEAR(t->work.change, 40);
	assert_true(t->work.test.exact && where_significant(&t->work));
	NEAR(t->interleaved.change, 0);
	assert_false(where_significant(&t->interleaved));
	assert_false(where_only_interleaving(t));
	assert_false(t->has_resolution);	/* resolution.tsv is the timed region's */
	assert_string_equal(t->rows[0].name, "do_mprotect_pkey");
	/* madvise: only tasks-base counted task regions */
	assert_null(w.blocks[1].tasks);
	where_free(&w);
	report_free(&rep);
}
