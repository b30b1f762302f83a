/* Change points of every series, and what to do about them (histchanges.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "histchanges.h"
#include "histgate.h"
#include "compare/units.h"
#include "render/json.h"
#include "stats/outliers.h"

static void describe(const struct hseries *s, struct hchange *c)
{
	double sign = !strcmp(s->metric->direction, "higher") ? 1 : -1;

	c->has_pct = c->t.before != 0;
	if (c->has_pct) {
		c->pct = sign * c->t.diff * 100 / fabs(c->t.before);
		c->ci_pct = c->t.ci_half * 100 / fabs(c->t.before);
	}
	c->regression = strcmp(s->metric->direction, "none") && sign * c->t.diff < 0;
}

static void *more(void *p, size_t n, size_t size)
{
	p = realloc(p, (n + 1) * size);
	if (!p)
		abort();
	return p;
}

/* The outliers of one series, each against the mean of the level it sits in. */
static void note_outliers(const struct hseries *s, const struct kept_runs *k, const size_t *cp,
			  size_t n_cp, const struct hist_data *d, double since, struct hist_changes *out)
{
	for (size_t i = 0, seg = 0; i < s->n; i++) {
		while (seg < n_cp && k->orig[cp[seg]] <= i)
			seg++;
		if (!k->outlier[i] || d->runs[s->run[i]].epoch <= since)
			continue;
		size_t a = seg ? cp[seg - 1] : 0, b = seg < n_cp ? cp[seg] : k->n;
		double sum = 0;

		for (size_t j = a; j < b; j++)
			sum += k->pt[j].mean;
		out->o = more(out->o, out->n_outliers, sizeof(*out->o));
		out->o[out->n_outliers++] = (struct houtlier){ s, i, sum / (double)(b - a),
			sum ? (s->pt[i].mean * (double)(b - a) / sum - 1) * 100 : 0 };
	}
}

void hist_detect(const struct hist_data *d, const struct ed_opts *o, double since,
		 struct hist_changes *out)
{
	size_t n = d->n_series + 1;

	*out = (struct hist_changes){ .n_per_series = calloc(n, sizeof(size_t)),
				      .cp_per_series = calloc(n, sizeof(size_t *)),
				      .outlier_per_series = calloc(n, sizeof(unsigned char *)),
				      .kept_per_series = calloc(n, sizeof(size_t)) };
	if (!out->n_per_series || !out->cp_per_series || !out->outlier_per_series || !out->kept_per_series)
		abort();
	for (size_t i = 0; i < d->n_series; i++) {
		const struct hseries *s = &d->series[i];
		size_t *cp = malloc((s->n + 1) * sizeof(*cp)), k;
		struct kept_runs kr;

		if (!cp)
			abort();
		/* a bad night set aside, the change points are those of the rest */
		kept_runs_make(s->pt, s->n, o->min_seg, o->keep_outliers, &kr);
		k = ed_change_points(kr.pt, kr.n, o, cp);
		note_outliers(s, &kr, cp, k, d, since, out);
		for (size_t j = 0; j < k; j++) {
			struct hchange *c;

			if (d->runs[s->run[kr.orig[cp[j]]]].epoch <= since)
				continue;
			out->c = more(out->c, out->n, sizeof(*out->c));
			c = &out->c[out->n++];
			*c = (struct hchange){ .s = s, .last = j + 1 == k, .before = kr.orig[cp[j] - 1],
					       .after = kr.orig[cp[j]] };
			seg_compare(kr.pt, j ? cp[j - 1] : 0, cp[j], j + 1 < k ? cp[j + 1] : kr.n, &c->t);
			describe(s, c);
		}
		for (size_t j = 0; j < k; j++)
			cp[j] = kr.orig[cp[j]];
		out->n_per_series[i] = k;
		out->cp_per_series[i] = cp;
		out->kept_per_series[i] = kr.n;
		out->outlier_per_series[i] = kr.outlier;
		kr.outlier = NULL;
		kept_runs_free(&kr);
	}
}

void hist_changes_free(const struct hist_data *d, struct hist_changes *c)
{
	for (size_t i = 0; i < d->n_series; i++) {
		free(c->cp_per_series[i]);
		free(c->outlier_per_series[i]);
	}
	free(c->cp_per_series);
	free(c->outlier_per_series);
	free(c->kept_per_series);
	free(c->n_per_series);
	free(c->c);
	free(c->o);
	*c = (struct hist_changes){ 0 };
}

