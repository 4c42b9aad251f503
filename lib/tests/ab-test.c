/* SPDX-License-Identifier: MIT */
/* Unit test of the A/B statistics (lab/ab.h) on known answers: the seed's hackbench result,
 * printed t-table points, identical samples and too few runs. */
#include <math.h>
#include <string.h>

#include "lab/ab.h"
#include "lab/tap.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static void test_distribution(void)
{
	/* Two-sided 5 % points of Student's t, from any printed t table. */
	static const struct { double t, df; } pts[] = {
		{ 12.706, 1 }, { 4.303, 2 }, { 2.571, 5 }, { 2.228, 10 }, { 2.101, 18 }, { 2.042, 30 },
		{ 1.960, 1e7 },
	};

	for (unsigned i = 0; i < sizeof(pts) / sizeof(pts[0]); i++) {
		double p = lab_t_pvalue(pts[i].t, pts[i].df);

		tap_ok(near(p, 0.05, 5e-4), "p(|T| >= %.3f, df %g) = 0.05 (got %.5f)", pts[i].t,
		       pts[i].df, p);
	}
	tap_ok(near(lab_t_pvalue(0, 7), 1, 1e-12), "p at t = 0 is 1");
	tap_ok(near(lab_t_pvalue(-2.228, 10), lab_t_pvalue(2.228, 10), 1e-15), "p is two-sided");
	tap_ok(near(lab_t_pvalue(3.169, 10), 0.01, 1e-4), "p(3.169, df 10) = 0.01");
	tap_ok(near(lab_betai(2, 2, 0.5), 0.5, 1e-12) && near(lab_betai(1, 1, 0.3), 0.3, 1e-12),
	       "I_x(a, b) symmetric and uniform cases");
	/* I_x(a, 1) = x^a */
	tap_ok(near(lab_betai(3.5, 1, 0.7), pow(0.7, 3.5), 1e-12), "I_x(a, 1) = x^a");
	tap_ok(near(lab_t_quantile(0.05, 4), 2.776, 1e-3) && near(lab_t_quantile(0.05, 9), 2.262, 1e-3),
	       "t quantiles: 2.776 (df 4), 2.262 (df 9)");
	tap_ok(isnan(lab_t_pvalue(1, 0)) && isnan(lab_betai(1, 1, 1.5)), "bad arguments give NaN");
}

static void test_seed(void)
{
	/* The seed commit: 10 runs of hackbench -l 100000, RSEQ=n 41.37 s (sd 0.36), RSEQ=y
	 * 40.46 s (sd 0.33). */
	struct lab_desc n = { 10, 41.37, NAN, 0.36, NAN, NAN };
	struct lab_desc y = { 10, 40.46, NAN, 0.33, NAN, NAN };
	struct lab_ab r = lab_ab_compare(&n, &y, 0.95);
	char m[32];

	tap_ok(near(fabs(r.t), 5.89, 0.01), "seed: Welch's t = 5.9 (got %.3f)", r.t);
	tap_ok(near(r.df, 17.87, 0.02), "seed: Welch-Satterthwaite df 17.87 (got %.2f)", r.df);
	tap_ok(r.p < 1e-4, "seed: p < 0.0001 (got %.2g)", r.p);
	tap_ok(r.verdict == LAB_AB_SIGNIFICANT, "seed: significant at 95 %%");
	tap_ok(near(r.pct, -2.1997, 1e-3), "seed: -2.20 %% change (got %.4f)", r.pct);
	tap_ok(!strcmp(lab_ab_marker(&r, m, sizeof(m)), "*-2.20%*"), "seed marker *-2.20%%* (%s)", m);

	/* Same means and sds with 3 runs a side: the difference is no longer shown. */
	n.n = y.n = 3;
	r = lab_ab_compare(&n, &y, 0.95);
	tap_ok(r.verdict == LAB_AB_SIGNIFICANT, "seed figures at n=3 still significant (t %.2f, p %.3f)",
	       r.t, r.p);
	n.sd = y.sd = 1.0;
	r = lab_ab_compare(&n, &y, 0.95);
	tap_ok(r.verdict == LAB_AB_NOT_SIGNIFICANT, "sd 1.0 at n=3: not significant (p %.3f)", r.p);
	tap_ok(!strcmp(lab_ab_marker(&r, m, sizeof(m)), "(-2.20%)"), "marker (-2.20%%) (%s)", m);
}

static void test_samples(void)
{
	const double a[] = { 41.0, 41.5, 41.2, 41.8, 41.3 };
	const double few[] = { 40.0, 40.1 };
	struct lab_desc da = lab_describe(a, 5), db = lab_describe(a, 5), df = lab_describe(few, 2);
	struct lab_ab r = lab_ab_compare(&da, &db, 0.95);
	char m[32];

	tap_ok(near(da.mean, 41.36, 1e-9) && near(da.median, 41.3, 1e-9), "mean 41.36, median 41.3");
	tap_ok(near(da.sd, 0.30496, 1e-5), "sample sd divides by n - 1 (%.5f)", da.sd);
	tap_ok(da.min == 41.0 && da.max == 41.8 && da.n == 5, "min, max and n");
	tap_ok(r.diff == 0 && r.pct == 0 && r.verdict == LAB_AB_NOT_SIGNIFICANT,
	       "identical samples: no difference (%s, p %.3f)", lab_ab_verdict_name(r.verdict), r.p);

	r = lab_ab_compare(&da, &df, 0.95);
	tap_ok(r.verdict == LAB_AB_TOO_FEW && isnan(r.t), "2 runs on a side: too few runs, no t");
	tap_ok(!strcmp(lab_ab_marker(&r, m, sizeof(m)), "(too few)"), "marker says too few");
	r = lab_ab_compare(&df, &da, 0.95);
	tap_ok(r.verdict == LAB_AB_TOO_FEW, "too few on the base side too");

	/* No spread at all */
	{
		const double c[] = { 5, 5, 5 }, d[] = { 6, 6, 6 };
		struct lab_desc dc = lab_describe(c, 3), dd = lab_describe(d, 3);

		r = lab_ab_compare(&dc, &dc, 0.95);
		tap_ok(r.verdict == LAB_AB_IDENTICAL, "constant equal samples: no difference");
		r = lab_ab_compare(&dc, &dd, 0.95);
		tap_ok(r.verdict == LAB_AB_SIGNIFICANT && near(r.pct, 20, 1e-9),
		       "constant unequal samples: +20 %% significant");
	}
	tap_ok(isnan(lab_sd(a, 1)) && isnan(lab_mean(a, 0)), "sd of one value and mean of none are NaN");
}

int main(void)
{
	test_distribution();
	test_seed();
	test_samples();
	return tap_done();
}
