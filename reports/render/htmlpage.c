/*
 * What was compared, on the HTML page: the runs' systems (meta), their
 * topology and each bench's resolved config.  Only what can change a figure
 * is shown open and highlighted where it differs from the baseline: a
 * "regression" that is really another THP setting or kernel command line
 * must stand out, not drown among pids, paths and start times, which
 * differ between any two runs and are folded away (<details>).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "htmlpage.h"
#include "markup.h"
#include "base/xalloc.h"
#include "plot/plotfile.h"
#include "rundir/configkeys.h"

/*
 * The meta keys that can change a figure: the kernel and its command line,
 * THP, the machine (its CPUs, memory, page size, what it runs on), qemu and
 * the clock.  differ.c's list (what makes runs unlike besides the kernel)
 * is a subset.
 */
static const char *const figure_keys[] = {
	"kernel_release", "kernel_version", "cmdline", "thp_enabled", "thp_defrag",
	"hostname", "slurm_node", "arch", "cpu_model", "cpus", "numa_nodes", "page_size",
	"memtotal", "swap_total", "virtualization", "vm", "vm_qemu_version", "vm_accel",
	"vm_cpu_model", "vm_cpus", "vm_memory", "clock", "vm_clock", NULL
};

/* MemTotal moves by a few KiB between kernels; that is not another machine. */
#define MEMTOTAL_SAME 0.01

static int is_figure_key(const char *k)
{
	for (const char *const *p = figure_keys; *p; p++)
		if (!strcmp(*p, k))
			return 1;
	return 0;
}

static int value_differs(const char *key, const char *base, const char *v)
{
	if (!v || !base)
		return !v != !base;
	if (!strcmp(key, "memtotal") && atof(base) > 0)
		return fabs(atof(v) - atof(base)) > MEMTOTAL_SAME * atof(base);
	return strcmp(v, base) != 0;
}

void html_runs_header(FILE *f, const struct report *rep)
{
	fputs("<tr><th></th>", f);
	for (size_t r = 0; r < rep->n_runs; r++) {
		fprintf(f, "<th><span class=\"swatch\" style=\"background:#%s\"></span>", run_color(r));
		markup_str(f, rep->runs[r].name);
		fprintf(f, "%s</th>", r ? "" : " (baseline)");
	}
	fputs("</tr>\n", f);
}

/* Byte counts (memtotal, swap_total) read better in GiB, the bytes beside. */
static void show_value(FILE *f, const char *key, const char *v)
{
	char *end;
	double bytes = strtod(v, &end);

	if ((!strncmp(key, "mem", 3) || !strncmp(key, "swap_", 5)) && *v && !*end &&
	    strspn(v, "0123456789") == strlen(v) && bytes >= 1048576) {
		fprintf(f, "%.1f GiB (", bytes / 1073741824.0);
		markup_str(f, v);
		fputc(')', f);
	} else {
		markup_str(f, v);
	}
}

/* Is key the first of its name among every list before (list, i)? */
static int first_seen(const struct kvlist *const *lists, size_t list, size_t i)
{
	const char *key = lists[list]->kv[i].key;

	for (size_t l = 0; l <= list; l++)
		for (size_t k = 0; k < (l == list ? i : lists[l]->n); k++)
			if (!strcmp(lists[l]->kv[k].key, key))
				return 0;
	return 1;
}

