/*
 * reports/profile/: naming the insns plugin's addresses with a synthetic
 * kallsyms, folding clones, the per-function reduction of one process and
 * the reconciliation of its total with the icount figure.  Every expected
 * figure is worked out by hand in the comments beside it.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "profile/kallsyms.h"
#include "profile/reconcile.h"
#include "profile/reduce.h"

/* A kernel in miniature: aliases, a clone, a .cold part, linker
 * boundaries, data, the ends of text and a module. */
static const char kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000100 t foo\n"
	"ffffffff81000200 t foo.isra.0\n"
	"ffffffff81000300 t bar_alias\n"
	"ffffffff81000300 T bar\n"
	"ffffffff81000400 t baz.cold\n"
	"ffffffff81000500 T __irqentry_text_start\n"
	"ffffffff81000500 T asm_irq\n"
	"ffffffff81000600 T _etext\n"
	"ffffffff81100000 D some_data\n"
	"ffffffff82000000 T _sinittext\n"
	"ffffffff82000010 t init_fn\n"
	"ffffffff82000100 T _einittext\n"
	"ffffffffc0000000 t modfn\t[mymod]\n";

/* The plugin's file for it: kernel 5+10+20+30+1+2+3+4+6+7+8+9 = 105,
 * user 100, total 205. */
static const char process[] =
	"# insns process 1\n# regions: 1\n# total: 205\n# kernel: 105\n# user: 100\n"
	"# early_exits: 0 over_count_bound: 0\n"
	"ffffffff80000000\t5\n"		/* below every symbol: [unknown] */
	"ffffffff81000000\t10\n"	/* startup_64, not _stext or _text */
	"ffffffff81000104\t20\n"	/* foo */
	"ffffffff81000208\t30\n"	/* foo.isra.0, folded: foo 50 */
	"ffffffff81000300\t1\n"		/* bar, the global one */
	"ffffffff81000450\t2\n"		/* baz.cold: baz */
	"ffffffff81000500\t3\n"		/* asm_irq, not the boundary */
	"ffffffff81000700\t4\n"		/* after _etext: [unknown] */
	"ffffffff81100010\t6\n"		/* data: [unknown] */
	"ffffffff82000020\t7\n"		/* init_fn */
	"ffffffff82000200\t8\n"		/* after _einittext: [unknown] */
	"ffffffffc0000004\t9\n"		/* modfn */
	"[user]\t100\n";

static void read_syms(struct ksyms *k)
{
	FILE *f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");
	struct err e;

	assert_int_equal(ksyms_read(f, k, &e), 0);
	fclose(f);
}

static int reduce_text(const char *text, int raw, struct fprofile *p, struct err *e)
{
	struct ksyms k;
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	read_syms(&k);
	rc = profile_reduce(f, &k, raw, p, e);
	fclose(f);
	ksyms_free(&k);
	return rc;
}

TEST(an_address_is_the_function_at_or_below_it)
{
	struct ksyms k;

	read_syms(&k);
	assert_string_equal(ksyms_lookup(&k, 0xffffffff81000000ull), "startup_64");
	assert_string_equal(ksyms_lookup(&k, 0xffffffff810001ffull), "foo");
	assert_string_equal(ksyms_lookup(&k, 0xffffffff81000200ull), "foo.isra.0");
	assert_string_equal(ksyms_lookup(&k, 0xffffffff81000301ull), "bar");
	assert_string_equal(ksyms_lookup(&k, 0xffffffff81000500ull), "asm_irq");
	assert_string_equal(ksyms_lookup(&k, 0xffffffffc0000004ull), "modfn");
	ksyms_free(&k);
}

TEST(past_the_end_of_text_and_in_data_is_unknown)
{
	struct ksyms k;

	read_syms(&k);
	assert_null(ksyms_lookup(&k, 0xffffffff80000000ull));
	assert_null(ksyms_lookup(&k, 0xffffffff81000600ull));
	assert_null(ksyms_lookup(&k, 0xffffffff81100010ull));
	assert_null(ksyms_lookup(&k, 0xffffffff82000200ull));
	ksyms_free(&k);
}

TEST(a_kallsyms_of_zero_addresses_is_refused)
{
	static const char hidden[] = "0000000000000000 T _stext\n0000000000000000 t foo\n";
	FILE *f = fmemopen((void *)hidden, sizeof(hidden) - 1, "r");
	struct ksyms k;
	struct err e;

	assert_int_equal(ksyms_read(f, &k, &e), -1);
	assert_non_null(strstr(e.msg, "kptr_restrict=0"));
	fclose(f);
}

