/* Reading meta and BENCH/config (see kvfile.h). */
#include <stdlib.h>
#include <string.h>

#include "kvfile.h"
#include "tsv.h"
#include "base/xalloc.h"

static void add(struct kvlist *l, const char *key, size_t key_len, const char *value)
{
	l->kv = xreallocarray(l->kv, l->n + 1, sizeof(*l->kv));
	l->kv[l->n++] = (struct kv){ strndup(key, key_len), xstrdup(value) };
	if (!l->kv[l->n - 1].key)
		abort();
}

/* A resolved key is upper case: SIZE, THP_DEFRAG, ITERATIONS. */
static size_t config_key_len(const char *line)
{
	size_t n = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

	return n && line[n] == '=' ? n : 0;
}

/* meta must exist; a bench without a config file has no keys. */
static int read_kv(const char *path, int config, struct kvlist *l, struct err *e)
{
	struct tsv t;
	int r = config ? tsv_open_optional(&t, path, e) : tsv_open(&t, path, e) ? -1 : 1;

	*l = (struct kvlist){ 0 };
	if (r <= 0)
		return r;
	while ((r = tsv_next_line(&t, e)) == 1) {
		const char *line = t.buf, *colon = strstr(line, ": ");
		size_t n = config ? config_key_len(line) : 0;

		if (n)
			add(l, line, n, line + n + 1);
		else if (colon)
			add(l, line, (size_t)(colon - line), colon + 2);
	}
	tsv_close(&t);
	return r;
}

int kv_read_meta(const char *path, struct kvlist *l, struct err *e)
{
	return read_kv(path, 0, l, e);
}

int kv_read_config(const char *path, struct kvlist *l, struct err *e)
{
	return read_kv(path, 1, l, e);
}

const char *kv_get(const struct kvlist *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->kv[i].key, key))
			return l->kv[i].value;
	return NULL;
}

void kv_free(struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->kv[i].key);
		free(l->kv[i].value);
	}
	free(l->kv);
	*l = (struct kvlist){ 0 };
}
