/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "insns-marker.h"

/* The magic numbers of bench/lib/harness.h: "Bdmm", "Edmm", "Pdmm", "Tdmm", "tdmm". */
#define MAGIC_BEGIN 0x6d6d6442u
#define MAGIC_END 0x6d6d6445u
#define MAGIC_PROCESS 0x6d6d6450u
#define MAGIC_TASK_BEGIN 0x6d6d6454u
#define MAGIC_TASK_END 0x6d6d6474u

enum insns_mark insns_marker(const uint8_t *b, size_t len)
{
	uint32_t magic;

	/* opcode 0f 1f, ModRM 0x80 (mod 10, reg 0, rm rax), disp32 */
	if (len != 7 || b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x80)
		return MARK_NONE;
	magic = (uint32_t)b[3] | (uint32_t)b[4] << 8 | (uint32_t)b[5] << 16 | (uint32_t)b[6] << 24;
	switch (magic) {
	case MAGIC_BEGIN:
		return MARK_BEGIN;
	case MAGIC_END:
		return MARK_END;
	case MAGIC_PROCESS:
		return MARK_PROCESS;
	case MAGIC_TASK_BEGIN:
		return MARK_TASK_BEGIN;
	case MAGIC_TASK_END:
		return MARK_TASK_END;
	default:
		return MARK_NONE;
	}
}
