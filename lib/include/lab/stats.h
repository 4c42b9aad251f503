/* SPDX-License-Identifier: MIT */
/* Arithmetic of the benches, apart from any printing: per-op figures and a summary of reps. */
#ifndef LAB_STATS_H
#define LAB_STATS_H

#include <stdint.h>

struct lab_summary {
	double median, min, max;
	double spread; /* (max - min) / median, a fraction; NaN when the median is 0 */
};

/* total / ops, NaN when ops is 0. */
double lab_per_op(double total, uint64_t ops);

/* Summary of n values (n >= 1); v is left as it was. NaN fields when n is 0. */
struct lab_summary lab_summarize(const double *v, int n);

/* a / b, NaN when either is NaN or b is 0. */
double lab_ratio(double a, double b);

#endif
