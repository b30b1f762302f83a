/*
 * procmunmap's /proc readers: processes that loop reading /proc/PID/FILE of
 * the bench, as ps does, and log every read's start and end on
 * CLOCK_MONOTONIC, which all processes share.  The bench opens and closes
 * logging windows (idle, then the munmap) on the same clock, so a read
 * belongs to a window by its timestamps, not by a guess.
 */
#ifndef MMDELTA_PROCMUNMAP_READERS_H
#define MMDELTA_PROCMUNMAP_READERS_H
#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#define READERS_MAX 32
#define READERS_LOG_CAP (1u << 20)	/* reads logged per reader: 16 MiB */

/* Split the comma list of file names and check that each can be read. */
int readers_parse_files(const char *list);
/*
 * Fork n readers of this process's files; they wait for a window.  Each
 * sleeps gap_ns between reads (0: back to back) and runs on cpus (NULL:
 * wherever this process may).
 */
int readers_start(uint64_t n, uint64_t gap_ns, const cpu_set_t *cpus);
/* Let the readers log; returns once every reader has read at least once. */
void readers_window_open(void);
/* Stop logging and wait until no reader is inside a read. */
void readers_window_close(void);
/*
 * From readers_mark(1) to readers_mark(0), each read a reader starts is a
 * task region of the insns monitor (harness.h): the timed region's reads.
 */
void readers_mark(int on);
/* Latencies (ns) of the logged reads that overlap win, sorted; NULL if out of memory. */
uint64_t *readers_latencies(const uint64_t win[2], size_t *n);
/* End the reader processes; -1 if one failed.  Their logs stay readable. */
int readers_stop(void);
/* Free the logs. */
void readers_free(void);

#endif
