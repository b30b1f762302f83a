/*
 * drivers/vm/insns-marker.c: the insns plugin knows the harness's markers
 * by their bytes.  The bytes checked are the ones bench/lib/harness.h's
 * BENCH_MARK really emits, read back from this test's own code.
 */
#include <stdint.h>
#include <string.h>

#include "unit.h"
#include "harness.h"
#include "vm/insns-marker.h"

extern const uint8_t unit_mark_begin[], unit_mark_end[], unit_mark_process[], unit_mark_task_begin[],
	unit_mark_task_end[];

/* Never called: the assembler lays each marker after its label. */
void unit_markers(void);
void unit_markers(void)
{
	__asm__ volatile(".globl unit_mark_begin\nunit_mark_begin:");
	BENCH_MARK(BENCH_MARK_BEGIN);
	__asm__ volatile(".globl unit_mark_end\nunit_mark_end:");
	BENCH_MARK(BENCH_MARK_END);
	__asm__ volatile(".globl unit_mark_process\nunit_mark_process:");
	BENCH_MARK(BENCH_MARK_PROCESS);
	__asm__ volatile(".globl unit_mark_task_begin\nunit_mark_task_begin:");
	BENCH_MARK(BENCH_MARK_TASK_BEGIN);
	__asm__ volatile(".globl unit_mark_task_end\nunit_mark_task_end:");
	BENCH_MARK(BENCH_MARK_TASK_END);
}

TEST(the_harness_markers_are_recognised)
{
	assert_int_equal(insns_marker(unit_mark_begin, 7), MARK_BEGIN);
	assert_int_equal(insns_marker(unit_mark_end, 7), MARK_END);
	assert_int_equal(insns_marker(unit_mark_process, 7), MARK_PROCESS);
	assert_int_equal(insns_marker(unit_mark_task_begin, 7), MARK_TASK_BEGIN);
	assert_int_equal(insns_marker(unit_mark_task_end, 7), MARK_TASK_END);
}

TEST(a_marker_is_a_seven_byte_nopl_with_its_magic)
{
	/* nopl 0x6d6d6442(%rax), as objdump shows it in a bench */
	static const uint8_t begin[] = { 0x0f, 0x1f, 0x80, 0x42, 0x64, 0x6d, 0x6d };

	assert_memory_equal(unit_mark_begin, begin, sizeof(begin));
}

TEST(other_nops_are_not_markers)
{
	static const uint8_t nopl0[] = { 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 };	/* nopl 0x0(%rax) */
	static const uint8_t rbx[] = { 0x0f, 0x1f, 0x83, 0x42, 0x64, 0x6d, 0x6d };	/* other register */
	static const uint8_t nopw[] = { 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x42, 0x64, 0x6d, 0x6d };
	static const uint8_t begin[] = { 0x0f, 0x1f, 0x80, 0x42, 0x64, 0x6d, 0x6d };

	assert_int_equal(insns_marker(nopl0, sizeof(nopl0)), MARK_NONE);
	assert_int_equal(insns_marker(rbx, sizeof(rbx)), MARK_NONE);
	assert_int_equal(insns_marker(nopw, sizeof(nopw)), MARK_NONE);
	/* a page-cut instruction (QEMU 7.2 lists it with fewer bytes) */
	assert_int_equal(insns_marker(begin, 6), MARK_NONE);
}