static void kv_row(FILE *f, const struct report *rep, const struct kvlist *const *lists,
		   const char *key, int highlight)
{
	const char *base = kv_get(lists[0], key);

	fputs("<tr><th>", f);
	markup_str(f, key);
	fputs("</th>", f);
	for (size_t r = 0; r < rep->n_runs; r++) {
		const char *v = kv_get(lists[r], key);
		int differs = highlight && r > 0 && value_differs(key, base, v);
		int is_long = v && strlen(v) > 60;
		static const char *const cls[2][2] = {
			{ "", " class=\"differs\"" }, { " class=\"long\"", " class=\"long differs\"" }
		};

		fprintf(f, "<td%s>", cls[is_long][differs]);
		if (v)
			show_value(f, key, v);
		else
			fputs("(none)", f);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/*
 * Rows of the keys for which decides(key) is `open` (those that can change
 * a figure, highlighted where they differ) or is not (the rest, plain), in
 * order of first appearance; returns how many.
 */
static size_t kv_rows(FILE *f, const struct report *rep, const struct kvlist *const *lists,
		      int (*decides)(const char *), int open)
{
	size_t n = 0;

	for (size_t l = 0; l < rep->n_runs; l++)
		for (size_t i = 0; i < lists[l]->n; i++) {
			const char *key = lists[l]->kv[i].key;

			if (!decides(key) == !open && first_seen(lists, l, i)) {
				if (f)
					kv_row(f, rep, lists, key, open);
				n++;
			}
		}
	return n;
}

/* The folded rest: "<details><summary>N more ... </summary><table>". */
static void folded(FILE *f, const struct report *rep, const struct kvlist *const *lists,
		   int (*decides)(const char *), const char *what, const char *cls)
{
	size_t n = kv_rows(NULL, rep, lists, decides, 0);

	if (!n)
		return;
	fprintf(f, "<details><summary>%zu more %s, none of which changes a figure</summary>"
		   "<table class=\"%s\">", n, what, cls);
	html_runs_header(f, rep);
	kv_rows(f, rep, lists, decides, 0);
	fputs("</table></details>\n", f);
}

static int measures(const char *key)
{
	return config_key_measures(key, strlen(key));
}

static void topology(FILE *f, const struct report *rep)
{
	char path[4096], buf[4096];

	for (size_t r = 0; r < rep->n_runs; r++) {
		FILE *t;
		size_t n;

		snprintf(path, sizeof(path), "%s/topology.txt", rep->runs[r].path);
		if (!(t = fopen(path, "r")))
			continue;
		fputs("<details><summary>Topology of ", f);
		markup_str(f, rep->runs[r].name);
		fputs("</summary><pre>", f);
		while ((n = fread(buf, 1, sizeof(buf) - 1, t)) > 0) {
			buf[n] = '\0';
			markup_str(f, buf);
		}
		fclose(t);
		fputs("</pre></details>\n", f);
	}
}

/*
 * The THP setting a run's benches ran with (config key THP or THP_DEFRAG),
 * the system's at the start (meta) where a config left it alone
 * ("default"): "never", or "never (timedmunlock), always (heaprelease)"
 * when its benches differ.  Caller frees.
 */
static char *thp_as_run(const struct report *rep, size_t r, const char *cfg_key, const char *meta_key)
{
	const char *sys = kv_get(&rep->runs[r].meta, meta_key);
	char buf[1024];
	size_t o = 0;
	int mixed = 0;
	const char *first = NULL;

	for (size_t i = 0; i < rep->n_benches; i++) {
		const char *v = kv_get(&rep->benches[i].config[r], cfg_key);

		if (!v || !strcmp(v, "default"))
			v = sys ? sys : "(none)";
		if (!first)
			first = v;
		mixed |= strcmp(first, v) != 0;
	}
	if (!first)
		return xstrdup(sys ? sys : "(none)");
	if (!mixed)
		return xstrdup(first);
	for (size_t i = 0; i < rep->n_benches && o < sizeof(buf); i++) {
		const char *v = kv_get(&rep->benches[i].config[r], cfg_key);

		if (!v || !strcmp(v, "default"))
			v = sys ? sys : "(none)";
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s (%s)", i ? ", " : "", v,
				      rep->benches[i].data.name);
	}
	return xstrdup(buf);
}

/*
 * Run r's meta as the Systems table shows it: thp_enabled and thp_defrag
 * are what its benches ran with; the system's at the start moves to
 * "thp_enabled at start" among the folded facts.  The strings are meta's,
 * but for the two made here (as[0], as[1]), which the caller frees.
 */
static void systems_meta(const struct report *rep, size_t r, struct kvlist *out, char *as[2])
{
	static const char *const keys[2][3] = {
		{ "THP", "thp_enabled", "thp_enabled at start" },
		{ "THP_DEFRAG", "thp_defrag", "thp_defrag at start" },
	};
	const struct kvlist *meta = &rep->runs[r].meta;

	out->kv = xcalloc(meta->n + 2, sizeof(*out->kv));
	out->n = 0;
	for (int k = 0; k < 2; k++)
		as[k] = kv_get(meta, keys[k][1]) ? thp_as_run(rep, r, keys[k][0], keys[k][1]) : NULL;
	for (size_t i = 0; i < meta->n; i++) {
		struct kv kv = meta->kv[i];

		for (int k = 0; k < 2; k++)
			if (as[k] && !strcmp(kv.key, keys[k][1])) {
				out->kv[out->n++] = (struct kv){ kv.key, as[k] };
				kv.key = (char *)keys[k][2];
			}
		out->kv[out->n++] = kv;
	}
}

void html_systems(FILE *f, const struct report *rep)
{
	const struct kvlist **lists = xcalloc(rep->n_runs, sizeof(*lists));
	struct kvlist *shown = xcalloc(rep->n_runs, sizeof(*shown));
	char **as = xcalloc(2 * rep->n_runs, sizeof(*as));

	for (size_t r = 0; r < rep->n_runs; r++) {
		systems_meta(rep, r, &shown[r], &as[2 * r]);
		lists[r] = &shown[r];
	}
	fputs("<h2 id=\"system\">Systems</h2>\n<p class=\"sub\">What can change a figure (kernel, command line, "
	      "THP as each run's benches ran with it, CPUs, memory, qemu, clock); highlighted: differs from the "
	      "baseline.</p>\n<table class=\"system\">", f);
	html_runs_header(f, rep);
	kv_rows(f, rep, lists, is_figure_key, 1);
	fputs("</table>\n", f);
	folded(f, rep, lists, is_figure_key, "facts of the runs (times, pids, paths, load, versions)", "runs");
	topology(f, rep);
	for (size_t r = 0; r < rep->n_runs; r++)
		free(shown[r].kv);
	for (size_t i = 0; i < 2 * rep->n_runs; i++)
		free(as[i]);
	free(as);
	free(shown);
	free(lists);
}

void html_config(FILE *f, const struct report *rep, const struct bench_cmp *b)
{
	const struct kvlist **lists = xcalloc(rep->n_runs, sizeof(*lists));

	for (size_t r = 0; r < rep->n_runs; r++)
		lists[r] = &b->config[r];
	fputs("<table class=\"config\">", f);
	html_runs_header(f, rep);
	/* the keys that decide what was measured (configkeys.h), as compare.sh's
	 * "not the same in every run" reads them */
	kv_rows(f, rep, lists, measures, 1);
	fputs("</table>\n", f);
	folded(f, rep, lists, measures, "lines of how the run went (iterations, command, time)", "config-run");
	free(lists);
}

char *html_asset(const char *name, struct err *e)
{
	const char *root = getenv("MMDELTA_ROOT");
	char path[4200], *text;
	FILE *f;
	long size;

	if (!root || !*root) {
		err_set(e, "MMDELTA_ROOT is not set: the page's %s is read from MMDELTA_ROOT/reports/render "
			   "(compare.sh sets it)", name);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/reports/render/%s", root, name);
	if (!(f = fopen(path, "r")) || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		err_set(e, "%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	text = xcalloc((size_t)size + 1, 1);
	if (fread(text, 1, (size_t)size, f) != (size_t)size) {
		err_set(e, "%s: short read", path);
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}
