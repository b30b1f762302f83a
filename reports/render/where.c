/*
 * One row per function: base and new per iteration (and per page or
 * operation), the change and its share of the whole change.  The text
 * block pastes into a changelog beside the tables above it.
 */
#include <math.h>
#include <string.h>

#include "render/json.h"
#include "render/markup.h"
#include "render/where.h"
#include "profile/where.h"

static const char skid_note[] =
	"samples are cpu-clock with interrupt-enable skid (no hardware counters): a timer sample is "
	"taken when interrupts come back on, so a function that re-enables them (_raw_spin_unlock_irq) "
	"gets the samples of the code before it";

static const char *run_name(const struct report *rep, size_t r) { return rep->runs[r].name; }

/* The block's first line. */
static void title_line(const struct report *rep, const struct where_block *w, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s: where %s, %s -> %s", rep->benches[w->bench].data.name,
			 w->kind == PROFILE_INSNS ? "the instructions changed" : "the samples moved", run_name(rep, 0),
			 run_name(rep, w->run));

	if (n < 0 || (size_t)n >= len)
		return;
	if (w->kind == PROFILE_INSNS)
		snprintf(buf + n, len - (size_t)n, " (insns: per iteration, exact; %zu and %zu iterations)", w->n_base,
			 w->n_new);
	else
		snprintf(buf + n, len - (size_t)n,
			 " (profile: self share of %s samples per iteration, Welch at %.0f%%; %zu and %zu iterations)",
			 w->event, report_confidence(rep), w->n_base, w->n_new);
}

static void title(FILE *f, const struct report *rep, const struct where_block *w, const char *pre, const char *post)
{
	char line[1024];

	title_line(rep, w, line, sizeof(line));
	fprintf(f, "%s%s%s\n", pre, line, post);
}

/* A column as wide as the run's name, and at least w. */
static int col(const struct report *rep, size_t r, int w)
{
	int n = (int)strlen(run_name(rep, r));

	return n > w ? n : w;
}

static double per(double v, double units) { return units > 0 ? v / units : NAN; }

static void text_insns_row(FILE *f, const struct report *rep, const struct where_block *w, const struct where_row *r,
			   int nw)
{
	fprintf(f, "%-*s %*.0f %*.0f", nw, r->name, col(rep, 0, 12), r->base, col(rep, w->run, 12), r->new);
	if (w->per)
		fprintf(f, " %9.2f %9.2f", per(r->base, w->base_units), per(r->new, w->new_units));
	fprintf(f, " %+12.0f", r->change);
	if (isfinite(r->share))
		fprintf(f, " %8.1f%%\n", 100 * r->share);
	else
		fprintf(f, " %9s\n", "-");
}

static int name_width(const struct where_block *w)
{
	int nw = 8;

	for (size_t i = 0; i < w->n; i++)
		if ((int)strlen(w->rows[i].name) > nw)
			nw = (int)strlen(w->rows[i].name);
	return nw;
}

static void text_insns(FILE *f, const struct report *rep, const struct where_block *w)
{
	int nw = name_width(w);
	char pb[64], pn[64];

	snprintf(pb, sizeof(pb), "/%s", w->per ? w->per : "");
	snprintf(pn, sizeof(pn), "/%s", w->per ? w->per : "");
	fprintf(f, "%-*s %*s %*s", nw, "function", col(rep, 0, 12), run_name(rep, 0), col(rep, w->run, 12),
		run_name(rep, w->run));
	if (w->per)
		fprintf(f, " %9s %9s", pb, pn);
	fprintf(f, " %12s %9s\n", "change", "of change");
	for (size_t i = 0; i < w->n; i++)
		text_insns_row(f, rep, w, &w->rows[i], nw);
	text_insns_row(f, rep, w, &w->total, nw);
	if (w->per)
		fprintf(f, "(per %s: %.0f and %.0f %ss an iteration)\n", w->per, w->base_units, w->new_units, w->per);
}

static void text_samples(FILE *f, const struct report *rep, const struct where_block *w)
{
	int nw = name_width(w);

	if (w->skid)
		fprintf(f, "Note: %s.\n", skid_note);
	if (!w->n) {
		fprintf(f, "No function's share changed significantly (%zu tested).\n", w->n_tested);
		return;
	}
	fprintf(f, "%-*s %*s %*s %9s %9s %10s\n", nw, "function", col(rep, 0, 9), run_name(rep, 0),
		col(rep, w->run, 9), run_name(rep, w->run), "change", "±", "p");
	for (size_t i = 0; i < w->n; i++) {
		const struct where_row *r = &w->rows[i];

		fprintf(f, "%-*s %*.2f%% %*.2f%% %+8.2f%% %8.2f%% %10.2g\n", nw, r->name, col(rep, 0, 9) - 1, r->base,
			col(rep, w->run, 9) - 1, r->new, r->change, r->test.ci_half, r->test.p);
	}
	fprintf(f, "%zu of %zu functions changed significantly", w->n_significant, w->n_tested);
	if (w->n < w->n_significant)
		fprintf(f, "; the %zu that changed most are shown", w->n);
	fputs(".\n", f);
}

