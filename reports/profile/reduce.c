/*
 * Clones are folded because GCC clones, splits and numbers functions
 * differently in two builds of the same source: unfolded, a diff of two
 * kernels shows foo.isra.0 at -100% and foo.constprop.0 new where the
 * source merely moved.  The raw names stay available (raw_names) for when
 * the clone matters: a .cold part that ran is an unlikely path taken.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile/reduce.h"

void fold_clone(char *name)
{
	if (name[0] != '[')
		name[strcspn(name, ".")] = '\0';
}

static int by_name(const void *pa, const void *pb)
{
	return strcmp(((const struct fcount *)pa)->name, ((const struct fcount *)pb)->name);
}

static int by_count(const void *pa, const void *pb)
{
	const struct fcount *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void add(struct fprofile *p, size_t *cap, const char *name, uint64_t count)
{
	/* addresses come sorted, so one function's are usually in a row */
	if (p->n && !strcmp(p->v[p->n - 1].name, name)) {
		p->v[p->n - 1].count += count;
		return;
	}
	if (p->n == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		p->v = xreallocarray(p->v, *cap, sizeof(*p->v));
	}
	p->v[p->n++] = (struct fcount){ xstrdup(name), count };
}

/* One name once (a folded clone, a .cold part far from its body), then by count. */
static void merge(struct fprofile *p)
{
	size_t w = 0;

	qsort(p->v, p->n, sizeof(*p->v), by_name);
	for (size_t i = 0; i < p->n; i++) {
		if (w && !strcmp(p->v[w - 1].name, p->v[i].name)) {
			p->v[w - 1].count += p->v[i].count;
			free(p->v[i].name);
			continue;
		}
		p->v[w++] = p->v[i];
	}
	p->n = w;
	qsort(p->v, p->n, sizeof(*p->v), by_count);
}

/* "# KEY: N" header lines; the others are left alone. */
static void header(struct fprofile *p, const char *line, uint64_t *claimed)
{
	unsigned long long v;

	if (sscanf(line, "# total: %llu", &v) == 1)
		*claimed = v;
	else if (sscanf(line, "# regions: %llu", &v) == 1)
		p->regions = (unsigned int)v;
}

static int line_add(struct fprofile *p, size_t *cap, const struct ksyms *k, int raw_names, const char *buf)
{
	uint64_t addr, count;
	const char *sym;
	char name[512];

	if (!strncmp(buf, "[user]\t", 7)) {
		p->user += strtoull(buf + 7, NULL, 10);
		return 0;
	}
	if (sscanf(buf, "%" SCNx64 "\t%" SCNu64, &addr, &count) != 2)
		return -1;
	if (addr < KERNEL_START) {
		p->user += count;
		return 0;
	}
	p->kernel += count;
	sym = ksyms_lookup(k, addr);
	if (!sym) {
		p->unknown += count;
		return 0;
	}
	snprintf(name, sizeof(name), "%s", sym);
	if (!raw_names)
		fold_clone(name);
	add(p, cap, name, count);
	return 0;
}

int profile_reduce(FILE *f, const struct ksyms *k, int raw_names, struct fprofile *p, struct err *e)
{
	uint64_t claimed = UINT64_MAX;
	size_t cap = 0;
	unsigned int line = 0;
	char buf[1024];

	memset(p, 0, sizeof(*p));
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		if (buf[0] == '#') {
			header(p, buf, &claimed);
			continue;
		}
		if (buf[0] != '\n' && line_add(p, &cap, k, raw_names, buf)) {
			fprofile_free(p);
			return err_set(e, "line %u is not ADDRESS<TAB>COUNT", line);
		}
	}
	p->total = p->kernel + p->user;
	if (claimed != UINT64_MAX && claimed != p->total) {
		err_set(e, "its counts add up to %" PRIu64 ", its header says %" PRIu64, p->total, claimed);
		fprofile_free(p);
		return -1;
	}
	if (p->user)
		add(p, &cap, "[user]", p->user);
	if (p->unknown)
		add(p, &cap, "[unknown]", p->unknown);
	merge(p);
	return 0;
}

void fprofile_write(FILE *out, const struct fprofile *p)
{
	for (size_t i = 0; i < p->n; i++)
		fprintf(out, "%s\t%" PRIu64 "\n", p->v[i].name, p->v[i].count);
}

void fprofile_free(struct fprofile *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].name);
	free(p->v);
	memset(p, 0, sizeof(*p));
}
