/*
 * What the machine can hold.  A run must never wake the OOM killer or need
 * swap, so every mapping size is checked against the smallest of these
 * before anything is mapped.
 */
#ifndef MMDELTA_MEMLIMIT_H
#define MMDELTA_MEMLIMIT_H
#include <stdint.h>

struct memlimit {
	uint64_t limit;		/* the smallest bound below, in bytes */
	const char *which;	/* which bound that is, for messages */
	uint64_t memtotal, memavailable, margin, cgroup_free;
};

/* Read /proc/meminfo and the memory cgroup; 0 or -1. */
int memlimit_read(struct memlimit *m);

/* The meminfo field (kB) named key, in bytes; 0 when absent. */
uint64_t meminfo_bytes(const char *text, const char *key);

/* The headroom kept free: the larger of 1 GiB and 10% of MemTotal. */
uint64_t memlimit_margin(uint64_t memtotal);

#endif
