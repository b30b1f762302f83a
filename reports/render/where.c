/*
 * One block per bench, sweep point and run: first whether the work changed
 * (the total's test, and under icount the bench's resolution), then one row
 * per function: base and new per iteration (and per page or operation),
 * the change, its interval and p across iterations, and its share of the
 * whole change.  The text block pastes into a changelog beside the tables
 * above it.
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

static const char interleaving_note[] =
	"interleaving: a function of the scheduler, the tick, interrupts, softirqs or RCU's grace periods, "
	"which runs wherever the interleaving of the vCPU's tasks puts it; the others are work";

/* "heaprelease", "heaprelease PATTERN=mprotect", "..., its task regions (2 an iteration)". */
static void bench_point(const struct report *rep, const struct where_block *w, char *buf, size_t len)
{
	const size_t *t = w->task_regions;
	char tasks[96] = "";

	if (w->of_tasks && t[1] && t[0] == t[1])
		snprintf(tasks, sizeof(tasks), ", its task regions (%zu an iteration)", t[0]);
	else if (w->of_tasks && t[1])
		snprintf(tasks, sizeof(tasks), ", its task regions (%zu to %zu an iteration)", t[0], t[1]);
	else if (w->of_tasks)
		snprintf(tasks, sizeof(tasks), ", its task regions");
	snprintf(buf, len, "%s%s%s%s", rep->benches[w->bench].data.name, *w->point ? " " : "", w->point, tasks);
}

/* Does the block show an interleaving row? */
static int shows_interleaving(const struct where_block *w)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->rows[i].interleaving == 1)
			return 1;
	return 0;
}

/*
 * What the block is, before the runs: "where the instructions changed"
 * when the primary metric's table finds a change; otherwise that table's
 * verdict, so that rows below a figure that did not move are not read as
 * a change, and whether any function's own test found one.
 */
static void headline(const struct where_block *w, char *buf, size_t len)
{
	const struct ttest *t = &w->primary_test;
	int insns = w->kind == PROFILE_INSNS, one = w->n_significant == 1, n;

	if (where_primary_changed(w)) {
		snprintf(buf, len, "where %s", insns ? "the instructions changed" : "the samples moved");
		return;
	}
	if (t->outcome == TTEST_NOT_DONE) {
		snprintf(buf, len, "No test of %s (%s)", w->primary, t->why_not);
		return;
	}
	n = snprintf(buf, len, "%s in %s", t->exact ? "No change" : "No difference proven", w->primary);
	if (n < 0 || (size_t)n >= len)
		return;
	if (!w->n_significant)
		snprintf(buf + n, len - (size_t)n, ", nor in any function%s", insns ? "" : "'s share");
	else
		snprintf(buf + n, len - (size_t)n, ", but in %zu %s", w->n_significant,
			 insns ? (one ? "function" : "functions") : (one ? "function's share" : "functions' shares"));
}

/* The block's first line. */
static void title_line(const struct report *rep, const struct where_block *w, char *buf, size_t len)
{
	char bp[256], head[320], regions[96] = "";
	int n;

	bench_point(rep, w, bp, sizeof(bp));
	headline(w, head, sizeof(head));
	n = snprintf(buf, len, "%s: %s, %s -> %s", bp, head, run_name(rep, 0), run_name(rep, w->run));
	if (n < 0 || (size_t)n >= len)
		return;
	if (w->regions[0] > 1 || w->regions[1] > 1)
		snprintf(regions, sizeof(regions), "; %zu and %zu timed regions an iteration", w->regions[0],
			 w->regions[1]);
	if (w->kind == PROFILE_INSNS)
		snprintf(buf + n, len - (size_t)n, " (insns: per iteration, exact counts; %zu and %zu iterations%s)",
			 w->n_base, w->n_new, regions);
	else
		snprintf(buf + n, len - (size_t)n,
			 " (profile: self share of %s samples per iteration, Welch at %.0f%%; %zu and %zu iterations)",
			 w->event, report_confidence(rep), w->n_base, w->n_new);
}

