/*
 * Reading one run directory for the history: meta, and per bench its
 * metrics, samples and resolved config, through the same readers compare.sh
 * uses (runinfo.c, metricsfile.c, samplesfile.c).  Everything is read and
 * checked before the database is touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histrun.h"
#include "base/xalloc.h"
#include "rundir/configkeys.h"
#include "rundir/metricsfile.h"
#include "rundir/runinfo.h"
#include "rundir/samplesfile.h"
#include "rundir/tsv.h"

/* The lines of a small text file, newlines removed. */
static int read_lines(const char *path, char ***lines, size_t *n, struct err *e)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;

	*lines = NULL;
	*n = 0;
	if (!f)
		return err_set(e, "%s: cannot read", path);
	while ((len = getline(&buf, &cap, f)) >= 0) {
		if (len > 0 && buf[len - 1] == '\n')
			buf[len - 1] = '\0';
		*lines = xreallocarray(*lines, *n + 1, sizeof(**lines));
		(*lines)[(*n)++] = xstrdup(buf);
	}
	free(buf);
	fclose(f);
	return 0;
}

static void free_lines(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

/* "key: value" lines; anything else in meta is not ours to judge. */
static int read_meta(struct hist_run *r, struct err *e)
{
	char path[4096], **lines;
	size_t n;

	snprintf(path, sizeof(path), "%s/meta", r->dir);
	if (read_lines(path, &lines, &n, e))
		return -1;
	r->keys = calloc(n + 1, sizeof(char *));
	r->values = calloc(n + 1, sizeof(char *));
	if (!r->keys || !r->values)
		abort();
	for (size_t i = 0; i < n; i++) {
		char *sep = strstr(lines[i], ": ");

		if (!sep || sep == lines[i] || hist_meta(r, lines[i]))
			continue;
		*sep = '\0';
		r->keys[r->n_meta] = xstrdup(lines[i]);
		r->values[r->n_meta++] = xstrdup(sep + 2);
	}
	free_lines(lines, n);
	return 0;
}

const char *hist_meta(const struct hist_run *r, const char *key)
{
	for (size_t i = 0; i < r->n_meta; i++)
		if (!strcmp(r->keys[i], key))
			return r->values[i];
	return NULL;
}

const char *hist_clock(const struct hist_run *r)
{
	const char *c = hist_meta(r, "clock"), *vm = hist_meta(r, "vm_clock");

	if (c)
		return strncmp(c, "icount", 6) ? "realtime" : "icount";
	return vm && !strncmp(vm, "icount", 6) ? "icount" : "realtime";
}

const char *hist_direction(const struct metric_def *m)
{
	return better_name(m->better);
}

const char *hist_host(const struct hist_run *r)
{
	const char *h = hist_meta(r, "vm_host");

	if (!h || !*h)
		h = hist_meta(r, "hostname");
	return h && *h ? h : "unknown";
}

/*
 * The config that decides what a swept value measures: BENCH/config's keys
 * without those that only decide how long to measure, the swept key set to
 * this value, and this value's resolved bench command (sizes in bytes, as
 * capped to the machine).
 */
char *hist_config_for(char *const *lines, size_t n, const char *param)
{
	char key[256] = "", *out = xstrdup(""), want[512];
	size_t len = 0;

	for (size_t i = 0; i < n; i++)	/* "command SIZE=1G: ..." names the swept key */
		if (sscanf(lines[i], "command %255[A-Z0-9_]=", key) == 1)
			break;
	snprintf(want, sizeof(want), *key ? "command %s=%s: " : "command: ", key, param);
	for (size_t i = 0; i < n; i++) {
		const char *l = lines[i], *eq = strchr(l, '=');
		char buf[4096];
		/* Command lines, and the keys that decide what is measured
		 * (configkeys.h): not how long, nor how the run went. */
		int skip = strncmp(l, "command", 7) && !(eq && config_key_measures(l, (size_t)(eq - l)));

		if (!strncmp(l, "command", 7) && !skip) {
			skip = strncmp(l, want, strlen(want)) != 0;
			snprintf(buf, sizeof(buf), "command: %s", skip ? "" : l + strlen(want));
			l = buf;
		} else if (*key && eq && (size_t)(eq - l) == strlen(key) && !strncmp(l, key, eq - l)) {
			snprintf(buf, sizeof(buf), "%s=%s", key, param);
			l = buf;
		}
		if (skip)
			continue;
		out = xreallocarray(out, len + strlen(l) + 2, 1);
		len += (size_t)sprintf(out + len, "%s\n", l);
	}
	return out;
}

/*
 * The iteration of every value: samples_read (which has checked the file)
 * keeps values only, and a monitor's counter that did not move in an
 * iteration has no row there, so a value's place is not its iteration.
 */
static int read_iterations(struct hist_bench *hb, const char *path, struct err *e)
{
	struct bench_data *b = &hb->data;
	size_t cells = b->n_params * b->n_metrics, *count = calloc(cells + 1, sizeof(size_t));
	struct tsv t;
	int got;

	hb->iters = calloc(cells + 1, sizeof(long *));
	if (!hb->iters || !count)
		abort();
	for (size_t c = 0; c < cells; c++)
		if (!(hb->iters[c] = calloc(b->cells[c].n + 1, sizeof(long))))
			abort();
	if (tsv_open(&t, path, e)) {
		free(count);
		return -1;
	}
	while ((got = tsv_next(&t, e)) == 1) {
		int m = t.line > 1 ? bench_metric_index(b, t.field[0]) : -1;
		size_t c;

		if (m < 0)
			continue;
		c = bench_param(b, t.field[1]) * b->n_metrics + (size_t)m;
		hb->iters[c][count[c]++] = strtol(t.field[2], NULL, 10);
	}
	tsv_close(&t);
	free(count);
	return got;
}

static int read_bench(struct hist_run *r, struct hist_bench *hb, const char *name,
		      struct err *e)
{
	char path[4096], **lines;
	size_t n;
	struct bench_data *b = &hb->data;

	hb->name = xstrdup(name);
	bench_data_init(b, name, 1);
	snprintf(path, sizeof(path), "%s/%s/metrics.tsv", r->dir, name);
	if (metrics_read(path, &b->metrics, &b->n_metrics, e))
		return -1;
	snprintf(path, sizeof(path), "%s/%s/samples.tsv", r->dir, name);
	if (samples_read(b, 0, path, b->metrics, b->n_metrics, e) || read_iterations(hb, path, e))
		return -1;
	snprintf(path, sizeof(path), "%s/%s/config", r->dir, name);
	if (read_lines(path, &lines, &n, e))
		return -1;
	hb->configs = calloc(b->n_params + 1, sizeof(char *));
	if (!hb->configs)
		abort();
	for (size_t p = 0; p < b->n_params; p++)
		hb->configs[p] = hist_config_for(lines, n, b->params[p]);
	free_lines(lines, n);
	return 0;
}

/* FNV-1a: a fingerprint to tell a changed copy of a run, not a security hash. */
static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 1099511628211ULL;
	return h;
}

