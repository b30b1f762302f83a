/*
 * mmci: the mean of the numbers on stdin and its 95% confidence interval.
 *   mmci < values   ->   n<TAB>mean<TAB>half_width<TAB>half_width_percent_of_mean
 * The percentage is "inf" when the mean is 0 or fewer than 2 values are read.
 */
#include <stdio.h>
#include <stdlib.h>

#include "meanci.h"

int main(void)
{
	size_t n = 0, cap = 64;
	double *x = malloc(cap * sizeof(*x)), v, half;
	struct summary s;
	char line[128], *end;

	if (!x)
		return 2;
	while (fgets(line, sizeof(line), stdin)) {
		v = strtod(line, &end);
		if (end == line || (*end != '\n' && *end != '\0')) {
			fprintf(stderr, "mmci: line %zu: not a number\n", n + 1);
			return 2;
		}
		if (n == cap && !(x = realloc(x, (cap *= 2) * sizeof(*x))))
			return 2;
		x[n++] = v;
	}
	if (n == 0) {
		fprintf(stderr, "mmci: no values\n");
		return 2;
	}
	summarize(x, n, &s);
	if (mean_ci_half(&s, 0.95, &half) || s.mean == 0)
		printf("%zu\t%.15g\tinf\tinf\n", n, s.mean);
	else
		printf("%zu\t%.15g\t%.15g\t%.15g\n", n, s.mean, half, 100.0 * half / (s.mean < 0 ? -s.mean : s.mean));
	free(x);
	return 0;
}
