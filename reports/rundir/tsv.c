/* Line reader for metrics.tsv and samples.tsv. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tsv.h"

int tsv_open(struct tsv *t, const char *path, struct err *e)
{
	*t = (struct tsv){ .path = path };
	t->f = fopen(path, "r");
	if (!t->f)
		return err_set(e, "%s: %s", path, strerror(errno));
	return 0;
}

int tsv_open_optional(struct tsv *t, const char *path, struct err *e)
{
	if (access(path, F_OK) && errno == ENOENT) {
		*t = (struct tsv){ .path = path };
		return 0;
	}
	return tsv_open(t, path, e) ? -1 : 1;
}

static void split(struct tsv *t, size_t len)
{
	char *p = t->buf;

	t->buf[len - 1] = '\0';
	t->nf = 0;
	for (;;) {
		if (t->nf == TSV_MAX_FIELDS) {
			t->nf++;	/* too many: callers see a wrong count */
			return;
		}
		t->field[t->nf++] = p;
		p = strchr(p, '\t');
		if (!p)
			return;
		*p++ = '\0';
	}
}

/* The next line into t->buf, its newline cut; 1, 0 at the end, or -1. */
static int read_line(struct tsv *t, size_t *len, struct err *e)
{
	ssize_t got = getline(&t->buf, &t->cap, t->f);

	if (got < 0) {
		if (ferror(t->f))
			return err_set(e, "%s: %s", t->path, strerror(errno));
		return 0;
	}
	t->line++;
	if (t->buf[got - 1] != '\n')
		return err_set(e, "%s:%zu: truncated line (no newline at the end of the file)",
			       t->path, t->line);
	if (memchr(t->buf, '\0', (size_t)got))
		return err_set(e, "%s:%zu: NUL byte in a text file", t->path, t->line);
	*len = (size_t)got;
	return 1;
}

int tsv_next(struct tsv *t, struct err *e)
{
	size_t len;
	int r = read_line(t, &len, e);

	if (r == 1)
		split(t, len);
	return r;
}

int tsv_next_line(struct tsv *t, struct err *e)
{
	size_t len;
	int r = read_line(t, &len, e);

	if (r == 1) {
		t->buf[len - 1] = '\0';
		t->nf = 1;
		t->field[0] = t->buf;
	}
	return r;
}

void tsv_close(struct tsv *t)
{
	if (t->f)
		fclose(t->f);
	free(t->buf);
	*t = (struct tsv){ 0 };
}
