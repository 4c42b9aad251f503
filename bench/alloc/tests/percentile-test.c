/* SPDX-License-Identifier: MIT */
/* lab/percentile.h against figures worked out by hand (TAP). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "lab/percentile.h"
#include "lab/tap.h"

/* A standard normal from xorshift64 (Box-Muller); deterministic per seed. */
static double normal(uint64_t *x)
{
	double u[2];

	for (int i = 0; i < 2; i++) {
		*x ^= *x << 13;
		*x ^= *x >> 7;
		*x ^= *x << 17;
		u[i] = ((double)(*x >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

/*
 * Request times come in runs: an AR(1) series (phi 0.95, ~40 samples per independent one) cut
 * into R reps, its true p99 known (2.3263 stationary sds). Over many trials the pooled
 * order-statistic interval, which takes every sample as independent, must miss the truth
 * often; the t interval over the R per-rep p99s must cover it about 95 % of the time.
 */
#define AR_PHI 0.95
#define AR_REPS 8
#define AR_PER_REP 8000
#define AR_TRIALS 100
static void autocorrelated(void)
{
	static double all[AR_REPS * AR_PER_REP], rep[AR_PER_REP];
	double sd = 1 / sqrt(1 - AR_PHI * AR_PHI), truth = 2.3263478740 * sd, p99[AR_REPS];
	int pooled_in = 0, across_in = 0;
	uint64_t x = 0x2545f4914f6cdd1dull;

	for (int t = 0; t < AR_TRIALS; t++) {
		double v = normal(&x) * sd;
		struct lab_ci pc, ac;

		for (int i = 0; i < AR_REPS * AR_PER_REP; i++) {
			v = AR_PHI * v + normal(&x);
			all[i] = v;
		}
		for (int r = 0; r < AR_REPS; r++) {
			for (int i = 0; i < AR_PER_REP; i++)
				rep[i] = all[r * AR_PER_REP + i];
			lab_sort_doubles(rep, AR_PER_REP);
			p99[r] = lab_quantile_ci(rep, AR_PER_REP, 0.99).est;
		}
		lab_sort_doubles(all, AR_REPS * AR_PER_REP);
		pc = lab_quantile_ci(all, AR_REPS * AR_PER_REP, 0.99);
		ac = lab_across_ci(p99, AR_REPS);
		pooled_in += pc.lo <= truth && truth <= pc.hi;
		across_in += ac.lo <= truth && truth <= ac.hi;
	}
	tap_ok(pooled_in < AR_TRIALS * 6 / 10,
	       "autocorrelated p99: the pooled order-statistic interval is too narrow "
	       "(covers the truth %.2f in %d of %d trials)", truth, pooled_in, AR_TRIALS);
	tap_ok(across_in >= AR_TRIALS * 88 / 100,
	       "autocorrelated p99: the t interval over %d per-rep p99s covers the truth in %d of "
	       "%d trials (95 %% nominal)", AR_REPS, across_in, AR_TRIALS);
}

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
	/* t at 0.975: the table's ends and the expansion beyond it (t(40) 2.0211, t(120) 1.9799). */
	tap_ok(lab_t95(1) == 12.706 && lab_t95(7) == 2.365 && fabs(lab_t95(40) - 2.0211) < 2e-4 &&
	       fabs(lab_t95(120) - 1.9799) < 2e-4 && isnan(lab_t95(0)),
	       "t95: 12.706 (1), 2.365 (7), %.4f (40), %.4f (120)", lab_t95(40), lab_t95(120));
	/* Reps 10, 12, 14, 16: mean 13, sd 2.582, se 1.291, t(3) 3.182: 13 +- 4.108. */
	{
		double r[4] = { 10, 12, 14, 16 };

		c = lab_across_ci(r, 4);
		tap_ok(c.est == 13 && fabs(c.hi - 17.108) < 1e-3 && fabs(c.lo - 8.892) < 1e-3,
		       "across reps 10,12,14,16: 13 [8.892, 17.108] (got %g [%g, %g])", c.est, c.lo,
		       c.hi);
		c = lab_across_ci(r, 1);
		tap_ok(c.est == 10 && isnan(c.lo) && isnan(c.hi), "one rep: its value, no interval");
	}
	autocorrelated();
	return tap_done();
}
