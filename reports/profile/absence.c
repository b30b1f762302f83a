/* Why a point has no profile (see absence.h). */
#include <stdio.h>
#include <string.h>

#include "profile/absence.h"
#include "rundir/tsv.h"

/* BENCH/monitors/skipped's reason for monitor, into why; 1 found, 0 not, -1. */
static int skipped(const char *run, const char *bench, const char *monitor, char *why, size_t len, struct err *e)
{
	char path[4096];
	struct tsv t;
	int rc, found = 0;

	snprintf(path, sizeof(path), "%s/%s/monitors/skipped", run, bench);
	if ((rc = tsv_open_optional(&t, path, e)) <= 0)
		return rc;
	while (!found && (rc = tsv_next(&t, e)) == 1)
		if (!strcmp(t.field[0], monitor)) {
			snprintf(why, len, "%s", t.nf > 1 ? t.field[1] : "not available");
			found = 1;
		}
	tsv_close(&t);
	return rc < 0 ? -1 : found;
}

/* The host counted this run: why nothing of the point was. */
static int counted_nothing(const char *run, const char *bench, const struct point_regions *rg, char *buf, size_t len,
			   struct err *e)
{
	char why[512];
	int s;

	if (rg->processes && !rg->marked) {
		snprintf(buf, len, "the bench marked no timed region in %s %zu iteration%s, and the insns monitor counts "
			 "only inside one (docs/monitors.md)", rg->processes == 1 ? "its" : "any of its", rg->processes,
			 rg->processes == 1 ? "" : "s");
		return 0;
	}
	if ((s = skipped(run, bench, "insns", why, sizeof(why), e)) < 0)
		return -1;
	if (s)
		snprintf(buf, len, "the insns monitor counted nothing: %s", why);
	else if (rg->marked)
		snprintf(buf, len, "insns.tsv lists %zu counted iteration%s with a region, but %s/monitors holds no "
			 "table of them", rg->marked, rg->marked == 1 ? "" : "s", bench);
	else
		snprintf(buf, len, "the insns monitor counted the run but no iteration of this bench here");
	return 0;
}

int profile_absence(const struct report *rep, size_t b, size_t p, size_t r, const struct point_regions *rg,
		    char *buf, size_t len, struct err *e)
{
	const struct bench_cmp *bc = &rep->benches[b];
	const struct run_info *run = &rep->runs[r];
	char why[512];
	int s;

	if (!bench_cell(&bc->data, p, r, 0)->n) {
		snprintf(buf, len, "the point was not run");
		return 0;
	}
	if (rg->counted)
		return counted_nothing(run->path, bc->data.name, rg, buf, len, e);
	for (size_t i = 0; i < 2; i++) {
		const char *m = i ? "profile" : "insns";

		if ((s = skipped(run->path, bc->data.name, m, why, sizeof(why), e)) < 0)
			return -1;
		if (s) {
			snprintf(buf, len, "monitor %s skipped: %s", m, why);
			return 0;
		}
	}
	if (kv_get(&run->meta, "vm_clock"))
		snprintf(buf, len, "a --kernel run without the insns monitor: run it with --monitors vmstat,insns");
	else
		snprintf(buf, len, "a native run without a profiling monitor: --monitors profile (perf's samples), or "
			 "--kernel with --monitors insns (exact counts)");
	return 0;
}
