/*
 * The gate's verdicts as JUnit XML, the one report format Jenkins, GitLab and
 * GitHub all display: one testcase per gated metric and run, a failure for
 * each regression.  An inconclusive verdict is what --inconclusive makes of
 * it: skipped by default (not decided, and the exit status 3 says so), a
 * failure with --inconclusive fail, a passed test with --inconclusive pass.
 */
#include <errno.h>
#include <string.h>

#include "markup.h"
#include "render.h"
#include "gate/gateline.h"

enum outcome { PASSED, FAILED, SKIPPED };

static enum outcome outcome(const struct gate *g, const struct gate_result *gr)
{
	if (gr->verdict == GATE_REGRESSION)
		return FAILED;
	if (gr->verdict == GATE_PASS || g->policy == GATE_INCONCLUSIVE_PASS)
		return PASSED;
	return g->policy == GATE_INCONCLUSIVE_FAIL ? FAILED : SKIPPED;
}

static size_t count(const struct gate *g, enum outcome o)
{
	size_t n = 0;

	for (size_t i = 0; i < g->n_res; i++)
		n += outcome(g, &g->res[i]) == o;
	return n;
}

static void testcase(FILE *f, const struct report *rep, const struct gate *g,
		     const struct gate_result *gr)
{
	const struct bench_cmp *b = &rep->benches[gr->bench];
	char name[256], line[2048];

	gate_metric_name(b, gr->metric, gr->param, name, sizeof(name));
	gate_text(rep, g, gr, line, sizeof(line));
	fputs("    <testcase classname=\"mmdelta.", f);
	markup_str(f, b->data.name);
	fputs("\" name=\"", f);
	markup_str(f, name);
	fputs(" ", f);
	markup_str(f, rep->runs[gr->run].name);
	fputs("\" time=\"0\">\n", f);
	if (outcome(g, gr) == FAILED) {
		fprintf(f, "      <failure type=\"%s\" message=\"",
			gr->verdict == GATE_REGRESSION ? "regression" : "inconclusive");
		markup_str(f, line);
		fputs("\"/>\n", f);
	} else if (outcome(g, gr) == SKIPPED) {
		fputs("      <skipped message=\"", f);
		markup_str(f, line);
		fputs("\"/>\n", f);
	} else {
		fputs("      <system-out>", f);
		markup_str(f, line);
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

int render_junit(const char *path, const struct report *rep,
		 const struct gate *g, struct err *e)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return err_set(e, "--junit %s: %s", path, strerror(errno));
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<testsuites>\n  <testsuite name=\"mmdelta-gate\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
		g->n_res, count(g, FAILED), count(g, SKIPPED));
	for (size_t i = 0; i < g->n_res; i++)
		testcase(f, rep, g, &g->res[i]);
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (fclose(f))
		return err_set(e, "--junit %s: %s", path, strerror(errno));
	return 0;
}
