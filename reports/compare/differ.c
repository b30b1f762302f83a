/* Differences between the runs' systems and configs (see differ.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "differ.h"
#include "report.h"
#include "base/xalloc.h"
#include "rundir/configkeys.h"

/*
 * The meta keys that make two runs unlike besides the kernel under test:
 * the command line, THP, and the machine.  Kernel release and suite version
 * differ by design; memtotal moves by a few KiB between kernels.
 */
static const char *const system_keys[] = {
	"cmdline", "thp_enabled", "thp_defrag", "hostname", "slurm_node", "arch",
	"cpu_model", "cpus", "numa_nodes", "page_size", NULL
};

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The same words in the same order: spacing alone changes no command line. */
static int same_words(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	for (;;) {
		size_t n, m;

		a += strspn(a, " \t");
		b += strspn(b, " \t");
		n = strcspn(a, " \t");
		m = strcspn(b, " \t");
		if (n != m || strncmp(a, b, n))
			return 0;
		if (!n)
			return 1;
		a += n;
		b += n;
	}
}

/* Two runs' values of key are alike: for the command line, word for word. */
static int alike(const char *bench, const char *key, const char *a, const char *b)
{
	return !bench && !strcmp(key, "cmdline") ? same_words(a, b) : same(a, b);
}

static int has_key(const struct difference_list *l, const char *bench, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (same(l->d[i].bench, bench) && !strcmp(l->d[i].key, key))
			return 1;
	return 0;
}

/* values[r] is each run's value of key; kept when some run's differs. */
static void consider(struct report *rep, const char *bench, const char *key,
		     const struct kvlist *const *lists)
{
	struct difference_list *l = &rep->differences;
	char **values = xcalloc(rep->n_runs, sizeof(*values));
	int differs = 0;

	for (size_t r = 0; r < rep->n_runs; r++) {
		const char *v = kv_get(lists[r], key);

		values[r] = v ? xstrdup(v) : NULL;
		differs |= !alike(bench, key, values[r], values[0]);
	}
	if (!differs || has_key(l, bench, key)) {
		for (size_t r = 0; r < rep->n_runs; r++)
			free(values[r]);
		free(values);
		return;
	}
	l->d = xreallocarray(l->d, l->n + 1, sizeof(*l->d));
	l->d[l->n++] = (struct difference){ bench ? xstrdup(bench) : NULL, xstrdup(key), values };
}

/* A resolved key that decides what is measured (configkeys.h). */
static int is_config_key(const char *key)
{
	return config_key_measures(key, strlen(key));
}

/* The clock each run was measured with (runinfo.h), as a system key. */
static void consider_clock(struct report *rep, const struct kvlist **lists)
{
	struct kv *kv = xcalloc(rep->n_runs, sizeof(*kv));
	struct kvlist *one = xcalloc(rep->n_runs, sizeof(*one));

	for (size_t r = 0; r < rep->n_runs; r++) {
		kv[r] = (struct kv){ "clock", (char *)rep->runs[r].clock };
		one[r] = (struct kvlist){ &kv[r], 1 };
		lists[r] = &one[r];
	}
	consider(rep, NULL, "clock", lists);
	free(one);
	free(kv);
}

void differences_find(struct report *rep)
{
	const struct kvlist **lists = xcalloc(rep->n_runs, sizeof(*lists));

	consider_clock(rep, lists);
	for (size_t r = 0; r < rep->n_runs; r++)
		lists[r] = &rep->runs[r].meta;
	for (const char *const *k = system_keys; *k; k++)
		consider(rep, NULL, *k, lists);
	for (size_t i = 0; i < rep->n_benches; i++) {
		const struct bench_cmp *b = &rep->benches[i];

		for (size_t r = 0; r < rep->n_runs; r++)
			lists[r] = &b->config[r];
		for (size_t r = 0; r < rep->n_runs; r++)
			for (size_t k = 0; k < b->config[r].n; k++)
				if (is_config_key(b->config[r].kv[k].key))
					consider(rep, b->data.name, b->config[r].kv[k].key, lists);
	}
	free(lists);
}

void differences_free(struct difference_list *l, size_t n_runs)
{
	for (size_t i = 0; i < l->n; i++) {
		for (size_t r = 0; r < n_runs; r++)
			free(l->d[i].values[r]);
		free(l->d[i].values);
		free(l->d[i].bench);
		free(l->d[i].key);
	}
	free(l->d);
	*l = (struct difference_list){ 0 };
}

