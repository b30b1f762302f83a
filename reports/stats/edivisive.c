/*
 * E-divisive means with t-test significance (see edivisive.h), the way
 * Apache Otava applies it: E-divisive over half-overlapping windows of the
 * series (the statistic is O(n^2) in the window, and one window over a long
 * history misses changes in its middle), then a bottom-up merge that drops
 * the weakest change point until all that remain pass the test against
 * their neighbours.  The distance statistic reads the run means; the test
 * reads the runs' samples (segtest.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "edivisive.h"

/*
 * q-hat (Matteson & James 2014, alpha = 1) of x[a, t) against x[t, b):
 *   pq/(p+q) * (2/(pq) C - W_L / C(p,2) - W_R / C(q,2))
 * with C the sum of cross distances and W_L, W_R the sums of distances
 * within each side.  Moving t one to the right moves x[t] from the right
 * side to the left: one pass over the segment per t, O((b-a)^2) in all.
 */
size_t ed_best_split(const double *x, size_t a, size_t b, size_t min_seg,
		     double *q)
{
	size_t m = b - a, best = 0;
	double *row, wl = 0, wr = 0, c = 0;

	if (min_seg < 1)
		min_seg = 1;
	*q = 0;
	if (m < 2 * min_seg)
		return 0;
	row = calloc(m, sizeof(*row));
	if (!row)
		abort();
	for (size_t i = a; i < b; i++)
		for (size_t j = a; j < b; j++)
			row[i - a] += fabs(x[i] - x[j]);
	for (size_t i = 0; i < m; i++)
		wr += row[i] / 2;
	for (size_t t = a + 1; t + min_seg <= b; t++) {
		/* x[t-1] joins the left side */
		double left = 0;

		for (size_t j = a; j < t - 1; j++)
			left += fabs(x[t - 1] - x[j]);
		wl += left;
		wr -= row[t - 1 - a] - left;
		c += row[t - 1 - a] - 2 * left;
		double p = (double)(t - a), r = (double)(b - t), e = 2 * c / (p * r);

		if (p >= 2)
			e -= 2 * wl / (p * (p - 1));
		if (r >= 2)
			e -= 2 * wr / (r * (r - 1));
		e *= p * r / (p + r);
		if (t - a >= min_seg && (!best || e > *q)) {
			best = t;
			*q = e;
		}
	}
	free(row);
	return best;
}

void ed_test(const struct run_point *pt, size_t a, size_t t, size_t b, size_t min_seg,
	     struct seg_test *out)
{
	size_t positions = b - a + 1 > 2 * min_seg ? b - a + 1 - 2 * min_seg : 1;

	seg_compare(pt, a, t, b, out);
	out->p_scan = fmin(1.0, out->p * (double)positions);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * Split pt[ws, we) top-down: the best split of any of its current segments
 * is added while the test finds it significant at max_p.  Appends the new
 * change points to cp[*k...].
 */
static void split_window(const struct run_point *pt, const double *x, size_t ws,
			 size_t we, const struct ed_opts *o, double max_p,
			 size_t *cp, size_t *k)
{
	size_t first = *k;

	for (;;) {
		size_t nb = *k - first, best_t = 0, best_a = 0, best_b = 0;
		double best_q = -INFINITY, q;
		struct seg_test st;

		qsort(cp + first, nb, sizeof(*cp), cmp_size);
		for (size_t i = 0; i <= nb; i++) {
			size_t a = i ? cp[first + i - 1] : ws, b = i < nb ? cp[first + i] : we;
			size_t t = ed_best_split(x, a, b, o->min_seg, &q);

			if (t && q > best_q) {
				best_q = q;
				best_t = t;
				best_a = a;
				best_b = b;
			}
		}
		if (!best_t)
			return;
		seg_compare(pt, best_a, best_t, best_b, &st);
		if (st.p > max_p)
			return;
		cp[(*k)++] = best_t;
	}
}

/*
 * Drop the weakest change point (largest p) while any fails max_p; each
 * removal merges two segments, so its neighbours are tested again.
 */
static size_t merge(const struct run_point *pt, size_t n, const struct ed_opts *o,
		    size_t *cp, size_t k)
{
	struct seg_test *st = calloc(k ? k : 1, sizeof(*st));

	if (!st)
		abort();
	for (size_t i = 0; i < k; i++)
		ed_test(pt, i ? cp[i - 1] : 0, cp[i], i + 1 < k ? cp[i + 1] : n, o->min_seg, &st[i]);
	while (k) {
		size_t w = 0;

		for (size_t i = 1; i < k; i++)
			if (st[i].p_scan > st[w].p_scan)
				w = i;
		if (st[w].p_scan <= o->max_p)
			break;
		memmove(cp + w, cp + w + 1, (k - w - 1) * sizeof(*cp));
		memmove(st + w, st + w + 1, (k - w - 1) * sizeof(*st));
		k--;
		for (size_t i = w ? w - 1 : 0; i <= w && i < k; i++)
			ed_test(pt, i ? cp[i - 1] : 0, cp[i], i + 1 < k ? cp[i + 1] : n, o->min_seg, &st[i]);
	}
	free(st);
	return k;
}

size_t ed_change_points(const struct run_point *pt, size_t n,
			const struct ed_opts *o, size_t *cp)
{
	size_t k = 0, start = 0, step = o->window / 2 ? o->window / 2 : 1;
	double *x = malloc((n ? n : 1) * sizeof(*x));

	if (!x)
		abort();
	for (size_t i = 0; i < n; i++)
		x[i] = pt[i].mean;
	while (start < n) {
		size_t end = start + o->window < n ? start + o->window : n, before = k;

		split_window(pt, x, start, end, o, fmin(1.0, 10 * o->max_p), cp, &k);
		if (end == n)
			break;
		start += step;
		for (size_t i = before; i < k; i++)
			if (cp[i] > start)
				start = cp[i];
	}
	free(x);
	qsort(cp, k, sizeof(*cp), cmp_size);
	return merge(pt, n, o, cp, k);
}