/*
 * A row's test: "exact*" (the same count in every iteration of both runs),
 * else its p after p_label ("0.031*" in a table, "p 0.031*" in a sentence),
 * or untested when there was no test.
 */
static void test_text(const struct where_row *r, const char *p_label, const char *untested, char *buf, size_t len)
{
	const char *mark = where_significant(r) ? "*" : "";

	if (r->test.outcome == TTEST_NOT_DONE)
		snprintf(buf, len, "%s", untested);
	else if (r->test.exact)
		snprintf(buf, len, "exact%s", mark);
	else
		snprintf(buf, len, "%s%.2g%s", p_label, r->test.p, mark);
}

/* A table row's p column: "0.031*", "exact*", "-". */
static void p_text(const struct where_row *r, char *buf, size_t len)
{
	test_text(r, "", "-", buf, len);
}

/* "work +X instructions (p), interleaving +Y instructions (p)", and whether the work changed at all. */
static void split_text(const struct where_block *w, char *buf, size_t len)
{
	char tw[32], ti[32];

	test_text(&w->work, "p ", "not tested", tw, sizeof(tw));
	test_text(&w->interleaved, "p ", "not tested", ti, sizeof(ti));
	snprintf(buf, len, "; work %+.0f instructions (%s), interleaving %+.0f instructions (%s)%s", w->work.change, tw,
		 w->interleaved.change, ti, where_only_interleaving(w) ? ": the work did not change" : "");
}

/* Whether the work changed: the total's test, and the bench's icount resolution. */
static void status_line(const struct report *rep, const struct where_block *w, char *buf, size_t len)
{
	const struct ttest *t = &w->total.test;
	const char *bench = rep->benches[w->bench].data.name;
	char pct[96] = "", verdict[160], spread[96] = "";
	int n;

	if (t->outcome != TTEST_NOT_DONE && t->has_pct)
		snprintf(pct, sizeof(pct), " (%+.3g%% ± %.2g%%)", t->diff_pct, t->ci_half_pct);
	if (t->outcome == TTEST_NOT_DONE)
		snprintf(verdict, sizeof(verdict), "not tested (%s)", t->why_not);
	else if (t->exact)
		snprintf(verdict, sizeof(verdict), "%s", where_significant(&w->total) ?
			 "a certain change (the same total in every iteration of each run)" : "no change (the same total in every iteration)");
	else
		snprintf(verdict, sizeof(verdict), "%s (p %.2g)", where_significant(&w->total) ? "significant" :
			 "No difference proven", t->p);
	if (w->kind == PROFILE_INSNS)
		n = snprintf(buf, len, "total %+.0f instructions%s: %s", w->total.change, pct, verdict);
	else
		n = snprintf(buf, len, "%s, the primary metric%s: %s", w->total.name, pct, verdict);
	if (n < 0 || (size_t)n >= len)
		return;
	if (w->has_resolution && w->total.change != 0) {
		if (where_total_range(w) > w->resolution.range)
			snprintf(spread, sizeof(spread), " in these runs, wider than resolution.tsv's %.3g%%",
				 100 * w->resolution.range);
		n += snprintf(buf + n, len - (size_t)n,
			      "; %s %s's icount resolution (%s spreads by up to %.3g%% within one boot%s)%s",
			      w->beyond_resolution ? "beyond" : "within", bench, rep->benches[w->bench].data.metrics[0].name,
			      100 * where_total_range(w), spread,
			      !w->beyond_resolution && !where_significant(&w->total) && !w->n_significant ?
				      ": the rows are where the iterations happened to differ" : "");
	}
	if (w->kind == PROFILE_INSNS && n >= 0 && (size_t)n < len)
		split_text(w, buf + n, len - (size_t)n);
}

