/* SPDX-License-Identifier: MIT */
/* Per-op figures and the summary of repetitions; no printing here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab/stats.h"

double lab_per_op(double total, uint64_t ops)
{
	return ops ? total / (double)ops : NAN;
}

double lab_ratio(double a, double b)
{
	if (isnan(a) || isnan(b) || b == 0)
		return NAN;
	return a / b;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct lab_summary lab_summarize(const double *v, int n)
{
	struct lab_summary s = { NAN, NAN, NAN, NAN };
	double *sorted;

	if (n <= 0 || !(sorted = malloc(n * sizeof(*sorted))))
		return s;
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	s.min = sorted[0];
	s.max = sorted[n - 1];
	s.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	s.spread = lab_ratio(s.max - s.min, s.median);
	free(sorted);
	return s;
}
