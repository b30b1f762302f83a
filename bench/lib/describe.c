/* A bench's self-description for run.sh.  See describe.h. */
#include "describe.h"
#include "harness.h"
#include "output.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const kinds[] = {
	[OPT_SIZE] = "size", [OPT_U64] = "number", [OPT_CHOICE] = "choice",
	[OPT_STRING] = "string", [OPT_FLAG] = "flag", [OPT_TASKS] = "tasks",
};

static int flushed(FILE *f)
{
	return fflush(f) == 0 && !ferror(f) ? 0 : 1;
}

/*
 * The option's current value as a command-line word, or NULL when the
 * option is off: a size of 0 (how a bench says "no stride", "no chunks"),
 * an unset string, a flag not given.
 */
static const char *opt_word(const struct bench_opt *o, char *buf, size_t len)
{
	const char *choice;

	switch (o->type) {
	case OPT_SIZE:
		if (*(uint64_t *)o->dest == 0)
			return NULL;
		/* fall through */
	case OPT_U64:
	case OPT_TASKS:
		snprintf(buf, len, "%" PRIu64, *(uint64_t *)o->dest);
		return buf;
	case OPT_CHOICE:
		choice = o->choices;
		for (int i = *(int *)o->dest; i > 0; i--)
			choice += strcspn(choice, "|") + 1;
		snprintf(buf, len, "%.*s", (int)strcspn(choice, "|"), choice);
		return buf;
	case OPT_STRING:
		return *(const char **)o->dest;
	case OPT_FLAG:
		return *(int *)o->dest ? "" : NULL;
	}
	return NULL;
}

int describe_metrics(FILE *f, const struct bench *b)
{
	char line[512];

	for (const struct bench_metric *m = b->metrics; m->name; m++) {
		output_describe(line, sizeof(line), m);
		fputs(line, f);
	}
	return flushed(f);
}

int describe_options(FILE *f, const struct bench *b)
{
	char buf[64];
	const char *def;

	for (const struct bench_opt *o = b->opts; o && o->name; o++) {
		def = opt_word(o, buf, sizeof(buf));
		if (o->type == OPT_FLAG)
			def = def ? "yes" : "no";
		fprintf(f, "%s\t%s\t%s\t%s\t%s\n", o->name, kinds[o->type], def ? def : "",
		       o->choices ? o->choices : "", o->help);
	}
	return flushed(f);
}

int describe_monitors(FILE *f, const struct bench *b)
{
	fprintf(f, "%s\n", b->monitors ? b->monitors : "");
	return flushed(f);
}

/*
 * So that a driver runs every iteration with the same bytes: a size capped
 * to MemAvailable must not shrink when other work on the machine grows.
 */
int describe_resolved(FILE *f, const struct bench *b)
{
	char buf[64];
	const char *word;

	for (const struct bench_opt *o = b->opts; o && o->name; o++) {
		word = opt_word(o, buf, sizeof(buf));
		if (!word)
			continue;
		fprintf(f, "--%s\n", o->name);
		if (o->type != OPT_FLAG)
			fprintf(f, "%s\n", word);
	}
	return flushed(f);
}
