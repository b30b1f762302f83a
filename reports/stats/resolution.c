/* The icount resolution table (see resolution.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolution.h"
#include "rundir/kvfile.h"
#include "rundir/tsv.h"

static int number(const struct tsv *t, const char *s, double *v, struct err *e)
{
	char *end;

	*v = strtod(s, &end);
	if (end == s || *end || *v < 0)
		return err_set(e, "%s:%zu: '%s' is not a spread (bench metric param cv range ...)", t->path, t->line, s);
	return 0;
}

/* The table's path: the tests give their own, as drivers/vm/resolution.sh reads it. */
static const char *table_path(const char *path, char *buf, size_t len)
{
	const char *root = getenv("MMDELTA_ROOT");

	if (path)
		return path;
	if (getenv("MMDELTA_RESOLUTION"))
		return getenv("MMDELTA_RESOLUTION");
	if (!root)
		return NULL;
	snprintf(buf, len, "%s/drivers/vm/resolution.tsv", root);
	return buf;
}

/*
 * Whether a line's param is the point's: the swept value itself, or
 * KEY=VALUE when the point's config has KEY at VALUE, swept or not (the
 * catalog's line STRESSOR=mremap is stress-ng-mremap's at every WORKERS).
 */
static int param_matches(const char *want, const char *param, const struct kvlist *config)
{
	const char *eq = strchr(want, '='), *swept, *value;
	char key[128];

	if (!eq)
		return !strcmp(want, param);
	if (!config || (size_t)(eq - want) >= sizeof(key))
		return 0;
	snprintf(key, sizeof(key), "%.*s", (int)(eq - want), want);
	swept = kv_get(config, "sweep");
	value = swept && !strcmp(swept, key) ? param : kv_get(config, key);
	return value && !strcmp(value, eq + 1);
}

int resolution_find(const char *path, const char *bench, const char *metric, const char *param,
		    const struct kvlist *config, struct resolution *out, struct err *e)
{
	char buf[4096];
	struct tsv t;
	int r, own, found = 0;

	memset(out, 0, sizeof(*out));
	if (!(path = table_path(path, buf, sizeof(buf))))
		return 0;
	if ((r = tsv_open_optional(&t, path, e)) <= 0)
		return r;
	while ((r = tsv_next(&t, e)) == 1) {
		struct resolution line = { 0 };

		if (t.field[0][0] == '#' || strcmp(t.field[0], bench) || t.nf < 5 || strcmp(t.field[1], metric))
			continue;
		if (number(&t, t.field[3], &line.cv, e) || number(&t, t.field[4], &line.range, e)) {
			r = -1;
			break;
		}
		snprintf(line.kernel, sizeof(line.kernel), "%s", t.nf > 6 ? t.field[6] : "");
		/* the point's own lines win (the widest of their kernels'); without one, the widest spread */
		own = param_matches(t.field[2], param, config);
		if (own ? found < 2 || line.range >= out->range : found < 2 && line.range >= out->range) {
			*out = line;
			found = own ? 2 : 1;
		}
	}
	tsv_close(&t);
	return r < 0 ? -1 : found > 0;
}
