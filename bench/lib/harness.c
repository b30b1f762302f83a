/* main() for every bench: options, trigger, output.  See harness.h. */
#include "harness.h"
#include "cpus.h"
#include "describe.h"
#include "memlimit.h"
#include "output.h"
#include "settle.h"
#include "size.h"
#include "trigger.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#define MAX_VALUES 256

static struct {
	const char *metric;
	double value;
} values[MAX_VALUES];
static int nvalues;
static int overflowed;

static const char *trigger_arg = "none";
static int cap_size, check_only, settle;
static const char *raw_path;
static FILE *raw_file;
static int raw_failed;

/* Options every bench has; the bench's own table is searched first. */
static struct bench_opt common_opts[] = {
	{ "trigger", OPT_STRING, &trigger_arg, NULL,
	  "none | signal (SIGUSR1 starts the timed region and the teardown) | fifo:DIR", 0 },
	{ "cap-size", OPT_FLAG, &cap_size, NULL,
	  "reduce an oversized --size to what the machine holds, instead of refusing it", 0 },
	{ "check", OPT_FLAG, &check_only, NULL,
	  "validate the options and sizes, then exit without running", 0 },
	{ "settle", OPT_FLAG, &settle, NULL,
	  "before the timed region, let deferred kernel work finish and start right after a tick (for icount guests)", 0 },
	{ "raw-times", OPT_STRING, &raw_path, NULL,
	  "write the raw values the bench reduces to its metrics into FILE, series<TAB>value a line", 0 },
	{ NULL, 0, NULL, NULL, NULL, 0 },
};

void bench_report(const char *metric, double value)
{
	if (nvalues == MAX_VALUES) {
		overflowed = 1;
		return;
	}
	values[nvalues].metric = metric;
	values[nvalues].value = value;
	nvalues++;
}

void bench_raw(const char *series, const uint64_t *v, size_t n)
{
	if (!raw_path || raw_failed)
		return;
	if (!raw_file && !(raw_file = fopen(raw_path, "w"))) {
		raw_failed = errno;
		return;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(raw_file, "%s\t%llu\n", series, (unsigned long long)v[i]);
}

/* The raw times' file complete on disk, or one line saying why not. */
static int raw_close(void)
{
	if (raw_file && fclose(raw_file) && !raw_failed)
		raw_failed = errno;
	raw_file = NULL;
	if (raw_failed)
		return bench_fail("--raw-times %s: %s", raw_path, strerror(raw_failed));
	return 0;
}

static void vnote(const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "%s: %s\n", bench.name, buf);
}

int bench_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(fmt, ap);
	va_end(ap);
	return -1;
}

int bench_unavailable(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(fmt, ap);
	va_end(ap);
	return -2;
}

void bench_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(fmt, ap);
	va_end(ap);
}

static struct bench_opt *find_opt(const char *name)
{
	struct bench_opt *o;

