#include "size.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static int unit_shift(char c)
{
	switch (toupper((unsigned char)c)) {
	case 'K': return 10;
	case 'M': return 20;
	case 'G': return 30;
	case 'T': return 40;
	case 'P': return 50;
	default: return -1;
	}
}

int size_parse(const char *s, uint64_t memtotal, uint64_t *out, const char **why)
{
	char *end;
	unsigned long long n;

	if (!s || !isdigit((unsigned char)*s)) {
		*why = "not a size (expected digits, then K/M/G/T/P or %)";
		return -1;
	}
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno == ERANGE) {
		*why = "number too large";
		return -1;
	}
	if (*end == '\0') {
		*out = n;
	} else if (end[0] == '%' && end[1] == '\0') {
		/* More than all of memory can never fit: refused, never capped. */
		if (n == 0 || n > 100) {
			*why = "percentage must be 1-100";
			return -1;
		}
		if (memtotal == 0) {
			*why = "cannot read MemTotal for a percentage";
			return -1;
		}
		/* Page-align: a share of memory is used as a mapping length. */
		*out = (memtotal / 100 * n) & ~4095ull;
	} else if (unit_shift(end[0]) > 0 && (end[1] == '\0' ||
		   ((end[1] == 'B' || end[1] == 'b') && end[2] == '\0') ||
		   (end[1] == 'i' && end[2] == 'B' && end[3] == '\0'))) {
		int shift = unit_shift(end[0]);

		if (n > (UINT64_MAX >> shift)) {
			*why = "size overflows 64 bits";
			return -1;
		}
		*out = (uint64_t)n << shift;
	} else {
		*why = "unknown suffix (use K, M, G, T, P or %)";
		return -1;
	}
	if (*out == 0) {
		*why = "size must be greater than zero";
		return -1;
	}
	return 0;
}

void size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGTP";
	int i = -1;
	double v = (double)bytes;

	while (i < 4 && v >= 1024.0) {
		v /= 1024.0;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f%c", v, units[i]);
}
