/*
 * The one main() of every unit test binary (see unit.h): the tests the
 * file registered with TEST(), in their order of definition, run as one
 * cmocka group.  UNIT_DECLARED is the number of TEST( lines the Makefile
 * counted in the file; a registry that holds another number fails before
 * anything runs, so no test can be written and silently never run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#ifndef UNIT_DECLARED
#error "build with -DUNIT_DECLARED=N, the number of TEST( lines of the test file (see the Makefile)"
#endif

/* Weak: a file without any TEST() still links, and the count says so. */
extern const struct unit_test *const __start_unit_tests[] __attribute__((weak));
extern const struct unit_test *const __stop_unit_tests[] __attribute__((weak));

static int by_definition(const void *a, const void *b)
{
	const struct unit_test *x = *(const struct unit_test *const *)a;
	const struct unit_test *y = *(const struct unit_test *const *)b;
	int c = strcmp(x->file, y->file);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

int main(void)
{
	size_t n = (size_t)(__stop_unit_tests - __start_unit_tests);
	const struct unit_test **reg;

	if (n != UNIT_DECLARED || n == 0) {
		fprintf(stderr, "unit: the file has %d TEST( lines and %zu registered tests: "
			"every test written must run (see tests/unit/unit.h)\n", UNIT_DECLARED, n);
		return 1;
	}
	/* The compiler need not emit the entries in source order (GCC 12 emits
	 * them last first): the order of definition is the line. */
	reg = calloc(n, sizeof(*reg));
	if (!reg)
		abort();
	memcpy(reg, __start_unit_tests, n * sizeof(*reg));
	qsort(reg, n, sizeof(*reg), by_definition);

	struct CMUnitTest tests[n];	/* a VLA: cmocka_run_group_tests takes its sizeof */

	for (size_t i = 0; i < n; i++)
		tests[i] = (struct CMUnitTest){ .name = reg[i]->name, .test_func = reg[i]->fn };
	free(reg);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