static void text_status(FILE *f, const struct report *rep, const struct where_block *w)
{
	char line[1024];

	status_line(rep, w, line, sizeof(line));
	fprintf(f, "%s.\n", line);
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
	char p[32];

	p_text(r, p, sizeof(p));
	fprintf(f, "%-*s %*.0f %*.0f", nw, r->name, col(rep, 0, 12), r->base, col(rep, w->run, 12), r->new);
	if (w->per)
		fprintf(f, " %9.2f %9.2f", per(r->base, w->base_units), per(r->new, w->new_units));
	fprintf(f, " %+12.0f %10.0f", r->change, r->test.ci_half);
	if (isfinite(r->share))
		fprintf(f, " %8.1f%% %8s", 100 * r->share, p);
	else
		fprintf(f, " %9s %8s", "-", p);
	fputs(r->interleaving == 1 ? "  interleaving\n" : "\n", f);
}

static int name_width(const struct where_block *w)
{
	int nw = 8;

	for (size_t i = 0; i < w->n; i++)
		if ((int)strlen(w->rows[i].name) > nw)
			nw = (int)strlen(w->rows[i].name);
	return nw;
}

/* How many functions changed, and what the marks mean. */
static void count_line(const struct report *rep, const struct where_block *w, char *buf, size_t len)
{
	snprintf(buf, len, "%zu of %zu functions changed significantly (* at %.0f%%, Welch across iterations%s)",
		 w->n_significant, w->n_tested, report_confidence(rep),
		 w->kind == PROFILE_INSNS ? "; exact: the same count in every iteration of both runs" : "");
}

static void text_insns(FILE *f, const struct report *rep, const struct where_block *w)
{
	int nw = name_width(w);
	char unit[32], line[512];

	snprintf(unit, sizeof(unit), "/%s", w->per ? w->per : "");
	fprintf(f, "%-*s %*s %*s", nw, "function", col(rep, 0, 12), run_name(rep, 0), col(rep, w->run, 12),
		run_name(rep, w->run));
	if (w->per)
		fprintf(f, " %9s %9s", unit, unit);
	/* "±" is two bytes: one more of width keeps it over its column */
	fprintf(f, " %12s %11s %9s %8s\n", "change", "±", "of change", "p");
	for (size_t i = 0; i < w->n; i++)
		text_insns_row(f, rep, w, &w->rows[i], nw);
	text_insns_row(f, rep, w, &w->total, nw);
	count_line(rep, w, line, sizeof(line));
	fprintf(f, "%s.\n", line);
	if (shows_interleaving(w))
		fprintf(f, "(%s)\n", interleaving_note);
	if (w->per)
		fprintf(f, "(per %s: %.0f and %.0f %ss an iteration)\n", w->per, w->base_units, w->new_units, w->per);
}

static void text_samples(FILE *f, const struct report *rep, const struct where_block *w)
{
	int nw = name_width(w);
	char line[512];

	if (w->skid)
		fprintf(f, "Note: %s.\n", skid_note);
	if (!w->n) {
		fprintf(f, "No function's share changed significantly (%zu tested).\n", w->n_tested);
		return;
	}
	fprintf(f, "%-*s %*s %*s %9s %10s %10s\n", nw, "function", col(rep, 0, 9), run_name(rep, 0),
		col(rep, w->run, 9), run_name(rep, w->run), "change", "±", "p");
	for (size_t i = 0; i < w->n; i++) {
		const struct where_row *r = &w->rows[i];
		char p[32];

		p_text(r, p, sizeof(p));
		fprintf(f, "%-*s %*.2f%% %*.2f%% %+8.2f%% %8.2f%% %10s%s\n", nw, r->name, col(rep, 0, 9) - 1, r->base,
			col(rep, w->run, 9) - 1, r->new, r->change, r->test.ci_half, p,
			r->interleaving == 1 ? "  interleaving" : "");
	}
	count_line(rep, w, line, sizeof(line));
	fprintf(f, "%s", line);
	if (w->n < w->n_significant)
		fprintf(f, "; the %zu that changed most are shown", w->n);
	fputs(".\n", f);
	if (shows_interleaving(w))
		fprintf(f, "(%s)\n", interleaving_note);
}

/* "heaprelease PATTERN=madvise: a -> b: no profile ...". */
static void none_line(const struct report *rep, const struct where_block *w, char *buf, size_t len)
{
	char bp[256];

	bench_point(rep, w, bp, sizeof(bp));
	snprintf(buf, len, "%s: %s -> %s: %s", bp, run_name(rep, 0), run_name(rep, w->run), w->none);
}

