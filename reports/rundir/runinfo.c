/* Reading a run directory's meta and bench list. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "runinfo.h"
#include "base/xalloc.h"

/* "results/.x-1.partial/" -> "x-1", "results/x-1" -> "x-1" */
static char *display_name(const char *path)
{
	char *copy = xstrdup(path), *base, *name;
	size_t len = strlen(copy), n;

	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	base = strrchr(copy, '/');
	base = base ? base + 1 : copy;
	n = strlen(base);
	if (base[0] == '.' && n > 9 && strcmp(base + n - 8, ".partial") == 0) {
		base[n - 8] = '\0';
		base++;
	}
	name = xstrdup(base);
	free(copy);
	return name;
}

static int read_meta(struct run_info *r, struct err *e)
{
	char path[4096];
	const char *status;

	snprintf(path, sizeof(path), "%s/meta", r->path);
	if (access(path, R_OK))
		return err_set(e, "%s: not a run directory (no readable meta file)", r->path);
	if (kv_read_meta(path, &r->meta, e))
		return -1;
	status = kv_get(&r->meta, "status");
	if (!status || !*status)
		return err_set(e, "%s: no 'status:' line", path);
	r->status = xstrdup(status);
	r->partial = strcmp(r->status, "complete") != 0;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A bench directory is one that holds a metrics.tsv or a samples.tsv. */
static int is_bench_dir(const char *run, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s/metrics.tsv", run, name);
	if (stat(path, &st) == 0)
		return 1;
	snprintf(path, sizeof(path), "%s/%s/samples.tsv", run, name);
	return stat(path, &st) == 0;
}

static int list_benches(struct run_info *r, struct err *e)
{
	DIR *d = opendir(r->path);
	struct dirent *de;

	if (!d)
		return err_set(e, "%s: %s", r->path, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !is_bench_dir(r->path, de->d_name))
			continue;
		r->benches = xreallocarray(r->benches, r->n_benches + 1, sizeof(char *));
		r->benches[r->n_benches++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(r->benches, r->n_benches, sizeof(char *), cmp_str);
	return 0;
}

int run_info_load(struct run_info *r, const char *path, struct err *e)
{
	struct stat st;

	*r = (struct run_info){ .path = xstrdup(path), .name = display_name(path) };
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return err_set(e, "%s: no such run directory", path);
	if (read_meta(r, e) || list_benches(r, e))
		return -1;
	r->exact_clock = clock_exact_run(path);
	/* A guest's wall clock runs at the emulator's pace, not the machine's. */
	r->clock = r->exact_clock ? "icount" :
		   kv_get(&r->meta, "vm_clock") ? "realtime in a qemu guest" : "realtime";
	return 0;
}

void run_info_free(struct run_info *r)
{
	for (size_t i = 0; i < r->n_benches; i++)
		free(r->benches[i]);
	free(r->benches);
	free(r->path);
	free(r->name);
	free(r->status);
	kv_free(&r->meta);
	*r = (struct run_info){ 0 };
}

int run_info_same_clock(const struct run_info *a, const struct run_info *b)
{
	return !strcmp(a->clock, b->clock);
}

int run_has_bench(const struct run_info *r, const char *bench)
{
	return bsearch(&bench, r->benches, r->n_benches, sizeof(char *), cmp_str) != NULL;
}

/*
 * A program a bench wraps records its version in meta as "wrapped_PROGRAM"
 * (bench/stressng.sh: wrapped_stress-ng).  Its unit of work is what one
 * version makes it (a stress-ng bogo-op is whatever that version's stressor
 * counts), so runs of two versions do not compare, whatever the clock.
 */
static int same_wrapped(const struct run_info *a, const struct run_info *b, struct err *e)
{
	for (size_t i = 0; i < a->meta.n; i++) {
		const char *key = a->meta.kv[i].key, *va = a->meta.kv[i].value, *vb;

		if (strncmp(key, "wrapped_", 8) || !(vb = kv_get(&b->meta, key)) || !strcmp(va, vb))
			continue;
		return err_set(e, "%s and %s: runs of two %s versions (%s, %s) do not compare: "
			       "its unit of work is what one version makes it", a->name, b->name, key + 8, va, vb);
	}
	return 0;
}

/*
 * An icount figure counts the instructions qemu executes for the guest: it
 * is exact for one qemu version and emulated CPU model, and moves when either
 * changes (different code paths, different instruction counts).  A field
 * that one run does not record (runs older than the field) is not compared.
 */
int run_info_same_emulation(const struct run_info *a, const struct run_info *b, struct err *e)
{
	static const char *const key[] = { "vm_qemu_version", "vm_cpu_model" };
	static const char *const what[] = { "qemu", "CPU model" };
	const char *ca = kv_get(&a->meta, "vm_clock"), *cb = kv_get(&b->meta, "vm_clock");

	if (same_wrapped(a, b, e))
		return -1;
	if (!ca || !cb || strcmp(ca, "icount") || strcmp(cb, "icount"))
		return 0;
	for (int i = 0; i < 2; i++) {
		const char *va = kv_get(&a->meta, key[i]), *vb = kv_get(&b->meta, key[i]);

		if (va && vb && strcmp(va, vb))
			return err_set(e, "%s and %s: icount runs under a different %s (%s, %s) do not compare",
				       a->name, b->name, what[i], va, vb);
	}
	return 0;
}
