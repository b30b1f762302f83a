/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The insns monitor's markers (bench/lib/harness.h), recognised by their
 * bytes: the plugin sees each instruction's bytes when QEMU translates it.
 */
#ifndef MMDELTA_INSNS_MARKER_H
#define MMDELTA_INSNS_MARKER_H

#include <stddef.h>
#include <stdint.h>

enum insns_mark { MARK_NONE, MARK_BEGIN, MARK_END, MARK_PROCESS, MARK_TASK_BEGIN, MARK_TASK_END };

/* nopl disp32(%rax) = 0f 1f 80 + a 4-byte magic: which marker, if any. */
enum insns_mark insns_marker(const uint8_t *bytes, size_t len);

#endif
