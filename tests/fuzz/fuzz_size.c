/*
 * libFuzzer target: size_parse and size_format.  The first 8 bytes (when
 * there are more than 8) are MemTotal for "N%", the rest the size string.
 * An accepted size is never 0, a share of memory never exceeds MemTotal and
 * is page-aligned, and formatting any accepted size fits its buffer.
 */
#include "size.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t memtotal = 24ull << 30, out = 0;
	const char *why = NULL;
	char buf[32], *s;
	size_t len;

	if (size > 8) {
		memcpy(&memtotal, data, 8);
		data += 8;
		size -= 8;
	}
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	len = strlen(s);	/* the parser sees the string up to a NUL */
	if (size_parse(s, memtotal, &out, &why) == 0) {
		if (out == 0)
			abort();
		if (len && s[len - 1] == '%' && (out > memtotal || out % 4096))
			abort();
		size_format(out, buf, sizeof(buf));
		if (strlen(buf) == 0 || strlen(buf) >= sizeof(buf))
			abort();
	} else if (!why || !*why) {
		abort();
	}
	free(s);
	return 0;
}
