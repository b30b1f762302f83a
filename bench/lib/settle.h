/*
 * Settling before a timed region, for a guest whose clock counts executed
 * instructions (qemu -icount).  There everything the vCPU executes inside
 * the region is in its figure: the tail of the driver that released the
 * bench, kernel work its processes left behind (RCU callbacks of freed
 * files and tasks, pages parked in the per-CPU LRU batch, the per-CPU page
 * lists' fill and auto-tuned high mark), deferrable timers
 * that came due while the CPU idled, and the timer tick, whose phase
 * follows from all that ran before.  bench_settle() moves all of it in
 * front of the region, so that an icount figure does not depend on which
 * monitors ran, what the driver did or how big the initramfs was.
 */
#ifndef MMDELTA_SETTLE_H
#define MMDELTA_SETTLE_H

/*
 * Put this CPU's LRU batch on its lists, decay the per-CPU page lists to
 * their floor (6.7 and later, as root), idle for 200 ms, then spin across
 * six timer ticks and return right after the last.  0, or -1 when the
 * clock cannot be read.  A kernel without MADV_COLD (before 5.4) gets the
 * rest, and a note on stderr.
 */
int bench_settle(void);

#endif
