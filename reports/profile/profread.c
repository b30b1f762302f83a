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

/*
 * TAG of a counted iteration of param: "12", or "KEY=VALUE.12" where the
 * value is everything between the key's '=' and the last '.', so that a
 * value with dots ("1.5G") is read whole.
 */
int profile_tag_point(const char *tag, const char *param, char *key, size_t len)
{
	const char *dot = strrchr(tag, '.'), *eq = strchr(tag, '=');
	const char *iter = dot ? dot + 1 : tag;

	if (!*iter || strspn(iter, "0123456789") != strlen(iter))
		return 0;
	if (!strcmp(param, "-"))
		return !dot && !eq;
	if (!dot || !eq || eq > dot || (size_t)(dot - eq - 1) != strlen(param) || strncmp(eq + 1, param, strlen(param)))
		return 0;
	if ((size_t)(eq - tag) < len) {
		memcpy(key, tag, (size_t)(eq - tag));
		key[eq - tag] = '\0';
	}
	return 1;
}

/*
 * "insns.TAG.tsv" or "profile.TAG.self.tsv" of a counted iteration of
 * param, or for the task regions "insns-tasks.TAG.tsv": its kind.
 */
static enum profile_kind file_kind(const char *f, const char *param, int tasks, char *key, size_t len)
{
	static const struct { const char *pre, *suf; enum profile_kind k; } forms[] = {
		{ "insns.", ".tsv", PROFILE_INSNS }, { "profile.", ".self.tsv", PROFILE_SAMPLES },
		{ "insns-tasks.", ".tsv", PROFILE_INSNS },
	};
	char tag[256];

	for (size_t i = tasks ? 2 : 0; i < (tasks ? 3u : 2u); i++) {
		size_t p = strlen(forms[i].pre), s = strlen(forms[i].suf), n = strlen(f);

		if (n <= p + s || n - p - s >= sizeof(tag) || strncmp(f, forms[i].pre, p) || strcmp(f + n - s, forms[i].suf))
			continue;
		memcpy(tag, f + p, n - p - s);
		tag[n - p - s] = '\0';
		if (profile_tag_point(tag, param, key, len))
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

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The point's files of the kind that is there, insns first: their names, sorted. */
static char **list(const char *dir, struct iter_profiles *p, const char *param, int tasks, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t have[3] = { 0 };

	*n = 0;
	while (d && (de = readdir(d))) {
		enum profile_kind k = file_kind(de->d_name, param, tasks, p->key, sizeof(p->key));

		if (k == PROFILE_NONE)
			continue;
		have[k]++;
		names = xreallocarray(names, *n + 1, sizeof(*names));
		names[(*n)++] = xstrdup(de->d_name);
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), by_string);
	p->kind = have[PROFILE_INSNS] ? PROFILE_INSNS : have[PROFILE_SAMPLES] ? PROFILE_SAMPLES : PROFILE_NONE;
	return names;
}

static int read_profiles(const char *run, const char *bench, const char *param, int tasks,
			 struct iter_profiles *p, struct err *e)
{
	char dir[4096], path[8192], key[64];
	struct entries es = { 0 };
	size_t n;
	char **names;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	snprintf(dir, sizeof(dir), "%s/%s/monitors", run, bench);
	names = list(dir, p, param, tasks, &n);
	for (size_t i = 0; i < n; i++) {
		if (!rc && file_kind(names[i], param, tasks, key, sizeof(key)) == p->kind) {
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

int profiles_read(const char *run, const char *bench, const char *param, struct iter_profiles *p,
		  struct err *e)
{
	return read_profiles(run, bench, param, 0, p, e);
}

int profiles_read_tasks(const char *run, const char *bench, const char *param, struct iter_profiles *p,
			struct err *e)
{
	return read_profiles(run, bench, param, 1, p, e);
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

void profiles_totals(const struct iter_profiles *p, double *v)
{
	for (size_t i = 0; i < p->n_iter; i++)
		v[i] = 0;
	for (size_t f = 0; f < p->n; f++)
		for (size_t i = 0; i < p->n_iter; i++)
			v[i] += p->f[f].v[i];
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