	for (o = bench.opts; o && o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	for (o = common_opts; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

int bench_opt_given(const char *name)
{
	struct bench_opt *o = find_opt(name);

	return o && o->given;
}

/* The index of val in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *val)
{
	size_t len = strlen(val);
	const char *p = choices;
	int i = 0;

	while (*p) {
		size_t n = strcspn(p, "|");

		if (n == len && !strncmp(p, val, len))
			return i;
		p += n + (p[n] == '|');
		i++;
	}
	return -1;
}

static int set_opt(struct bench_opt *o, const char *val)
{
	const char *why;
	char *end;
	struct memlimit m;

	switch (o->type) {
	case OPT_SIZE:
		memlimit_read(&m);
		if (size_parse(val, m.memtotal, o->dest, &why))
			return bench_fail("--%s %s: %s", o->name, val, why);
		break;
	case OPT_U64:
		errno = 0;
		*(uint64_t *)o->dest = strtoull(val, &end, 10);
		if (!*val || *end || errno || *val == '-')
			return bench_fail("--%s %s: not a whole number", o->name, val);
		break;
	case OPT_CHOICE:
		*(int *)o->dest = choice_index(o->choices, val);
		if (*(int *)o->dest < 0)
			return bench_fail("--%s %s: must be one of %s", o->name, val, o->choices);
		break;
	case OPT_STRING:
		*(const char **)o->dest = val;
		break;
	case OPT_FLAG:
		*(int *)o->dest = 1;
		break;
	case OPT_TASKS:
		if (tasks_parse(val, cpus_allowed(), o->dest, &why))
			return bench_fail("--%s %s: %s", o->name, val, why);
		break;
	}
	o->given = 1;
	return 0;
}

static void usage(FILE *f)
{
	struct bench_opt *tables[] = { bench.opts, common_opts };

	fprintf(f, "usage: %s [options]\n%s\n\n"
		"  --describe          print metric<TAB>label<TAB>unit<TAB>lower|higher|none\n"
		"  --describe-options  print option<TAB>kind<TAB>default<TAB>choices<TAB>help\n"
		"  --default-monitors  print the monitors run.sh runs when a config names none\n",
		bench.name, bench.description);
	for (int t = 0; t < 2; t++)
		for (struct bench_opt *o = tables[t]; o && o->name; o++)
			fprintf(f, "  --%-10s %s%s%s\n", o->name, o->help,
				o->choices ? ": " : "", o->choices ? o->choices : "");
}

static int parse_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val;
		char name[64];
		struct bench_opt *o;
		const char *eq;

		if (strncmp(arg, "--", 2))
			return bench_fail("unexpected argument '%s' (options start with --)", arg);
		arg += 2;
		eq = strchr(arg, '=');
		snprintf(name, sizeof(name), "%.*s", (int)(eq ? eq - arg : (long)strlen(arg)), arg);
		o = find_opt(name);
		if (!o)
			return bench_fail("unknown option --%s (see --help)", name);
		if (o->type == OPT_FLAG) {
			if (eq)
				return bench_fail("--%s: a flag takes no value", arg);
			val = "1";
		} else if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			return bench_fail("--%s needs a value", name);
		}
		if (set_opt(o, val))
			return -1;
	}
	return 0;
}

static int print_values(void)
{
	char line[512];

	if (overflowed)
		return bench_fail("internal: more than %d values reported", MAX_VALUES);
	for (int i = 0; i < nvalues; i++) {
		const struct bench_metric *m = bench.metrics;

		while (m->name && strcmp(m->name, values[i].metric))
			m++;
		if (!m->name)
			return bench_fail("internal: undeclared metric %s", values[i].metric);
		output_value(line, sizeof(line), values[i].metric, values[i].value);
		fputs(line, stdout);
	}
	return fflush(stdout) == 0 ? 0 : bench_fail("writing results: %s", strerror(errno));
}

/*
 * A personality set before exec decides the new image's layout, so the
 * bench runs itself again with ADDR_NO_RANDOMIZE, once: the second run
 * finds it set.  Where it cannot, the layout stays random, with a note.
 */
static void fix_layout(char **argv)
{
	int persona = personality(0xffffffff);

	if (persona < 0 || (persona & ADDR_NO_RANDOMIZE))
		return;
	if (personality((unsigned long)persona | ADDR_NO_RANDOMIZE) >= 0)
		execv("/proc/self/exe", argv);
	bench_note("cannot run without address-space randomisation (%s); the layout stays random", strerror(errno));
}

static int wants_check(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--check"))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct trigger trig;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--describe"))
			return describe_metrics(stdout, &bench);
		if (!strcmp(argv[i], "--describe-options"))
			return describe_options(stdout, &bench);
		if (!strcmp(argv[i], "--default-monitors"))
			return describe_monitors(stdout, &bench);
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
	}
	/* Before anything is said, so that a note is not said twice. */
	if (bench.fixed_layout && !wants_check(argc, argv))
		fix_layout(argv);
	if (parse_args(argc, argv))
		return 2;
	if (bench.check && (rc = bench.check()))
		return rc == -2 ? 3 : 2;
	if (check_only)
		return describe_resolved(stdout, &bench);
	/* The insns monitor's regions are this process's from here on. */
	BENCH_MARK(BENCH_MARK_PROCESS);
	if (trigger_open(&trig, trigger_arg, bench.name))
		return 2;
	if (bench.setup && bench.setup())
		return 2;
	if (trigger_wait(&trig, "ready"))
		return 2;
	if (settle && bench_settle())
		return 2;
	if (bench.measure())
		return 2;
	if (trigger_wait(&trig, "done"))
		return 2;
	if (bench.teardown && bench.teardown())
		return 2;
	if (raw_close())
		return 2;
	trigger_close(&trig);
	return print_values() ? 2 : 0;
}
