/*
 * mmprofile: the insns monitor's host-side steps (drivers/vm/insns.sh), in
 * C because kernel addresses are 64-bit and the shell's awk has doubles.
 *
 *   mmprofile reduce [--raw-names] KALLSYMS PROCESS.tsv
 *       function<TAB>instructions of one bench process, clones folded
 *       unless --raw-names (reports/profile/reduce.h)
 *   mmprofile reconcile ELAPSED_SECONDS INSTRUCTIONS TSC_KHZ SLACK
 *       gap<TAB>margin<TAB>ok|outside: the region's instructions against
 *       its icount figure (reports/profile/reconcile.h); exit 1 if outside
 *
 * Exit 2 with one line on stderr on bad input.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/kallsyms.h"
#include "profile/reconcile.h"
#include "profile/reduce.h"

static int fail(const char *path, const char *why)
{
	fprintf(stderr, "mmprofile: %s: %s\n", path, why);
	return 2;
}

static int reduce(int argc, char **argv)
{
	int raw = argc > 0 && !strcmp(argv[0], "--raw-names");
	struct ksyms k;
	struct fprofile p;
	struct err e;
	FILE *f;
	int rc;

	if (argc - raw != 2)
		return fail("usage", "mmprofile reduce [--raw-names] KALLSYMS PROCESS.tsv");
	f = fopen(argv[raw], "r");
	if (!f)
		return fail(argv[raw], strerror(errno));
	rc = ksyms_read(f, &k, &e);
	fclose(f);
	if (rc)
		return fail(argv[raw], e.msg);
	f = fopen(argv[raw + 1], "r");
	if (!f) {
		ksyms_free(&k);
		return fail(argv[raw + 1], strerror(errno));
	}
	rc = profile_reduce(f, &k, raw, &p, &e);
	fclose(f);
	ksyms_free(&k);
	if (rc)
		return fail(argv[raw + 1], e.msg);
	fprofile_write(stdout, &p);
	fprofile_free(&p);
	return fflush(stdout) ? fail("stdout", strerror(errno)) : 0;
}

static int reconcile(int argc, char **argv)
{
	char *end1, *end2;
	double s;
	unsigned long long n, khz, slack;
	struct reconcile r;

	if (argc != 4)
		return fail("usage", "mmprofile reconcile ELAPSED_SECONDS INSTRUCTIONS TSC_KHZ SLACK");
	errno = 0;
	s = strtod(argv[0], &end1);
	n = strtoull(argv[1], &end2, 10);
	if (errno || *end1 || *end2 || end1 == argv[0] || end2 == argv[1] || s < 0)
		return fail("reconcile", "needs seconds and a count");
	khz = strtoull(argv[2], &end1, 10);
	slack = strtoull(argv[3], &end2, 10);
	if (errno || *end1 || end1 == argv[2] || *end2 || end2 == argv[3])
		return fail("reconcile", "TSC_KHZ and SLACK must be counts");
	r = reconcile_region((uint64_t)llround(s * 1e9), n, khz, slack);
	printf("%" PRId64 "\t%" PRId64 "\t%s\n", r.gap, r.margin, r.ok ? "ok" : "outside");
	return r.ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "reduce"))
		return reduce(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "reconcile"))
		return reconcile(argc - 2, argv + 2);
	return fail("usage", "mmprofile reduce|reconcile ...");
}
