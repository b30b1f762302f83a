#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile/profread.h"

struct entry {
	char *name;
	size_t iter;
	double v;
};

struct entries {
	struct entry *v;
	size_t n, cap;
};

/* "insns.12.tsv" or "profile.12.self.tsv": the kind, and 12 in *tag. */
static enum profile_kind file_kind(const char *f, char *tag, size_t len)
{
	static const struct { const char *pre, *suf; enum profile_kind k; } forms[] = {
		{ "insns.", ".tsv", PROFILE_INSNS }, { "profile.", ".self.tsv", PROFILE_SAMPLES },
	};

	for (size_t i = 0; i < 2; i++) {
		size_t p = strlen(forms[i].pre), s = strlen(forms[i].suf), n = strlen(f), d;

		if (n <= p + s || strncmp(f, forms[i].pre, p) || strcmp(f + n - s, forms[i].suf))
			continue;
		d = strspn(f + p, "0123456789");
		if (d != n - p - s || d >= len)
			continue;
		memcpy(tag, f + p, d);
		tag[d] = '\0';
		return forms[i].k;
	}
	return PROFILE_NONE;
}

static int read_file(const char *path, size_t iter, struct entries *es, char *event, size_t elen, struct err *e)
{
	FILE *f = fopen(path, "r");
	char line[1024], name[512];
	double v;

	if (!f)
		return err_set(e, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			if (sscanf(line, "# event: %31s", name) == 1 && strlen(name) < elen)
				memcpy(event, name, strlen(name) + 1);
			continue;
		}
		if (sscanf(line, "%511[^\t]\t%lf", name, &v) != 2) {
			fclose(f);
			return err_set(e, "%s: a line is not function<TAB>value", path);
		}
		if (es->n == es->cap) {
			es->cap = es->cap ? 2 * es->cap : 4096;
			es->v = xreallocarray(es->v, es->cap, sizeof(*es->v));
		}
		es->v[es->n++] = (struct entry){ xstrdup(name), iter, v };
	}
	fclose(f);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

/* The entries, one series per name. */
static void group(struct entries *es, struct iter_profiles *p)
{
	if (es->n)
		qsort(es->v, es->n, sizeof(*es->v), by_name);
	for (size_t i = 0; i < es->n; i++) {
		if (!p->n || strcmp(p->f[p->n - 1].name, es->v[i].name)) {
			p->f = xreallocarray(p->f, p->n + 1, sizeof(*p->f));
			p->f[p->n].name = es->v[i].name;
			p->f[p->n++].v = xcalloc(p->n_iter, sizeof(double));
		} else {
			free(es->v[i].name);
		}
		p->f[p->n - 1].v[es->v[i].iter] += es->v[i].v;
	}
	free(es->v);
}

/* The files of the kind that is there, insns first: their names. */
static char **list(const char *dir, enum profile_kind *kind, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL, tag[32];
	size_t have[3] = { 0 };

	*n = 0;
	*kind = PROFILE_NONE;
	while (d && (de = readdir(d))) {
		enum profile_kind k = file_kind(de->d_name, tag, sizeof(tag));

		if (k == PROFILE_NONE)
			continue;
		have[k]++;
		names = xreallocarray(names, *n + 1, sizeof(*names));
		names[(*n)++] = xstrdup(de->d_name);
	}
	if (d)
		closedir(d);
	*kind = have[PROFILE_INSNS] ? PROFILE_INSNS : have[PROFILE_SAMPLES] ? PROFILE_SAMPLES : PROFILE_NONE;
	return names;
}

int profiles_read(const char *run, const char *bench, struct iter_profiles *p, struct err *e)
{
	char dir[4096], path[8192], tag[32];
	struct entries es = { 0 };
	size_t n;
	char **names;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	snprintf(dir, sizeof(dir), "%s/%s/monitors", run, bench);
	names = list(dir, &p->kind, &n);
	for (size_t i = 0; i < n; i++) {
		if (!rc && file_kind(names[i], tag, sizeof(tag)) == p->kind) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			rc = read_file(path, p->n_iter++, &es, p->event, sizeof(p->event), e);
		}
		free(names[i]);
	}
	free(names);
	group(&es, p);
	if (rc)
		profiles_free(p);
	return rc;
}

const struct func_series *profiles_find(const struct iter_profiles *p, const char *name)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(p->f[mid].name, name);

		if (!c)
			return &p->f[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void profiles_free(struct iter_profiles *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->f[i].name);
		free(p->f[i].v);
	}
	free(p->f);
	memset(p, 0, sizeof(*p));
}
