/*
 * Tests declared where they are written, as in the kernel's
 * kselftest_harness.h: TEST(name) { ... } defines the cmocka test function
 * and registers it, so a test file has no main() and no list to keep.
 *
 *	#include "unit.h"
 *
 *	TEST(sizes_are_powers_of_1024)
 *	{
 *		assert_int_equal(parse_ok("64K"), 65536);
 *	}
 *
 * Registration is a pointer placed in the ELF section "unit_tests"; main.c
 * walks it between the GNU linker's __start_unit_tests and __stop_unit_tests,
 * puts the tests in their order of definition and runs them with
 * cmocka_run_group_tests().  It also checks that every TEST( at the start
 * of a line of the file (the Makefile counts them into UNIT_DECLARED) is
 * registered, so a test that is written but never runs fails the build's
 * `make unit` instead of passing unseen.
 */
#ifndef MMDELTA_UNIT_H
#define MMDELTA_UNIT_H

/* cmocka.h needs these before it */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

struct unit_test {
	const char *name;
	CMUnitTestFunction fn;
	const char *file;
	int line;		/* the order of definition: main.c sorts by it */
};

/*
 * The section's name is a C identifier, so the linker defines its start and
 * stop symbols; a section given explicitly is not padded with ASan redzones,
 * so the pointers lie back to back.  `used` keeps the unreferenced entry.
 */
#define TEST(name)								\
	static void name(void **state);						\
	static const struct unit_test unit_test_##name = {			\
		#name, name, __FILE__, __LINE__					\
	};									\
	static const struct unit_test *const unit_entry_##name			\
		__attribute__((used, section("unit_tests"))) = &unit_test_##name; \
	static void name(void **state __attribute__((unused)))

#endif
