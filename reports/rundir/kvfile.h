/*
 * Key-value files of a run directory: meta ("key: value" lines) and
 * BENCH/config ("KEY=VALUE" lines for the resolved keys, beside
 * "command...: ..." lines that are kept as key "command..." too).
 */
#ifndef MMDELTA_KVFILE_H
#define MMDELTA_KVFILE_H

#include <stddef.h>

#include "base/err.h"

struct kv {
	char *key, *value;
};

struct kvlist {
	struct kv *kv;
	size_t n;
};

/* meta: every "key: value" line; path must exist. */
int kv_read_meta(const char *path, struct kvlist *l, struct err *e);
/* BENCH/config: "KEY=VALUE" and "key...: value" lines; no file, no keys. */
int kv_read_config(const char *path, struct kvlist *l, struct err *e);
/* The value of key, or NULL. */
const char *kv_get(const struct kvlist *l, const char *key);
void kv_free(struct kvlist *l);

#endif
