/* Sizes as users write them: bytes, K/M/G/T/P suffixes (powers of 1024), N% of MemTotal. */
#ifndef MMDELTA_SIZE_H
#define MMDELTA_SIZE_H
#include <stdint.h>
#include <stddef.h>

/*
 * Parse s into *out.  memtotal is what "N%" is a share of.  Returns 0, or -1
 * with *why pointing at a static description of what is wrong.
 */
int size_parse(const char *s, uint64_t memtotal, uint64_t *out, const char **why);

/* "56.0G", "512M", "4096" - the largest unit that keeps the value >= 1. */
void size_format(uint64_t bytes, char *buf, size_t len);

#endif
