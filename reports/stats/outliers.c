/*
 * Isolated outlier runs (see outliers.h).  Medians, not means, of each
 * side: a second bad night among the neighbours moves neither.  The scale
 * is the median of |x[i] - x[i-1]| over the series, / (0.6745 * sqrt 2) the
 * standard deviation of one run mean if runs were independent: a step adds
 * one large difference and an outlier two, which the median ignores, so a
 * level shift does not widen it as the variance would.  Judging a run
 * against each side separately keeps the first runs of a new level from
 * looking like outliers: they are close to the runs after them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "outliers.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0, n), n >= 1; v is reordered. */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double side_median(const struct run_point *pt, size_t a, size_t b)
{
	double v[OUTLIER_SIDE];

	for (size_t i = a; i < b; i++)
		v[i - a] = pt[i].mean;
	return median(v, b - a);
}

/* The robust scale, never below the run means' own standard error (the
 * samples' noise), nor 0 where rounding differs (the icount clock). */
static double scale(const struct run_point *pt, size_t n)
{
	double *v = malloc(n * sizeof(*v)), s, se, level;

	if (!v)
		abort();
	for (size_t i = 1; i < n; i++)
		v[i - 1] = fabs(pt[i].mean - pt[i - 1].mean);
	s = median(v, n - 1) / (0.6745 * sqrt(2));
	for (size_t i = 0; i < n; i++)
		v[i] = pt[i].n ? sqrt(pt[i].var / (double)pt[i].n) : 0;
	se = median(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(pt[i].mean);
	level = median(v, n);
	free(v);
	return fmax(fmax(s, se), 1e-9 * level);
}

/* +1 or -1 when run i is far above or below both sides, else 0. */
static int judge(const struct run_point *pt, size_t n, size_t i, double limit)
{
	size_t la = i > OUTLIER_SIDE ? i - OUTLIER_SIDE : 0;
	size_t rb = i + 1 + OUTLIER_SIDE < n ? i + 1 + OUTLIER_SIDE : n;
	double dl = pt[i].mean - side_median(pt, la, i), dr = pt[i].mean - side_median(pt, i + 1, rb);

	if (fabs(dl) <= limit || fabs(dr) <= limit || (dl > 0) != (dr > 0))
		return 0;
	return dr > 0 ? 1 : -1;
}

size_t outlier_runs(const struct run_point *pt, size_t n, size_t min_seg, unsigned char *flag)
{
	signed char *dir;
	size_t count = 0;
	double limit;

	memset(flag, 0, n);
	/* too short for a change point: nothing to protect */
	if (n < 2 * min_seg || n < 4)
		return 0;
	dir = calloc(n, 1);
	if (!dir)
		abort();
	limit = OUTLIER_SIGMAS * scale(pt, n);
	/* one side alone cannot tell an outlier from the first run of a level */
	for (size_t i = 2; i + 2 < n; i++)
		dir[i] = (signed char)judge(pt, n, i, limit);
	/* min_seg outliers in a row, the same way off, are a level of their own */
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && dir[j] && dir[j] == dir[i])
			j++;
		if (j == i) {
			i++;
			continue;
		}
		for (size_t k = i; k < j; k++)
			flag[k] = j - i < min_seg;
		count += j - i < min_seg ? j - i : 0;
		i = j;
	}
	free(dir);
	return count;
}

void kept_runs_make(const struct run_point *pt, size_t n, size_t min_seg, int keep_all,
		    struct kept_runs *k)
{
	*k = (struct kept_runs){ .pt = malloc((n + 1) * sizeof(*k->pt)),
				 .orig = malloc((n + 1) * sizeof(*k->orig)), .outlier = calloc(n + 1, 1) };
	if (!k->pt || !k->orig || !k->outlier)
		abort();
	if (!keep_all)
		k->n_outliers = outlier_runs(pt, n, min_seg, k->outlier);
	for (size_t i = 0; i < n; i++)
		if (!k->outlier[i]) {
			k->pt[k->n] = pt[i];
			k->orig[k->n++] = i;
		}
}

void kept_runs_free(struct kept_runs *k)
{
	free(k->pt);
	free(k->orig);
	free(k->outlier);
	*k = (struct kept_runs){ 0 };
}
