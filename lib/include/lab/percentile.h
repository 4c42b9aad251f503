/* SPDX-License-Identifier: MIT */
/*
 * Latency distributions: the mean and quantiles of a sample with 95 % confidence intervals.
 * Quantile intervals are distribution-free (order statistics: the ranks between which the true
 * quantile lies with 95 % probability, binomial ranks by the normal approximation); the mean's
 * is mean +- 1.96 standard errors. Both assume independent samples, which request times in a
 * run are not (they come in bursts): lab_across_ci is the interval to quote, over one summary
 * (a quantile, a mean) per repetition.
 */
#ifndef LAB_PERCENTILE_H
#define LAB_PERCENTILE_H

#include <stddef.h>

struct lab_ci {
	double est, lo, hi; /* NaN when the sample is empty */
};

/* Sort v in place, ascending. */
void lab_sort_doubles(double *v, size_t n);

/* The q-quantile (0 < q < 1) of a sorted sample: the order statistic of rank ceil(n q)
 * (nearest rank), and the order statistics bounding its 95 % interval. */
struct lab_ci lab_quantile_ci(const double *sorted, size_t n, double q);

/* The mean and its 95 % interval (normal approximation). */
struct lab_ci lab_mean_ci(const double *v, size_t n);

/* The mean of n per-repetition values and its 95 % Student t interval (n - 1 degrees of
 * freedom); est alone (lo, hi NaN) when n is 1. */
struct lab_ci lab_across_ci(const double *v, size_t n);

/* The two-sided 95 % critical value of Student's t with df degrees of freedom (NaN below 1). */
double lab_t95(size_t df);

#endif
