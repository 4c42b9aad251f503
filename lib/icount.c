/* SPDX-License-Identifier: MIT */
/* Exact instruction counts per operation under QEMU icount; see lab/icount.h. */
#include <math.h>

#include "lab/arch.h"
#include "lab/icount.h"

static uint64_t ticks_of(const struct lab_case *c, uint64_t n)
{
	unsigned long long t0, t1;

	t0 = lab_ticks();
	c->loop(n);
	t1 = lab_ticks();
	return t1 - t0;
}

double lab_icount_from_minima(uint64_t min1n, uint64_t min2n, uint64_t n)
{
	if (n == 0 || min2n < min1n)
		return NAN;
	return (double)(min2n - min1n) / (double)n;
}

double lab_icount_per_op(const struct lab_case *c, uint64_t n)
{
	uint64_t min1 = UINT64_MAX, min2 = UINT64_MAX;

	if (c->enter)
		c->enter();
	c->loop(n); /* warm-up: first-touch page faults, lazy registration */
	for (int k = 0; k < LAB_ICOUNT_TRIES; k++) {
		uint64_t a = ticks_of(c, n), b = ticks_of(c, 2 * n);

		min1 = a < min1 ? a : min1;
		min2 = b < min2 ? b : min2;
	}
	return lab_icount_from_minima(min1, min2, n);
}
