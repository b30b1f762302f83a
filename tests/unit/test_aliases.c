/*
 * reports/compare/aliases.c: a counter that is another's figure under a
 * second name is dropped only where equal in every counted sample of every
 * run; the samples and warm-ups of the metrics kept stay theirs.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "base/xalloc.h"
#include "compare/aliases.h"

enum { ACTIVE, ZONE_ACTIVE, UNEVICTABLE, ZONE_UNEVICTABLE, MLOCK, ELAPSED, N };

static const char *const names[N] = {
	"vmstat_nr_active_anon", "vmstat_nr_zone_active_anon", "vmstat_nr_unevictable",
	"vmstat_nr_zone_unevictable", "vmstat_nr_mlock", "elapsed",
};

/* Two runs, unswept; metric m's samples in run r are base[m] + r, + i. */
static void build(struct bench_data *b, int mlock_differs)
{
	bench_data_init(b, "timedmunlock", 2);
	b->metrics = xcalloc(N, sizeof(*b->metrics));
	for (size_t m = 0; m < N; m++) {
		struct metric_def d = { (char *)names[m], (char *)names[m] + (m == ELAPSED ? 0 : 7),
					"count", BETTER_NONE, m == ELAPSED ? "" : "vmstat" };

		b->metrics[m] = metric_copy(&d);
	}
	b->n_metrics = N;
	bench_param(b, "-");
	for (size_t r = 0; r < 2; r++)
		for (size_t i = 0; i < 3; i++) {
			series_push(bench_cell(b, 0, r, ACTIVE), 100 + r + i);
			series_push(bench_cell(b, 0, r, ZONE_ACTIVE), 100 + r + i);
			series_push(bench_cell(b, 0, r, UNEVICTABLE), 50 + r);
			series_push(bench_cell(b, 0, r, ZONE_UNEVICTABLE), 50 + r);
			series_push(bench_cell(b, 0, r, MLOCK), 50 + r + (mlock_differs && r == 1 && i == 2));
			series_push(bench_cell(b, 0, r, ELAPSED), 0.5 + r);
		}
	series_push(bench_warm(b, 0, 1, ELAPSED), 7.0);
}

TEST(equal_names_fold_into_the_first_and_the_rest_keep_their_samples)
{
	struct bench_data b;
	char buf[256];

	build(&b, 0);
	assert_int_equal(aliases_drop(&b, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "nr_zone_active_anon = nr_active_anon, nr_zone_unevictable = nr_unevictable, "
				 "nr_mlock = nr_unevictable");
	assert_int_equal(b.n_metrics, 3);
	assert_string_equal(b.metrics[2].name, "elapsed");
	assert_int_equal(bench_metric_index(&b, "vmstat_nr_zone_active_anon"), -1);
	/* elapsed's samples and warm-up moved with it */
	assert_true(bench_cell(&b, 0, 1, 2)->n == 3 && bench_cell(&b, 0, 1, 2)->v[0] == 1.5);
	assert_true(bench_warmups(&b, 0, 1, 2)->n == 1 && bench_warmups(&b, 0, 1, 2)->v[0] == 7.0);
	assert_true(bench_cell(&b, 0, 1, 0)->v[2] == 103);
	bench_data_free(&b);
}

/* nr_mlock is one more than nr_unevictable in one sample of one run: it stays. */
TEST(one_sample_apart_and_both_are_kept)
{
	struct bench_data b;
	char buf[256];

	build(&b, 1);
	assert_int_equal(aliases_drop(&b, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "nr_zone_active_anon = nr_active_anon, nr_zone_unevictable = nr_unevictable");
	assert_true(bench_metric_index(&b, "vmstat_nr_mlock") >= 0);
	bench_data_free(&b);
}
