/*
 * Which figures are exact.  A run measured under qemu's -icount clock
 * counts instructions: the same code gives the same time, so two constant
 * sets that differ are an exact difference.  Under a real clock, zero
 * variance is the clock's resolution, and a time or a rate computed from
 * one cannot be tested.  Counts (pages, faults, bytes) are exact under any
 * clock.
 */
#ifndef MMDELTA_CLOCK_H
#define MMDELTA_CLOCK_H

/* meta says "clock: icount" (or, in runs older than that key, "vm_clock: icount"). */
int clock_exact_run(const char *rundir);
/* A time (s, ms, us, µs, ns) or a rate per second: read off the clock. */
int unit_is_clocked(const char *unit);

#endif
