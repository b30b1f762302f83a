/*
 * Work or interleaving: which kernel functions of an insns profile run
 * wherever the interleaving of the vCPU's tasks puts them (docs/compare.md).
 * On the one vCPU of an icount guest the scheduler, the tick and its
 * timers, interrupts, softirqs and RCU's own machinery run inside whichever
 * region the clock or a wait leaves them in; the functions of a syscall's
 * own path are its work.  Known by name alone, from a short list of
 * patterns (interleave.c); everything else, [user] and [unknown] included,
 * is work.
 */
#ifndef MMDELTA_INTERLEAVE_H
#define MMDELTA_INTERLEAVE_H

/* 1 when the function is on the list of interleaving paths, else 0 (work). */
int profile_interleaving(const char *function);

#endif
