/*
 * Counters that are one kernel figure under two names, shown once: the
 * zone LRU counters of /proc/vmstat (nr_zone_active_anon, ...) repeat the
 * node ones (nr_active_anon, ...), and nr_mlock is nr_unevictable while
 * only mlocked pages are unevictable.  The first name of each group is
 * kept; another is dropped only where its values equal the kept one's in
 * every counted sample of every run (warm-ups are not compared), so a
 * counter that differs anywhere stays (docs/compare.md).
 */
#ifndef MMDELTA_ALIASES_H
#define MMDELTA_ALIASES_H

#include <stddef.h>

#include "rundir/benchdata.h"

/*
 * Drop b's duplicates; note, into buf, "nr_zone_active_anon = nr_active_anon,
 * nr_mlock = nr_unevictable" (empty when none).  Returns how many.
 */
size_t aliases_drop(struct bench_data *b, char *buf, size_t len);

#endif
