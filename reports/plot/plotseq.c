/*
 * The run-sequence plot's data: each run's values in the order run.sh
 * measured them, per swept value its warm-ups, then its counted iterations.
 * Without a sweep the position is the iteration number (warm-ups at 0, -1,
 * ...), so drift and a slow first iteration show directly.
 */
#include <stdlib.h>

#include "plotseq.h"

/* Warm-ups of the first swept value with samples: they sit at 0, -1, ... */
static size_t first_warmups(const struct plot *pl, size_t r)
{
	const struct bench_data *d = &pl->b->data;

	for (size_t p = 0; p < d->n_params; p++)
		if (bench_cell(d, p, r, pl->m)->n)
			return bench_warmups(d, p, r, pl->m)->n;
	return 0;
}

/*
 * One gnuplot data block per run (two blank lines apart: gnuplot's `index`
 * addresses runs by block), rows "position value warm-up(0|1) colour", a
 * blank line between swept values so no line joins them.  For the
 * baseline, each swept value's start goes to marks.gp as a separator.
 * Returns the last position; first gets the first.
 */
static long run_block(const struct plot *pl, size_t r, FILE *seq, FILE *marks, long *first)
{
	const struct bench_data *d = &pl->b->data;
	long c = strtol(run_color(r), NULL, 16), pos = -(long)first_warmups(pl, r);
	int any = 0;

	if (pos + 1 < *first)
		*first = pos + 1;
	for (size_t p = 0; p < d->n_params; p++) {
		const struct series *s = bench_cell(d, p, r, pl->m);
		const struct series *w = bench_warmups(d, p, r, pl->m);

		if (!s->n)
			continue;
		if (marks) {
			fprintf(marks, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 3 lc rgb '#999999'\n",
				pos + 0.5, pos + 0.5);
			fputs("set label ", marks);
			gp_str(marks, d->params[p]);
			fprintf(marks, " at %g, graph 0.97 left offset 0.5, 0 tc rgb '#666666'\n", pos + 0.5);
		}
		if (any++)
			fputc('\n', seq);
		for (size_t i = 0; i < w->n; i++)
			fprintf(seq, "%ld\t%.10g\t1\t%ld\n", ++pos, w->v[i] / pl->sc.div, c);
		for (size_t i = 0; i < s->n; i++)
			fprintf(seq, "%ld\t%.10g\t0\t%ld\n", ++pos, s->v[i] / pl->sc.div, c);
	}
	/* a run without this metric still needs its (empty) block */
	if (!any)
		fputs("1\tNaN\t0\t0\n", seq);
	fputs("\n\n", seq);
	return pos;
}

/* Tics on whole iterations only (gnuplot would put some at 0.5), at most ~12. */
static long tic_step(long span)
{
	static const long steps[] = { 1, 2, 5 };
	long scale = 1;

	for (;; scale *= 10)
		for (int i = 0; i < 3; i++)
			if (span / (steps[i] * scale) <= 12)
				return steps[i] * scale;
}

/* seq.dat, and marks.gp: the x axis's tics and the swept values' separators. */
int plot_runseq(const struct plot *pl, struct err *e)
{
	FILE *seq = plot_file(pl, "seq.dat", e), *marks = seq ? plot_file(pl, "marks.gp", e) : NULL;

	if (!marks) {
		if (seq)
			fclose(seq);
		return -1;
	}
	long first = 1, last = 1, end;

	for (size_t r = 0; r < pl->rep->n_runs; r++) {
		end = run_block(pl, r, seq, r == 0 && pl->b->data.n_params > 1 ? marks : NULL, &first);
		last = end > last ? end : last;
	}
	fprintf(marks, "set xtics %ld\n", tic_step(last - first));
	if (plot_close(marks, pl, "marks.gp", e)) {
		fclose(seq);
		return -1;
	}
	return plot_close(seq, pl, "seq.dat", e);
}