/* Is word w (length n) one of the blank-separated words of s? */
static int has_word(const char *s, const char *w, size_t n)
{
	for (const char *p = s; *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (strcspn(p, " ") == n && !strncmp(p, w, n))
			return 1;
	return 0;
}

/* Append "adds a, b" to buf: verb and the words of `from` that `in` lacks. */
static void word_changes(const char *verb, const char *from, const char *in,
			 char *buf, size_t len)
{
	size_t o = strlen(buf);
	int first = 1;

	for (const char *p = from + strspn(from, " "); *p && o < len; p += strspn(p, " ")) {
		size_t n = strcspn(p, " ");

		if (!has_word(in, p, n)) {
			o += (size_t)snprintf(buf + o, len - o, "%s%s %.*s",
					      first ? (o ? "; " : "") : ",", first ? verb : "", (int)n, p);
			first = 0;
		}
		p += n;
	}
}

/* A command line is long: say which words differ, not the whole line. */
static void cmdline_change(const char *base, const char *v, char *buf, size_t len)
{
	if (!base || !v) {
		snprintf(buf, len, "%s", v ? "added" : "missing");
		return;
	}
	*buf = '\0';
	word_changes("adds", v, base, buf, len);
	word_changes("drops", base, v, buf, len);
	/* Order matters to the kernel: of two values of a parameter, the last wins. */
	if (!*buf)
		snprintf(buf, len, "has the same words in another order or repeated");
}

static int is_cmdline(const struct difference *d)
{
	return !d->bench && !strcmp(d->key, "cmdline");
}

/* "256M in base; 512M in big, other": distinct values in run order. */
static void value_groups(const struct report *rep, const struct difference *d,
			 char *buf, size_t len)
{
	size_t o = 0;

	for (size_t r = 0; r < rep->n_runs && o < len; r++) {
		int first = 1;

		for (size_t k = 0; k < r && first; k++)
			first = !same(d->values[k], d->values[r]);
		if (!first)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s in", o ? "; " : "",
				      d->values[r] ? d->values[r] : "(none)");
		for (size_t k = r; k < rep->n_runs && o < len; k++)
			if (same(d->values[k], d->values[r]))
				o += (size_t)snprintf(buf + o, len - o, "%s %s", k == r ? "" : ",",
						      rep->runs[k].name);
	}
}

/* "big adds mitigations=off; drops quiet": each run against the baseline. */
static void cmdline_groups(const struct report *rep, const struct difference *d,
			   char *buf, size_t len)
{
	char change[512];
	size_t o = 0;

	for (size_t r = 1; r < rep->n_runs && o < len; r++) {
		if (same_words(d->values[r], d->values[0]))
			continue;
		cmdline_change(d->values[0], d->values[r], change, sizeof(change));
		o += (size_t)snprintf(buf + o, len - o, "%s%s %s", o ? "; " : "",
				      rep->runs[r].name, change);
	}
}

void difference_line(const struct report *rep, const struct difference *d,
		     char *buf, size_t len)
{
	int o = snprintf(buf, len, "%s%s%s: ", d->bench ? d->bench : "", d->bench ? " " : "", d->key);

	if (o < 0 || (size_t)o >= len)
		return;
	if (is_cmdline(d))
		cmdline_groups(rep, d, buf + o, len - o);
	else
		value_groups(rep, d, buf + o, len - o);
}

void difference_note(const struct report *rep, size_t bench, size_t run,
		     char *buf, size_t len)
{
	const char *name = rep->benches[bench].data.name;
	char change[512];
	size_t o = 0;

	*buf = '\0';
	for (size_t i = 0; i < rep->differences.n && o < len; i++) {
		const struct difference *d = &rep->differences.d[i];
		const char *v = d->values[run], *base = d->values[0];

		if ((d->bench && strcmp(d->bench, name)) || alike(d->bench, d->key, v, base))
			continue;
		if (is_cmdline(d)) {
			cmdline_change(base, v, change, sizeof(change));
			o += (size_t)snprintf(buf + o, len - o, "%scmdline (%s)", o ? ", " : "", change);
		} else {
			o += (size_t)snprintf(buf + o, len - o, "%s%s %s (baseline %s)", o ? ", " : "",
					      d->key, v ? v : "(none)", base ? base : "(none)");
		}
	}
}

void differences_print(FILE *f, const struct report *rep, const char *prefix)
{
	char line[2048];

	for (size_t i = 0; i < rep->differences.n; i++) {
		difference_line(rep, &rep->differences.d[i], line, sizeof(line));
		fprintf(f, "%s%s\n", prefix, line);
	}
}

static const char *machine(const struct run_info *ri)
{
	const char *m = kv_get(&ri->meta, "slurm_node");

	if (!m || !*m)
		m = kv_get(&ri->meta, "hostname");
	return m && *m ? m : "unknown";
}

int machines_note(const struct report *rep, char *buf, size_t len)
{
	int several = 0;
	size_t o;

	for (size_t r = 0; r < rep->n_runs; r++) {
		const char *vm = kv_get(&rep->runs[r].meta, "vm");

		if (vm && *vm)
			return 0;
		several |= strcmp(machine(&rep->runs[r]), machine(&rep->runs[0])) != 0;
	}
	if (!several)
		return 0;
	o = (size_t)snprintf(buf, len, "native runs of different machines (");
	for (size_t r = 0; r < rep->n_runs && o < len; r++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s: %s", r ? ", " : "", rep->runs[r].name,
				      machine(&rep->runs[r]));
	if (o < len)
		snprintf(buf + o, len - o, "): the differences include the machines', not only the kernels'");
	return 1;
}
