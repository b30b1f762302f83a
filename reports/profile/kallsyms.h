/*
 * The guest's /proc/kallsyms, for naming the insns plugin's addresses.  It
 * is read in the guest of the same boot (KASLR moves every address at each
 * boot, and Debian's image packages ship only a stub System.map), as root
 * with kptr_restrict 0, whole or without its local data symbols.
 */
#ifndef MMDELTA_KALLSYMS_H
#define MMDELTA_KALLSYMS_H

#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

/* The lowest kernel address of x86-64 with 4-level paging. */
#define KERNEL_START 0xffff800000000000ull

struct ksym {
	uint64_t addr;
	char *name;
	char type;
	unsigned int order;	/* line in kallsyms: ties keep the file's order */
};

struct ksyms {
	struct ksym *v;		/* by address, one symbol per address */
	size_t n;
};

/*
 * Read "ADDR TYPE NAME[\t[MODULE]]" lines.  -1 with e set when f holds no
 * non-zero address (kptr_restrict hides them) or no kernel symbol.
 */
int ksyms_read(FILE *f, struct ksyms *k, struct err *e);
/*
 * The function covering addr: the greatest symbol at or below it, unless
 * that is not text (data, or an end such as _etext): NULL, [unknown].
 */
const char *ksyms_lookup(const struct ksyms *k, uint64_t addr);
void ksyms_free(struct ksyms *k);

#endif