static void text_block(FILE *f, const struct report *rep, const struct where_block *w)
{
	char line[2048];

	fputc('\n', f);
	if (w->none) {
		none_line(rep, w, line, sizeof(line));
		fprintf(f, "%s.\n", line);
		return;
	}
	title_line(rep, w, line, sizeof(line));
	fprintf(f, "%s\n", line);
	text_status(f, rep, w);
	if (w->kind == PROFILE_INSNS)
		text_insns(f, rep, w);
	else
		text_samples(f, rep, w);
}

void where_text(FILE *f, const struct report *rep, size_t b)
{
	if (!rep->where)
		return;
	for (size_t i = 0; i < rep->where->n; i++) {
		const struct where_block *w = &rep->where->blocks[i];

		if (w->bench != b)
			continue;
		text_block(f, rep, w);
		if (w->tasks)
			text_block(f, rep, w->tasks);
	}
}

/* The kind column of markdown and HTML: empty for [rest] and the total, which hold both. */
static const char *kind_of(const struct where_row *r)
{
	return r->interleaving == 1 ? "interleaving" : r->interleaving == 0 ? "work" : "";
}

static void md_row(FILE *f, const struct where_block *w, const struct where_row *r)
{
	char p[32];

	p_text(r, p, sizeof(p));
	if (w->kind == PROFILE_SAMPLES) {
		fprintf(f, "| `%s` | %.2f%% | %.2f%% | %+.2f%% | ±%.2f%% | %s | %s |\n", r->name, r->base, r->new,
			r->change, r->test.ci_half, p, kind_of(r));
		return;
	}
	fprintf(f, "| `%s` | %.0f | %.0f |", r->name, r->base, r->new);
	if (w->per)
		fprintf(f, " %.2f | %.2f |", per(r->base, w->base_units), per(r->new, w->new_units));
	fprintf(f, " %+.0f | ±%.0f |", r->change, r->test.ci_half);
	if (isfinite(r->share))
		fprintf(f, " %.1f%% | %s | %s |\n", 100 * r->share, p, kind_of(r));
	else
		fprintf(f, " - | %s | %s |\n", p, kind_of(r));
}

static void md_header(FILE *f, const struct report *rep, const struct where_block *w)
{
	if (w->kind == PROFILE_SAMPLES) {
		fprintf(f, "| function | %s | %s | change | ± (CI) | p | kind |\n|---|---:|---:|---:|---:|---:|---|\n",
			run_name(rep, 0), run_name(rep, w->run));
		return;
	}
	fprintf(f, "| function | %s | %s |", run_name(rep, 0), run_name(rep, w->run));
	if (w->per)
		fprintf(f, " /%s | /%s |", w->per, w->per);
	fprintf(f, " change | ± (CI) | of change | p | kind |\n|---|---:|---:|%s---:|---:|---:|---:|---|\n",
		w->per ? "---:|---:|" : "");
}

static void md_block(FILE *f, const struct report *rep, const struct where_block *w)
{
	char line[2048];

	if (w->none) {
		none_line(rep, w, line, sizeof(line));
		fprintf(f, "\n%s.\n", line);
		return;
	}
	title_line(rep, w, line, sizeof(line));
	fprintf(f, "\n**%s**\n\n", line);
	text_status(f, rep, w);
	if (w->skid)
		fprintf(f, "\n> %s.\n", skid_note);
	fputc('\n', f);
	md_header(f, rep, w);
	for (size_t k = 0; k < w->n; k++)
		md_row(f, w, &w->rows[k]);
	if (w->kind == PROFILE_INSNS)
		md_row(f, w, &w->total);
	count_line(rep, w, line, sizeof(line));
	fprintf(f, "\n%s.\n", line);
	if (shows_interleaving(w))
		fprintf(f, "\n(%s)\n", interleaving_note);
	fputc('\n', f);
}

