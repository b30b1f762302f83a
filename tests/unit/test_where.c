/*
 * reports/profile/where.c: compare.sh --profile's blocks from the runs in
 * tests/fixtures/profile (its README gives every figure), worked out by
 * hand: the top functions, [rest], shares, per page, and the Welch test of
 * perf's shares.
 */
#include <math.h>
#include <string.h>

#include "unit.h"
#include "compare/report.h"
#include "profile/where.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void build(const char *a, const char *b, size_t top, struct report *rep, struct where *w)
{
	char pa[256], pb[256];
	char *paths[2] = { pa, pb };
	/* sbase is a native run: insns counts against its perf samples is a
	 * case these tests check, past the refusal of unlike clocks */
	struct report_opts opt = { .alpha = 0.05, .test = TTEST_WELCH, .unlike_clocks = 1 };
	struct err e;

	snprintf(pa, sizeof(pa), "tests/fixtures/profile/%s", a);
	snprintf(pb, sizeof(pb), "tests/fixtures/profile/%s", b);
	assert_int_equal(report_build(rep, paths, 2, &opt, &e), 0);
	assert_int_equal(where_build(rep, top, w, &e), 0);
	assert_int_equal(w->n, rep->n_benches);
}

TEST(the_top_functions_then_the_rest_add_up_to_the_total)
{
	struct report rep;
	struct where w;
	const struct where_block *b;

	build("base", "new", 2, &rep, &w);
	b = &w.blocks[0];
	assert_null(b->none);
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

TEST(every_function_fits_under_a_large_top)
{
	struct report rep;
	struct where w;

	build("base", "new", 10, &rep, &w);
	/* a, b, c, d, [user], then an empty [rest] */
	assert_int_equal(w.blocks[0].n, 6);
	assert_string_equal(w.blocks[0].rows[5].name, "[rest]");
	NEAR(w.blocks[0].rows[5].base, 0);
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
	build("../compare/3.11-rc3-0", "../compare/3.11-rc3-1", 10, &rep, &w);
	assert_non_null(strstr(w.blocks[0].none, "--monitors insns"));
	assert_non_null(strstr(w.blocks[0].none, "--monitors profile"));
	where_free(&w);
	report_free(&rep);
}