/* The config to bisect with: the run's config for this bench, else the bench. */
static void bisect_config(const struct hrun *r, const char *bench, char *out, size_t size)
{
	char *list = strdup(r->configs), *tok, *save = NULL;
	size_t bl = strlen(bench);

	snprintf(out, size, "%s", bench);
	for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strncmp(tok, bench, bl) && (!tok[bl] || tok[bl] == '-')) {
			snprintf(out, size, "%s", tok);
			break;
		}
	free(list);
}

/* The "--set K=V " words of a run's command line: the series was measured
 * with them, so the bisection must be too. */
static void bisect_sets(const struct hrun *r, char *out, size_t size)
{
	char *words = strdup(r->command ? r->command : ""), *tok, *save = NULL;
	size_t o = 0;
	int next = 0;

	*out = '\0';
	if (!words)
		abort();
	for (tok = strtok_r(words, " ", &save); tok && o < size; tok = strtok_r(NULL, " ", &save)) {
		if (next)
			o += (size_t)snprintf(out + o, size - o, "--set %s ", tok);
		next = !strcmp(tok, "--set");
	}
	free(words);
}

char *hist_bisect_line(const struct hist_data *d, const struct hchange *c)
{
	const struct hrun *a = &d->runs[c->s->run[c->before]], *b = &d->runs[c->s->run[c->after]];
	char cfg[256], sets[1024], *line;

	if (!a->image || !b->image)
		return NULL;
	bisect_config(b, c->s->metric->bench, cfg, sizeof(cfg));
	bisect_sets(b, sets, sizeof(sets));
	if (asprintf(&line, "./bisect.sh %s%s %s %s", sets, cfg, a->image, b->image) < 0)
		abort();
	return line;
}

const char *hist_param_suffix(const struct hseries *s, char *buf, size_t size)
{
	if (!strcmp(s->param, "-"))
		return "";
	snprintf(buf, size, "-%s", s->param);
	return buf;
}

static void text_change(FILE *f, const struct hist_data *d, const struct hchange *c)
{
	const struct hseries *s = c->s;
	struct scale sc;
	char pbuf[256], *bisect = hist_bisect_line(d, c);
	const struct hrun *a = &d->runs[s->run[c->before]], *b = &d->runs[s->run[c->after]];

	unit_scale(s->metric->unit, fmax(fabs(c->t.before), fabs(c->t.after)), &sc);
	fprintf(f, "%s %s%s on %s: %s -> %s: %.4g -> %.4g %s", s->metric->bench, s->metric->name,
		hist_param_suffix(s, pbuf, sizeof(pbuf)), s->machine, a->name, b->name,
		c->t.before / sc.div, c->t.after / sc.div, sc.unit);
	if (c->has_pct)
		fprintf(f, ", %.2f%% ± %.2f%%", tidy2(c->pct), c->ci_pct);
	fprintf(f, " (p=%.3g, runs %zu+%zu)%s%s\n", c->t.p, c->t.t - c->t.a, c->t.b - c->t.t,
		!strcmp(s->metric->direction, "none") ? "" : c->regression ? ": regression" : ": improvement",
		c->last ? ", the newest level" : "");
	if (bisect)
		fprintf(f, "  bisect: %s\n", bisect);
	else if (strcmp(a->kernel, b->kernel))
		fprintf(f, "  kernels: %s -> %s\n", a->kernel, b->kernel);
	free(bisect);
}