TEST(clones_fold_into_the_function_they_were_cloned_from)
{
	char a[] = "foo.isra.0", b[] = "foo.constprop.1", c[] = "foo.part.0", d[] = "foo.cold", u[] = "[user]";

	fold_clone(a);
	fold_clone(b);
	fold_clone(c);
	fold_clone(d);
	fold_clone(u);
	assert_string_equal(a, "foo");
	assert_string_equal(b, "foo");
	assert_string_equal(c, "foo");
	assert_string_equal(d, "foo");
	assert_string_equal(u, "[user]");
}

TEST(a_process_reduces_to_functions_that_add_up_to_its_total)
{
	static const struct { const char *name; uint64_t n; } want[] = {
		{ "[user]", 100 }, { "foo", 50 }, { "[unknown]", 23 }, { "startup_64", 10 }, { "modfn", 9 },
		{ "init_fn", 7 }, { "asm_irq", 3 }, { "baz", 2 }, { "bar", 1 },
	};
	struct fprofile p;
	struct err e;

	assert_int_equal(reduce_text(process, 0, &p, &e), 0);
	assert_int_equal(p.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < p.n; i++) {
		assert_string_equal(p.v[i].name, want[i].name);
		assert_int_equal(p.v[i].count, want[i].n);
	}
	assert_int_equal(p.total, 205);
	assert_int_equal(p.kernel, 105);
	assert_int_equal(p.user, 100);
	assert_int_equal(p.unknown, 23);	/* 5 + 4 + 6 + 8 */
	assert_int_equal(p.regions, 1);
	fprofile_free(&p);
}

TEST(raw_names_keep_the_clones_apart)
{
	struct fprofile p;
	struct err e;
	int seen = 0;

	assert_int_equal(reduce_text(process, 1, &p, &e), 0);
	for (size_t i = 0; i < p.n; i++) {
		if (!strcmp(p.v[i].name, "foo.isra.0"))
			seen += p.v[i].count == 30;
		if (!strcmp(p.v[i].name, "foo"))
			seen += p.v[i].count == 20;
	}
	assert_int_equal(seen, 2);
	fprofile_free(&p);
}

TEST(counts_that_do_not_add_up_to_the_header_are_refused)
{
	static const char bad[] = "# total: 206\nffffffff81000104\t20\n[user]\t185\n";
	struct fprofile p;
	struct err e;

	assert_int_equal(reduce_text(bad, 0, &p, &e), -1);
	assert_non_null(strstr(e.msg, "add up to 205"));
}

TEST(a_malformed_line_is_refused_with_its_number)
{
	static const char bad[] = "# total: 1\nffffffff81000104 twenty\n";
	struct fprofile p;
	struct err e;

	assert_int_equal(reduce_text(bad, 0, &p, &e), -1);
	assert_non_null(strstr(e.msg, "line 2"));
}

TEST(a_region_reconciles_with_its_icount_figure)
{
	/* 6.1.0-55 at 1000.000 MHz: elapsed 11999485 ns is the 11999410
	 * instructions plus the clock reads' 75 */
	struct reconcile r = reconcile_region(11999485, 11999410, 1000000, 0);

	assert_int_equal(r.gap, 0);
	assert_int_equal(r.margin, 2);
	assert_true(r.ok);
	/* 6.1.0-54 at 999.999 MHz: 11798906 ns x 0.999999 = 11798894.2
	 * cycles, 11798894 - 11798819 - 75 = 0 */
	r = reconcile_region(11798906, 11798819, 999999, 0);
	assert_int_equal(r.gap, 0);
	assert_true(r.ok);
	/* unknown calibration is 1000.000 MHz */
	r = reconcile_region(11999485, 11999410, 0, 0);
	assert_int_equal(r.gap, 0);
}

TEST(a_region_off_by_more_than_the_margin_does_not_reconcile)
{
	/* 3 ns more than the instructions account for */
	struct reconcile r = reconcile_region(11798897, 11798819, 1000000, 0);

	assert_int_equal(r.gap, 3);
	assert_false(r.ok);
	/* the 1 ppm of a 999.999 MHz boot is 12 ns over 11.8 ms: not ignored */
	r = reconcile_region(11798906, 11798819, 1000000, 0);
	assert_int_equal(r.gap, 12);
	assert_false(r.ok);
	/* 6.12.117's warm-up: 12838313 ns against 12838262 instructions is
	 * 24 counted too many, outside 2 alone but within the plugin's slack
	 * of 9 blocks left early, 39 instructions at most over-counted */
	r = reconcile_region(12838313, 12838262, 1000000, 0);
	assert_int_equal(r.gap, -24);
	assert_false(r.ok);
	r = reconcile_region(12838313, 12838262, 1000000, 9 + 39);
	assert_int_equal(r.margin, 50);
	assert_true(r.ok);
}
