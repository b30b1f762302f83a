/*
 * What was compared, on the HTML page: the runs' systems (meta), their
 * topology and each bench's resolved config, with every value that differs
 * from the baseline's highlighted: a "regression" that is really another THP
 * setting or kernel command line should be the first thing a reader sees.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "htmlpage.h"
#include "markup.h"
#include "base/xalloc.h"
#include "plot/plotfile.h"

/*
 * meta keys that describe one run rather than its system: they differ
 * between any two runs, so highlighting them would drown what matters.
 */
static const char *const run_keys[] = {
	"name", "pid", "status", "start_time", "end_time", "command", "memavailable", NULL
};

static int is_run_key(const char *k)
{
	for (const char *const *p = run_keys; *p; p++)
		if (!strcmp(*p, k))
			return 1;
	return 0;
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
		int differs = highlight && r > 0 && (!v != !base || (v && strcmp(v, base)));
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

/* Rows of the keys that are (run_facts) or are not run keys, in order of first appearance. */
static void kv_rows(FILE *f, const struct report *rep, const struct kvlist *const *lists,
		    int run_facts, int highlight)
{
	for (size_t l = 0; l < rep->n_runs; l++)
		for (size_t i = 0; i < lists[l]->n; i++) {
			const char *key = lists[l]->kv[i].key;

			if (is_run_key(key) == run_facts && first_seen(lists, l, i))
				kv_row(f, rep, lists, key, highlight);
		}
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

void html_systems(FILE *f, const struct report *rep)
{
	const struct kvlist **lists = xcalloc(rep->n_runs, sizeof(*lists));

	for (size_t r = 0; r < rep->n_runs; r++)
		lists[r] = &rep->runs[r].meta;
	fputs("<h2 id=\"system\">Systems</h2>\n<p class=\"sub\">Highlighted: differs from the baseline.</p>\n"
	      "<table class=\"system\">", f);
	html_runs_header(f, rep);
	kv_rows(f, rep, lists, 0, 1);
	fputs("</table>\n<h3>Runs</h3><table class=\"runs\">", f);
	html_runs_header(f, rep);
	kv_rows(f, rep, lists, 1, 0);
	fputs("</table>\n", f);
	topology(f, rep);
	free(lists);
}

void html_config(FILE *f, const struct report *rep, const struct bench_cmp *b)
{
	const struct kvlist **lists = xcalloc(rep->n_runs, sizeof(*lists));

	for (size_t r = 0; r < rep->n_runs; r++)
		lists[r] = &b->config[r];
	fputs("<table class=\"config\">", f);
	html_runs_header(f, rep);
	/* every key of BENCH/config is the bench's, none is a run fact */
	for (size_t l = 0; l < rep->n_runs; l++)
		for (size_t i = 0; i < lists[l]->n; i++)
			if (first_seen(lists, l, i))
				kv_row(f, rep, lists, lists[l]->kv[i].key, 1);
	fputs("</table>\n", f);
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