static void json_change(FILE *f, const struct hist_data *d, const struct hchange *c, int first)
{
	const struct hseries *s = c->s;
	const struct hrun *a = &d->runs[s->run[c->before]], *b = &d->runs[s->run[c->after]];
	char *bisect = hist_bisect_line(d, c);

	fputs(first ? "\n{" : ",\n{", f);
	json_key(f, "bench", 1), json_str(f, s->metric->bench);
	json_key(f, "metric", 0), json_str(f, s->metric->name);
	json_key(f, "param", 0), json_str(f, s->param);
	json_key(f, "unit", 0), json_str(f, s->metric->unit);
	json_key(f, "direction", 0), json_str(f, s->metric->direction);
	json_key(f, "host", 0), json_str(f, s->machine);
	json_key(f, "config", 0), fprintf(f, "%lld", s->config);
	json_key(f, "last_before", 0), json_str(f, a->name);
	json_key(f, "first_after", 0), json_str(f, b->name);
	json_key(f, "last_before_start", 0), json_str(f, a->start);
	json_key(f, "first_after_start", 0), json_str(f, b->start);
	json_key(f, "runs_before", 0), fprintf(f, "%zu", c->t.t - c->t.a);
	json_key(f, "runs_after", 0), fprintf(f, "%zu", c->t.b - c->t.t);
	json_key(f, "before_mean", 0), json_num(f, 1, c->t.before);
	json_key(f, "after_mean", 0), json_num(f, 1, c->t.after);
	json_key(f, "pct", 0), json_num(f, c->has_pct, c->pct);
	json_key(f, "ci_pct", 0), json_num(f, c->has_pct, c->ci_pct);
	json_key(f, "p_value", 0), json_num(f, 1, c->t.p);
	json_key(f, "regression", 0), fputs(c->regression ? "true" : "false", f);
	json_key(f, "newest_level", 0), fputs(c->last ? "true" : "false", f);
	json_key(f, "kernel_before", 0), json_str(f, a->kernel);
	json_key(f, "kernel_after", 0), json_str(f, b->kernel);
	json_key(f, "bisect", 0);
	if (bisect)
		json_str(f, bisect);
	else
		fputs("null", f);
	fputc('}', f);
	free(bisect);
}

static void text_outlier(FILE *f, const struct hist_data *d, const struct houtlier *o)
{
	const struct hseries *s = o->s;
	struct scale sc;
	char pbuf[256];

	unit_scale(s->metric->unit, fmax(fabs(s->pt[o->run].mean), fabs(o->level)), &sc);
	fprintf(f, "%s %s%s on %s: %s set aside, an outlier: %.4g %s, %+.1f%% off its level (%.4g %s)\n",
		s->metric->bench, s->metric->name, hist_param_suffix(s, pbuf, sizeof(pbuf)), s->machine,
		d->runs[s->run[o->run]].name, s->pt[o->run].mean / sc.div, sc.unit, o->pct,
		o->level / sc.div, sc.unit);
}

static void json_outlier(FILE *f, const struct hist_data *d, const struct houtlier *o, int first)
{
	const struct hseries *s = o->s;
	const struct hrun *r = &d->runs[s->run[o->run]];

	fputs(first ? "\n{" : ",\n{", f);
	json_key(f, "bench", 1), json_str(f, s->metric->bench);
	json_key(f, "metric", 0), json_str(f, s->metric->name);
	json_key(f, "param", 0), json_str(f, s->param);
	json_key(f, "host", 0), json_str(f, s->machine);
	json_key(f, "run", 0), json_str(f, r->name);
	json_key(f, "run_start", 0), json_str(f, r->start);
	json_key(f, "mean", 0), json_num(f, 1, s->pt[o->run].mean);
	json_key(f, "level", 0), json_num(f, 1, o->level);
	json_key(f, "pct", 0), json_num(f, 1, o->pct);
	fputc('}', f);
}

int hist_render(FILE *f, const struct hist_data *d, const struct hist_changes *c,
		const struct hist_output *o)
{
	size_t failed = 0, inconclusive = 0;

	if (o->json) {
		fputs("{\"series\":", f);
		fprintf(f, "%zu,\"runs\":%zu,\"changes\":[", d->n_series, d->n_runs);
		for (size_t i = 0; i < c->n; i++)
			json_change(f, d, &c->c[i], i == 0);
		fputs("],\"outliers\":[", f);
		for (size_t i = 0; i < c->n_outliers; i++)
			json_outlier(f, d, &c->o[i], i == 0);
		fputs("]}\n", f);
	} else {
		for (size_t i = 0; i < c->n; i++)
			text_change(f, d, &c->c[i]);
		for (size_t i = 0; i < c->n_outliers; i++)
			text_outlier(f, d, &c->o[i]);
		fprintf(f, "history: %zu change point%s in %zu series over %zu runs", c->n,
			c->n == 1 ? "" : "s", d->n_series, d->n_runs);
		if (c->n_outliers)
			fprintf(f, "; %zu outlier%s set aside", c->n_outliers, c->n_outliers == 1 ? "" : "s");
		fputc('\n', f);
	}
	if (o->gated)
		hist_gate_lines(o->json ? stderr : f, d, c, o, &failed, &inconclusive);
	return failed ? 1 : inconclusive ? 3 : 0;
}