static unsigned long long fnv_str(unsigned long long h, const char *s)
{
	return fnv(h, s, strlen(s) + 1);
}

static void digest(struct hist_run *r)
{
	unsigned long long h = 14695981039346656037ULL;

	for (size_t i = 0; i < r->n_meta; i++)
		h = fnv_str(fnv_str(h, r->keys[i]), r->values[i]);
	for (size_t i = 0; i < r->n_benches; i++) {
		const struct bench_data *b = &r->benches[i].data;

		h = fnv_str(h, b->name);
		for (size_t m = 0; m < b->n_metrics; m++)
			h = fnv_str(fnv_str(fnv_str(fnv_str(h, b->metrics[m].name), b->metrics[m].label),
					    b->metrics[m].unit), hist_direction(&b->metrics[m]));
		for (size_t p = 0; p < b->n_params; p++) {
			h = fnv_str(fnv_str(h, b->params[p]), r->benches[i].configs[p]);
			for (size_t m = 0; m < b->n_metrics; m++) {
				const struct series *s = bench_cell(b, p, 0, m);

				h = fnv(fnv(h, &s->n, sizeof(s->n)), s->v, s->n * sizeof(double));
				h = fnv(h, r->benches[i].iters[p * b->n_metrics + m], s->n * sizeof(long));
			}
		}
	}
	snprintf(r->digest, sizeof(r->digest), "%016llx", h);
}

static int read_all(struct hist_run *r, const struct run_info *ri, struct err *e)
{
	if (ri->partial)
		return err_set(e, "%s: partial run (status: %s); only complete runs are recorded",
			       r->dir, ri->status);
	if (read_meta(r, e))
		return -1;
	if (!hist_meta(r, "start_time"))
		return err_set(e, "%s/meta: no start_time line", r->dir);
	if (!ri->n_benches)
		return err_set(e, "%s: no bench results in this run", r->dir);
	r->benches = calloc(ri->n_benches, sizeof(*r->benches));
	if (!r->benches)
		abort();
	for (size_t i = 0; i < ri->n_benches; i++) {
		r->n_benches++;
		if (read_bench(r, &r->benches[i], ri->benches[i], e))
			return -1;
	}
	digest(r);
	return 0;
}

int hist_run_read(struct hist_run *r, const char *dir, struct err *e)
{
	struct run_info ri;
	int ret;

	*r = (struct hist_run){ .dir = xstrdup(dir) };
	ret = run_info_load(&ri, dir, e);
	if (!ret)
		ret = read_all(r, &ri, e);
	run_info_free(&ri);
	return ret;
}

void hist_run_free(struct hist_run *r)
{
	for (size_t i = 0; i < r->n_benches; i++) {
		struct hist_bench *hb = &r->benches[i];

		for (size_t p = 0; hb->configs && p < hb->data.n_params; p++)
			free(hb->configs[p]);
		free(hb->configs);
		for (size_t c = 0; hb->iters && c < hb->data.n_params * hb->data.n_metrics; c++)
			free(hb->iters[c]);
		free(hb->iters);
		free(hb->name);
		bench_data_free(&hb->data);
	}
	free(r->benches);
	for (size_t i = 0; i < r->n_meta; i++) {
		free(r->keys[i]);
		free(r->values[i]);
	}
	free(r->keys);
	free(r->values);
	free(r->dir);
	*r = (struct hist_run){ 0 };
}
