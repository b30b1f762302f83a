/*
 * kallsyms has no sizes: an address belongs to the symbol at or below it,
 * as perf decides too.  Of several symbols at one address the name of a
 * function is preferred: a global one, then a local one, then a linker
 * boundary (_stext, __start_*, *_text_start); data and ends of text
 * (_etext, _einittext) make the range after them [unknown].  Addresses are
 * 64-bit: awk's doubles would round them to 2 KiB, hence C.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile/kallsyms.h"

static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n > t && !strcmp(s + n - t, tail);
}

static bool is_boundary(const char *name)
{
	return !strcmp(name, "_stext") || !strcmp(name, "_text") || !strcmp(name, "_sinittext") ||
	       !strncmp(name, "__start_", 8) || !strncmp(name, "__stop_", 7) ||
	       ends_with(name, "_text_start") || ends_with(name, "_text_end");
}

/* Lower is preferred at one address; 3 is not a function at all. */
static int rank(const struct ksym *s)
{
	if (!is_text(s->type) || !strcmp(s->name, "_etext") || !strcmp(s->name, "_einittext"))
		return 3;
	if (is_boundary(s->name))
		return 2;
	return s->type == 'T' || s->type == 'W' ? 0 : 1;
}

static int sym_cmp(const void *pa, const void *pb)
{
	const struct ksym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (rank(a) != rank(b))
		return rank(a) - rank(b);
	return a->order < b->order ? -1 : a->order > b->order;
}

/* Keep the preferred, first sorted, symbol of each address. */
static void keep_first(struct ksyms *k)
{
	size_t w = 0;

	for (size_t i = 0; i < k->n; i++) {
		if (w && k->v[w - 1].addr == k->v[i].addr) {
			free(k->v[i].name);
			continue;
		}
		k->v[w++] = k->v[i];
	}
	k->n = w;
}

int ksyms_read(FILE *f, struct ksyms *k, struct err *e)
{
	char buf[1024], name[512], type;
	size_t cap = 0, nonzero = 0;
	unsigned int line = 0;
	uint64_t addr;

	k->v = NULL;
	k->n = 0;
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		if (sscanf(buf, "%" SCNx64 " %c %511s", &addr, &type, name) != 3)
			continue;
		nonzero += addr != 0;
		if (addr < KERNEL_START)
			continue;	/* per-CPU offsets and the like */
		if (k->n == cap) {
			cap = cap ? 2 * cap : 65536;
			k->v = xreallocarray(k->v, cap, sizeof(*k->v));
		}
		k->v[k->n++] = (struct ksym){ addr, xstrdup(name), type, line };
	}
	if (!nonzero) {
		ksyms_free(k);
		return err_set(e, "every address is 0: read it as root with kernel.kptr_restrict=0");
	}
	if (!k->n) {
		ksyms_free(k);
		return err_set(e, "no kernel symbol in it");
	}
	qsort(k->v, k->n, sizeof(*k->v), sym_cmp);
	keep_first(k);
	return 0;
}

const char *ksyms_lookup(const struct ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {	/* the first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || rank(&k->v[lo - 1]) == 3)
		return NULL;
	return k->v[lo - 1].name;
}

void ksyms_free(struct ksyms *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	k->v = NULL;
	k->n = 0;
}