void where_text(FILE *f, const struct report *rep, size_t b)
{
	if (!rep->where)
		return;
	for (size_t i = 0; i < rep->where->n; i++) {
		const struct where_block *w = &rep->where->blocks[i];

		if (w->bench != b)
			continue;
		fputc('\n', f);
		if (w->none) {
			fprintf(f, "%s: %s -> %s: %s.\n", rep->benches[b].data.name, run_name(rep, 0),
				run_name(rep, w->run), w->none);
			continue;
		}
		title(f, rep, w, "", "");
		if (w->kind == PROFILE_INSNS)
			text_insns(f, rep, w);
		else
			text_samples(f, rep, w);
	}
}

static void md_row(FILE *f, const struct where_block *w, const struct where_row *r)
{
	if (w->kind == PROFILE_SAMPLES) {
		fprintf(f, "| `%s` | %.2f%% | %.2f%% | %+.2f%% | ±%.2f%% | %.2g |\n", r->name, r->base, r->new, r->change,
			r->test.ci_half, r->test.p);
		return;
	}
	fprintf(f, "| `%s` | %.0f | %.0f |", r->name, r->base, r->new);
	if (w->per)
		fprintf(f, " %.2f | %.2f |", per(r->base, w->base_units), per(r->new, w->new_units));
	fprintf(f, " %+.0f |", r->change);
	if (isfinite(r->share))
		fprintf(f, " %.1f%% |\n", 100 * r->share);
	else
		fputs(" - |\n", f);
}

static void md_header(FILE *f, const struct report *rep, const struct where_block *w)
{
	if (w->kind == PROFILE_SAMPLES) {
		fprintf(f, "| function | %s | %s | change | ± (CI) | p |\n|---|---:|---:|---:|---:|---:|\n",
			run_name(rep, 0), run_name(rep, w->run));
		return;
	}
	fprintf(f, "| function | %s | %s |", run_name(rep, 0), run_name(rep, w->run));
	if (w->per)
		fprintf(f, " /%s | /%s |", w->per, w->per);
	fprintf(f, " change | of change |\n|---|---:|---:|%s---:|---:|\n", w->per ? "---:|---:|" : "");
}

void where_markdown(FILE *f, const struct report *rep, size_t b)
{
	if (!rep->where)
		return;
	for (size_t i = 0; i < rep->where->n; i++) {
		const struct where_block *w = &rep->where->blocks[i];

		if (w->bench != b)
			continue;
		if (w->none) {
			fprintf(f, "\n%s: %s -> %s: %s.\n", rep->benches[b].data.name, run_name(rep, 0),
				run_name(rep, w->run), w->none);
			continue;
		}
		fputc('\n', f);
		title(f, rep, w, "**", "**");
		if (w->skid)
			fprintf(f, "\n> %s.\n", skid_note);
		fputc('\n', f);
		md_header(f, rep, w);
		for (size_t k = 0; k < w->n; k++)
			md_row(f, w, &w->rows[k]);
		if (w->kind == PROFILE_INSNS)
			md_row(f, w, &w->total);
		else
			fprintf(f, "\n%zu of %zu functions changed significantly.\n", w->n_significant, w->n_tested);
		fputc('\n', f);
	}
}

static void html_row(FILE *f, const struct where_block *w, const struct where_row *r)
{
	fputs("<tr><td><code>", f);
	markup_str(f, r->name);
	if (w->kind == PROFILE_SAMPLES) {
		fprintf(f, "</code></td><td>%.2f%%</td><td>%.2f%%</td><td>%+.2f%%</td><td>±%.2f%%</td></tr>\n", r->base,
			r->new, r->change, r->test.ci_half);
		return;
	}
	fprintf(f, "</code></td><td>%.0f</td><td>%.0f</td>", r->base, r->new);
	if (w->per)
		fprintf(f, "<td>%.2f</td><td>%.2f</td>", per(r->base, w->base_units), per(r->new, w->new_units));
	fprintf(f, "<td>%+.0f</td><td>%s%.1f%%</td></tr>\n", r->change, isfinite(r->share) ? "" : "-",
		isfinite(r->share) ? 100 * r->share : 0);
}