void where_markdown(FILE *f, const struct report *rep, size_t b)
{
	if (!rep->where)
		return;
	for (size_t i = 0; i < rep->where->n; i++) {
		const struct where_block *w = &rep->where->blocks[i];

		if (w->bench != b)
			continue;
		md_block(f, rep, w);
		if (w->tasks)
			md_block(f, rep, w->tasks);
	}
}

static void html_row(FILE *f, const struct where_block *w, const struct where_row *r)
{
	char p[32];

	p_text(r, p, sizeof(p));
	fputs("<tr><td><code>", f);
	markup_str(f, r->name);
	if (w->kind == PROFILE_SAMPLES) {
		fprintf(f, "</code></td><td>%.2f%%</td><td>%.2f%%</td><td>%+.2f%%</td><td>±%.2f%%</td><td>%s</td><td>%s</td></tr>\n",
			r->base, r->new, r->change, r->test.ci_half, p, kind_of(r));
		return;
	}
	fprintf(f, "</code></td><td>%.0f</td><td>%.0f</td>", r->base, r->new);
	if (w->per)
		fprintf(f, "<td>%.2f</td><td>%.2f</td>", per(r->base, w->base_units), per(r->new, w->new_units));
	fprintf(f, "<td>%+.0f</td><td>±%.0f</td><td>%s%.1f%%</td><td>%s</td><td>%s</td></tr>\n", r->change,
		r->test.ci_half, isfinite(r->share) ? "" : "-", isfinite(r->share) ? 100 * r->share : 0, p, kind_of(r));
}

static void html_paragraph(FILE *f, const char *cls, const char *text)
{
	fprintf(f, "<p%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	markup_str(f, text);
	fputs(".</p>\n", f);
}

static void html_table(FILE *f, const struct report *rep, const struct where_block *w)
{
	fputs("<table><tr><th>function</th><th>", f);
	markup_str(f, run_name(rep, 0));
	fputs("</th><th>", f);
	markup_str(f, run_name(rep, w->run));
	fputs("</th>", f);
	if (w->kind == PROFILE_INSNS && w->per)
		fprintf(f, "<th>/%s</th><th>/%s</th>", w->per, w->per);
	fputs(w->kind == PROFILE_INSNS ? "<th>change</th><th>±</th><th>of change</th><th>p</th><th>kind</th></tr>\n" :
					 "<th>change</th><th>±</th><th>p</th><th>kind</th></tr>\n", f);
	for (size_t k = 0; k < w->n; k++)
		html_row(f, w, &w->rows[k]);
	if (w->kind == PROFILE_INSNS)
		html_row(f, w, &w->total);
	fputs("</table>\n", f);
}

static void html_block(FILE *f, const struct report *rep, const struct where_block *w, const char *plots)
{
	char line[2048];

	bench_point(rep, w, line, sizeof(line));
	fputs("<section class=\"where\"><h3>", f);
	markup_str(f, line);
	fputs(": where</h3>\n", f);
	if (w->none) {
		html_paragraph(f, NULL, w->none);
		fputs("</section>\n", f);
		return;
	}
	title_line(rep, w, line, sizeof(line));
	html_paragraph(f, NULL, line);
	status_line(rep, w, line, sizeof(line));
	html_paragraph(f, "verdict", line);
	if (w->skid)
		html_paragraph(f, "note", skid_note);
	if (plots && w->n)
		fprintf(f, "<img src=\"plots/where-%s%s-%zu-%zu.svg\" alt=\"the change of the top functions\">\n",
			w->of_tasks ? "tasks-" : "", rep->benches[w->bench].data.name, w->param, w->run);
	html_table(f, rep, w);
	count_line(rep, w, line, sizeof(line));
	html_paragraph(f, NULL, line);
	if (shows_interleaving(w))
		html_paragraph(f, "note", interleaving_note);
	fputs("</section>\n", f);
}

void where_html(FILE *f, const struct report *rep, size_t b, const char *plots)
{
	if (!rep->where)
		return;
	for (size_t i = 0; i < rep->where->n; i++) {
		const struct where_block *w = &rep->where->blocks[i];

		if (w->bench != b)
			continue;
		html_block(f, rep, w, plots);
		if (w->tasks)
			html_block(f, rep, w->tasks, plots);
	}
}
