#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "plot/plotfile.h"
#include "plot/plotwhere.h"
#include "profile/where.h"

/* The functions, without the insns block's [rest]. */
static size_t bars(const struct where_block *w)
{
	return w->kind == PROFILE_INSNS && w->n ? w->n - 1 : w->n;
}

static int write_block(const struct report *rep, const struct where_block *w, const char *dir, FILE *list,
		       struct err *e)
{
	const char *bench = rep->benches[w->bench].data.name, *tasks = w->of_tasks ? "tasks-" : "";
	char title[256];
	struct plot pl = { .rep = rep, .b = &rep->benches[w->bench] };
	FILE *f;

	snprintf(pl.dir, sizeof(pl.dir), "%s/where-%s%s-%zu-%zu", dir, tasks, bench, w->param, w->run);
	snprintf(title, sizeof(title), "%s%s%s%s", bench, *w->point ? " " : "", w->point,
		 w->of_tasks ? ", its task regions" : "");
	if (mkdir(pl.dir, 0777) && errno != EEXIST)
		return err_set(e, "--plot-data %s: %s", pl.dir, strerror(errno));
	if (!(f = plot_file(&pl, "vars.gp", e)))
		return -1;
	fprintf(f, "TITLE = ");
	gp_str(f, title);
	fprintf(f, "\nYLABEL = ''\nXLABEL = ");
	gp_str(f, w->kind == PROFILE_INSNS ? "change of instructions per iteration" : "change of the share of samples, points");
	fprintf(f, "\nNROWS = %zu\nNAME_BASE = ", bars(w));
	gp_str(f, rep->runs[0].name);
	fprintf(f, "\nNAME_NEW = ");
	gp_str(f, rep->runs[w->run].name);
	fputc('\n', f);
	if (plot_close(f, &pl, "vars.gp", e) || !(f = plot_file(&pl, "where.dat", e)))
		return -1;
	/* the largest change on top: row 0 at the highest y */
	for (size_t i = 0; i < bars(w); i++)
		fprintf(f, "%zu\t%.17g\t\"%s\"\n", bars(w) - 1 - i, w->rows[i].change, w->rows[i].name);
	if (plot_close(f, &pl, "where.dat", e))
		return -1;
	fprintf(list, "%s\twhere\twhere\twhere-%s%s-%zu-%zu\t\n", bench, tasks, bench, w->param, w->run);
	return 0;
}

int plot_where_write(const struct report *rep, const char *dir, struct err *e)
{
	char path[4200];
	FILE *list;
	int ret = 0;

	if (!rep->where)
		return 0;
	snprintf(path, sizeof(path), "%s/plots.list", dir);
	if (!(list = fopen(path, "a")))
		return err_set(e, "--plot-data %s: %s", path, strerror(errno));
	for (size_t i = 0; i < rep->where->n && !ret; i++) {
		const struct where_block *w = &rep->where->blocks[i];

		if (!w->none && bars(w))
			ret = write_block(rep, w, dir, list, e);
		if (!ret && w->tasks && bars(w->tasks))
			ret = write_block(rep, w->tasks, dir, list, e);
	}
	if ((ferror(list) | fclose(list)) && !ret)
		ret = err_set(e, "--plot-data %s: %s", path, strerror(errno));
	return ret;
}
