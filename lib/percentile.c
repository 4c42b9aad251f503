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

/* Student's t at 0.975 for df 1..30 (the textbook table); beyond it the Cornish-Fisher
 * expansion in 1/df, within 1e-4 of the exact value there. */
double lab_t95(size_t df)
{
	static const double t[] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
				    2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
				    2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
				    2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
	double z = Z95, d = (double)df;

	if (df < 1)
		return NAN;
	if (df <= 30)
		return t[df - 1];
	return z + (z * z * z + z) / (4 * d) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

struct lab_ci lab_across_ci(const double *v, size_t n)
{
	struct lab_ci ci = { NAN, NAN, NAN };
	double sum = 0, ss = 0, half;

	if (!n)
		return ci;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	ci.est = sum / (double)n;
	if (n < 2)
		return ci;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - ci.est) * (v[i] - ci.est);
	half = lab_t95(n - 1) * sqrt(ss / (double)(n - 1) / (double)n);
	ci.lo = ci.est - half;
	ci.hi = ci.est + half;
	return ci;
}
