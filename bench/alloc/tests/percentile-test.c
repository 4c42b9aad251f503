/* SPDX-License-Identifier: MIT */
/* lab/percentile.h against figures worked out by hand (TAP). */
#include <math.h>
#include <stdlib.h>

#include "lab/percentile.h"
#include "lab/tap.h"

int main(void)
{
	double v[1000], one[1] = { 7 };
	struct lab_ci c;

	/* 1000 values 1..1000, shuffled then sorted back. */
	for (int i = 0; i < 1000; i++)
		v[i] = (double)((i * 389) % 1000 + 1);
	lab_sort_doubles(v, 1000);
	tap_ok(v[0] == 1 && v[999] == 1000 && v[500] == 501, "sort: ascending 1..1000");
	/* p50: rank 500; CI half-width 1.96 sqrt(250) = 30.99: ranks 469 and 532 (+1 above). */
	c = lab_quantile_ci(v, 1000, 0.5);
	tap_ok(c.est == 500 && c.lo == 469 && c.hi == 532, "p50 of 1..1000: 500 [469, 532] (got %g [%g, %g])",
	       c.est, c.lo, c.hi);
	/* p99: rank 990; half-width 1.96 sqrt(9.9) = 6.17: ranks 983 and 997+1 = 998. */
	c = lab_quantile_ci(v, 1000, 0.99);
	tap_ok(c.est == 990 && c.lo == 983 && c.hi == 998, "p99 of 1..1000: 990 [983, 998] (got %g [%g, %g])",
	       c.est, c.lo, c.hi);
	/* Mean 500.5; sd of 1..1000 is 288.82; se 9.133; half-width 17.90. */
	c = lab_mean_ci(v, 1000);
	tap_ok(c.est == 500.5 && fabs(c.hi - c.est - 17.90) < 0.01 && fabs(c.est - c.lo - 17.90) < 0.01,
	       "mean of 1..1000: 500.5 +- 17.90 (got %g [%g, %g])", c.est, c.lo, c.hi);
	c = lab_quantile_ci(one, 1, 0.99);
	tap_ok(c.est == 7 && c.lo == 7 && c.hi == 7, "one sample: its value, interval clamped");
	c = lab_quantile_ci(v, 0, 0.5);
	tap_ok(isnan(c.est) && isnan(lab_mean_ci(v, 0).est), "no samples: NaN, not zero");
	return tap_done();
}
