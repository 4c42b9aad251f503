/* SPDX-License-Identifier: MIT */
/* Unit test of the A/B statistics (lab/ab.h) on known answers: the seed's hackbench result,
 * printed t-table points, identical samples and too few runs; the Welch interval, the exact
 * Mann-Whitney distribution and Hodges-Lehmann interval, Holm, runs needed and modes. */
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

static void test_welch_ci(void)
{
	/* The seed's figures: diff -0.91, se sqrt(.36^2/10 + .33^2/10) = 0.15443, t(0.05, 17.87)
	 * = 2.101, so the 95 % interval is -0.91 +- 0.3245. */
	struct lab_desc n = { 10, 41.37, NAN, 0.36, NAN, NAN };
	struct lab_desc y = { 10, 40.46, NAN, 0.33, NAN, NAN };
	struct lab_ab r = lab_ab_compare(&n, &y, 0.95);
	const double c[] = { 5, 5, 5 }, d[] = { 6, 6, 6 };
	struct lab_desc dc = lab_describe(c, 3), dd = lab_describe(d, 3);

	tap_ok(near(r.lo, -1.2345, 2e-3) && near(r.hi, -0.5855, 2e-3),
	       "seed: 95 %% CI of the difference [-1.234, -0.586] (got [%.4f, %.4f])", r.lo, r.hi);
	tap_ok(near(r.pct_lo, 100 * r.lo / 41.37, 1e-9) && near(r.pct_hi, 100 * r.hi / 41.37, 1e-9),
	       "the %% interval is relative to the base mean");
	r = lab_ab_compare(&dc, &dd, 0.95);
	tap_ok(r.lo == 1 && r.hi == 1, "no spread: the interval is the difference itself");
	r = lab_ab_compare(&dc, &dc, 0.95);
	tap_ok(r.lo == 0 && r.hi == 0 && r.pct_lo == 0, "identical constant samples: [0, 0]");
}

static void test_rank(void)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 11, 12, 13, 14, 15 };
	const double t1[] = { 1, 2, 2, 3 }, t2[] = { 2, 3, 3, 4 };
	struct lab_rank r;

	/* Exact null distribution of U: tables give P(U <= 2) = 4/252 at n = m = 5. */
	tap_ok(near(lab_mw_cdf(3, 3, 0), 1.0 / 20, 1e-12), "P(U <= 0), 3 vs 3 = 1/20");
	tap_ok(near(lab_mw_cdf(4, 4, 0), 1.0 / 70, 1e-12), "P(U <= 0), 4 vs 4 = 1/70");
	tap_ok(near(lab_mw_cdf(5, 5, 2), 4.0 / 252, 1e-12) && near(lab_mw_cdf(5, 5, 3), 7.0 / 252, 1e-12),
	       "P(U <= 2) = 4/252, P(U <= 3) = 7/252 at 5 vs 5");
	tap_ok(near(lab_mw_cdf(7, 4, 14), 1, 1e-12) == 0 && near(lab_mw_cdf(7, 4, 28), 1, 1e-12),
	       "P(U <= nm) = 1, and not before");

	r = lab_rank_compare(a, 5, b, 5, 0.95);
	tap_ok(r.u == 25 && near(r.p, 2.0 / 252, 1e-12), "complete separation 5 vs 5: U 25, p 2/252 (%.5f)", r.p);
	tap_ok(r.hl == 10, "Hodges-Lehmann shift 10 (%g)", r.hl);
	tap_ok(r.lo == 7 && r.hi == 13, "its interval [D(3), D(23)] = [7, 13] (got [%g, %g])", r.lo, r.hi);
	tap_ok(near(r.coverage, 1 - 8.0 / 252, 1e-12), "exact coverage 1 - 2 x 4/252 (%.4f)", r.coverage);
	tap_ok(near(r.pct, 1000.0 / 3, 1e-9), "%% of the base median 3 (%.2f)", r.pct);

	r = lab_rank_compare(a, 5, a, 5, 0.95);
	tap_ok(r.hl == 0 && r.p == 1 && r.u == 12.5, "a sample against itself: shift 0, p 1, U nm/2");
	r = lab_rank_compare(a, 3, b, 3, 0.95);
	tap_ok(isnan(r.lo) && isnan(r.hi) && near(r.p, 0.1, 1e-12),
	       "3 vs 3: no 95 %% interval exists, exact p 2/20 = 0.1 (%.3f)", r.p);
	/* Ties as midranks, counted by enumerating the 70 splits: pooled 1 2 2 2 3 3 3 4 ranks
	 * 1 3 3 3 6 6 6 8; other's W = 3 + 6 + 6 + 8 = 23, E = 18; 20 of the 70 splits lie 5 or
	 * more from 18. */
	r = lab_rank_compare(t1, 4, t2, 4, 0.95);
	tap_ok(r.u == 13 && near(r.p, 20.0 / 70, 1e-12), "ties: U 13, exact p 20/70 (%.5f)", r.p);
}

static void test_holm_runs_modes(void)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005 }, q[] = { 0.01, NAN, 0.02 };
	const double v[] = { 2.01, 1.0, 1.02, 2.0, 1.01 };
	double adj[4], c[4];
	int k[4], n;

	lab_holm(p, adj, 4);
	tap_ok(near(adj[0], 0.03, 1e-12) && near(adj[1], 0.06, 1e-12) && near(adj[2], 0.06, 1e-12) &&
	       near(adj[3], 0.02, 1e-12), "Holm: 0.01 0.04 0.03 0.005 -> 0.03 0.06 0.06 0.02");
	lab_holm(q, adj, 3);
	tap_ok(near(adj[0], 0.02, 1e-12) && isnan(adj[1]) && near(adj[2], 0.02, 1e-12),
	       "Holm: a NaN is no test (2 tests, not 3)");
	/* d = 1 sd, 80 % power at 5 %: 17 per group (any power table); a CI of +-1 sd: 9. */
	tap_ok(lab_runs_needed(1, 1, 0.05, 0.8) == 17, "runs for d = 1 at 80 %% power: 17 (%d)",
	       lab_runs_needed(1, 1, 0.05, 0.8));
	tap_ok(lab_runs_needed(1, 1, 0.05, 0) == 9, "runs for a CI of +-1 sd: 9 (%d)",
	       lab_runs_needed(1, 1, 0.05, 0));
	tap_ok(lab_runs_needed(0, 1, 0.05, 0.8) == 1 && lab_runs_needed(1, 0.001, 0.05, 0.8) == -1,
	       "no spread: 1 run; a hopeless change: -1");
	n = lab_modes(v, 5, 0.03, c, k, 4);
	tap_ok(n == 2 && near(c[0], 1.01, 1e-12) && k[0] == 3 && near(c[1], 2.005, 1e-12) && k[1] == 2,
	       "modes: 1.01 x3 and 2.005 x2 (%d modes)", n);
	tap_ok(lab_modes(v, 5, 1.0, c, k, 4) == 1 && k[0] == 5, "a wide gap: one mode");
}

int main(void)
{
	test_distribution();
	test_seed();
	test_samples();
	test_welch_ci();
	test_rank();
	test_holm_runs_modes();
	return tap_done();
}