void where_html(FILE *f, const struct report *rep, size_t b, const char *plots)
{
	char line[1024];

	if (!rep->where)
		return;
	for (size_t i = 0; i < rep->where->n; i++) {
		const struct where_block *w = &rep->where->blocks[i];

		if (w->bench != b)
			continue;
		fputs("<section class=\"where\"><h3>", f);
		markup_str(f, rep->benches[b].data.name);
		fputs(": where</h3>\n<p>", f);
		if (w->none) {
			markup_str(f, w->none);
			fputs(".</p></section>\n", f);
			continue;
		}
		title_line(rep, w, line, sizeof(line));
		markup_str(f, line);
		fputs("</p>\n", f);
		if (w->skid)
			fprintf(f, "<p class=\"note\">%s.</p>\n", skid_note);
		if (plots && w->n) {
			fprintf(f, "<img src=\"plots/where-%s-%zu.svg\" alt=\"", rep->benches[b].data.name, w->run);
			markup_str(f, "the change of the top functions");
			fputs("\">\n", f);
		}
		fputs("<table><tr><th>function</th><th>", f);
		markup_str(f, run_name(rep, 0));
		fputs("</th><th>", f);
		markup_str(f, run_name(rep, w->run));
		fputs("</th>", f);
		if (w->kind == PROFILE_INSNS && w->per)
			fprintf(f, "<th>/%s</th><th>/%s</th>", w->per, w->per);
		fputs(w->kind == PROFILE_INSNS ? "<th>change</th><th>of change</th></tr>\n" : "<th>change</th><th>±</th></tr>\n", f);
		for (size_t k = 0; k < w->n; k++)
			html_row(f, w, &w->rows[k]);
		if (w->kind == PROFILE_INSNS)
			html_row(f, w, &w->total);
		fputs("</table></section>\n", f);
	}
}

static void json_row(FILE *f, const struct where_block *w, const struct where_row *r, int first)
{
	if (!first)
		fputc(',', f);
	fputc('{', f);
	json_key(f, "function", 1);
	json_str(f, r->name);
	json_key(f, "base", 0);
	json_num(f, 1, r->base);
	json_key(f, "new", 0);
	json_num(f, 1, r->new);
	json_key(f, "change", 0);
	json_num(f, 1, r->change);
	if (w->kind == PROFILE_INSNS) {
		json_key(f, "share", 0);
		json_num(f, isfinite(r->share), r->share);
		json_key(f, "base_per_unit", 0);
		json_num(f, w->per != NULL, per(r->base, w->base_units));
		json_key(f, "new_per_unit", 0);
		json_num(f, w->per != NULL, per(r->new, w->new_units));
	} else {
		json_key(f, "ci_half", 0);
		json_num(f, 1, r->test.ci_half);
		json_key(f, "p_value", 0);
		json_num(f, 1, r->test.p);
	}
	fputc('}', f);
}

static void json_block(FILE *f, const struct report *rep, const struct where_block *w)
{
	json_key(f, "bench", 1);
	json_str(f, rep->benches[w->bench].data.name);
	json_key(f, "base", 0);
	json_str(f, run_name(rep, 0));
	json_key(f, "new", 0);
	json_str(f, run_name(rep, w->run));
	json_key(f, "kind", 0);
	json_str_or_null(f, w->none ? NULL : w->kind == PROFILE_INSNS ? "insns" : "samples");
	json_key(f, "none", 0);
	json_str_or_null(f, w->none);
	if (w->none)
		return;
	json_key(f, "iterations", 0);
	fprintf(f, "[%zu,%zu]", w->n_base, w->n_new);
	json_key(f, "event", 0);
	json_str_or_null(f, w->kind == PROFILE_SAMPLES ? w->event : NULL);
	json_key(f, "skid", 0);
	fputs(w->skid ? "true" : "false", f);
	json_key(f, "per", 0);
	json_str_or_null(f, w->per);
	json_key(f, "units", 0);
	if (w->per)
		fprintf(f, "[%.17g,%.17g]", w->base_units, w->new_units);
	else
		fputs("null", f);
	json_key(f, "tested", 0);
	fprintf(f, "%zu", w->kind == PROFILE_SAMPLES ? w->n_tested : w->n);
	json_key(f, "significant", 0);
	if (w->kind == PROFILE_SAMPLES)
		fprintf(f, "%zu", w->n_significant);
	else
		fputs("null", f);
	json_key(f, "rows", 0);
	fputc('[', f);
	for (size_t k = 0; k < w->n; k++)
		json_row(f, w, &w->rows[k], k == 0);
	fputc(']', f);
	json_key(f, "total", 0);
	if (w->kind == PROFILE_INSNS)
		json_row(f, w, &w->total, 1);
	else
		fputs("null", f);
}

void where_json(FILE *f, const struct report *rep)
{
	json_key(f, "profile", 0);
	if (!rep->where) {
		fputs("null", f);
		return;
	}
	fputc('[', f);
	for (size_t i = 0; i < rep->where->n; i++) {
		fputs(i ? ",{" : "{", f);
		json_block(f, rep, &rep->where->blocks[i]);
		fputc('}', f);
	}
	fputc(']', f);
}
