/* Line reader for metrics.tsv and samples.tsv. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tsv.h"

int tsv_open(struct tsv *t, const char *path, struct err *e)
{
	*t = (struct tsv){ .path = path };
	t->f = fopen(path, "r");
	if (!t->f)
		return err_set(e, "%s: %s", path, strerror(errno));
	return 0;
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

int tsv_next(struct tsv *t, struct err *e)
{
	ssize_t len = getline(&t->buf, &t->cap, t->f);

	if (len < 0) {
		if (ferror(t->f))
			return err_set(e, "%s: %s", t->path, strerror(errno));
		return 0;
	}
	t->line++;
	if (t->buf[len - 1] != '\n')
		return err_set(e, "%s:%zu: truncated line (no newline at the end of the file)",
			       t->path, t->line);
	if (memchr(t->buf, '\0', (size_t)len))
		return err_set(e, "%s:%zu: NUL byte in a text file", t->path, t->line);
	split(t, (size_t)len);
	return 1;
}

void tsv_close(struct tsv *t)
{
	if (t->f)
		fclose(t->f);
	free(t->buf);
	*t = (struct tsv){ 0 };
}
