/* SPDX-License-Identifier: MIT */
/* Quantiles and means with confidence intervals; see lab/percentile.h. */
#include <math.h>
#include <stdlib.h>

#include "lab/percentile.h"

#define Z95 1.959963984540054

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void lab_sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp);
}

/* The value of 1-based rank r, clamped to [1, n]. */
static double at_rank(const double *s, size_t n, double r)
{
	if (r < 1)
		r = 1;
	if (r > (double)n)
		r = (double)n;
	return s[(size_t)r - 1];
}

struct lab_ci lab_quantile_ci(const double *s, size_t n, double q)
{
	struct lab_ci ci = { NAN, NAN, NAN };
	double nq = (double)n * q, half;

	if (!n || q <= 0 || q >= 1)
		return ci;
	half = Z95 * sqrt(nq * (1 - q));
	ci.est = at_rank(s, n, ceil(nq));
	ci.lo = at_rank(s, n, floor(nq - half));
	ci.hi = at_rank(s, n, ceil(nq + half) + 1);
	return ci;
}

struct lab_ci lab_mean_ci(const double *v, size_t n)
{
	struct lab_ci ci = { NAN, NAN, NAN };
	double sum = 0, ss = 0, mean, se;

	if (!n)
		return ci;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	se = n > 1 ? sqrt(ss / (double)(n - 1) / (double)n) : 0;
	ci.est = mean;
	ci.lo = mean - Z95 * se;
	ci.hi = mean + Z95 * se;
	return ci;
}
