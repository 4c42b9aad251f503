/* SPDX-License-Identifier: MIT */
/* Unit test of the paired designs, Fieller's interval and boots needed (lab/ab-paired.h) on
 * known answers computed by hand (the sums are in the comments). */
#include <math.h>

#include "lab/ab-paired.h"
#include "lab/tap.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

/* Batches that differ by 10 from each other, the other variant 1 higher in every one. */
static const double blk_b[] = { 100, 110, 120, 130, 140 };
static const double blk_o[] = { 101.1, 110.9, 121.0, 131.2, 140.8 };

static void test_blocked(void)
{
	struct lab_desc db = lab_describe(blk_b, 5), dd = lab_describe(blk_o, 5);
	struct lab_ab w = lab_ab_compare(&db, &dd, 0.95);
	struct lab_ab p = lab_paired_compare(blk_b, blk_o, 5, 0.95);

	/* Welch: diff 1, sd 15.8 a side: t 0.1 */
	tap_ok(w.verdict == LAB_AB_NOT_SIGNIFICANT && w.p > 0.9,
	       "blocked data, unpaired: not significant (Welch p %.3f)", w.p);
	/* differences 1.1 0.9 1.0 1.2 0.8: mean 1, sd sqrt(0.1 / 4) = 0.1581, t = 1 / (0.1581 /
	 * sqrt 5) = 14.14, df 4 */
	tap_ok(p.verdict == LAB_AB_SIGNIFICANT && near(p.t, 14.142, 1e-3) && p.df == 4,
	       "blocked data, paired: significant, t 14.14 on 4 df (t %.3f, p %.2g)", p.t, p.p);
	tap_ok(near(p.diff, 1, 1e-12) && near(p.lo, 1 - 2.776445 * 0.158114 / sqrt(5), 1e-4) &&
	       near(p.hi, 1 + 2.776445 * 0.158114 / sqrt(5), 1e-4),
	       "paired interval 1 +- t(4) sd / sqrt n = [%.4f, %.4f]", p.lo, p.hi);
	p = lab_paired_compare(blk_b, blk_o, 2, 0.95);
	tap_ok(p.verdict == LAB_AB_TOO_FEW && isnan(p.t), "2 pairs: too few, no t");
	p = lab_paired_compare(blk_b, blk_b, 5, 0.95);
	tap_ok(p.verdict == LAB_AB_IDENTICAL && p.p == 1, "every difference 0: no difference");
}

static void test_signrank(void)
{
	/* |d| 1 2 2 3 4: midranks 1 2.5 2.5 4 5, doubled 2 5 5 8 10 (sum 30, E 15); T+ doubled
	 * 2 + 5 + 5 + 10 = 22, 7 from E. Of the 32 subset sums of {2, 5, 5, 8, 10}, 7 are <= 8
	 * (0 2 5 5 7 7 8) and by symmetry 7 are >= 22: p = 14/32. */
	const double d1[] = { 1, 2, 2, -3, 4 };
	/* |d| 1 1 2 2: doubled midranks 3 3 7 7 (E 10), T+ doubled 3 + 7 + 7 = 17; the 16 sums
	 * 0 3 3 6 7 7 10 10 10 10 13 13 14 17 17 20: 6 lie 7 or more from 10, p = 6/16. */
	const double d2[] = { -1, 1, 2, 2 };
	const double d3[] = { 0, 1, 2, 3, 4, 5 }, six[] = { 1, 2, 3, 4, 5, 6 }, z[6] = { 0 };
	double w, p;

	p = lab_signrank_p(d1, 5, &w);
	tap_ok(near(p, 14.0 / 32, 1e-12) && w == 11, "ties: exact p 14/32, T+ 11 (p %.5f, T+ %g)", p, w);
	p = lab_signrank_p(d2, 4, &w);
	tap_ok(near(p, 6.0 / 16, 1e-12) && w == 8.5, "tie across signs: exact p 6/16, T+ 8.5 (p %.5f, T+ %g)",
	       p, w);
	p = lab_signrank_p(d3, 6, &w);
	tap_ok(near(p, 2.0 / 32, 1e-12) && w == 15, "a zero is dropped: 5 positive, p 2/32 (%.5f)", p);
	p = lab_signrank_p(six, 6, &w);
	tap_ok(near(p, 2.0 / 64, 1e-12), "6 positive: p 2/64 (%.5f)", p);
	tap_ok(lab_signrank_p(z, 6, &w) == 1 && w == 0, "all differences 0: p 1");
	{
		/* past the exact limit: 60 positive differences (z = (1830 - 915 - 0.5) / sqrt(
		 * 60 x 61 x 121 / 24) = 6.73) and 60 in +-k pairs (T+ = E: p 1) */
		double big[60], sym[60];

		for (int i = 0; i < 60; i++) {
			big[i] = i + 1;
			sym[i] = i % 2 ? -(i / 2 + 1) : i / 2 + 1;
		}
		p = lab_signrank_p(big, 60, &w);
		tap_ok(w == 1830 && p < 2e-11 && p > 1e-11, "60 positive: normal approximation p 1.7e-11 (%.3g)", p);
		p = lab_signrank_p(sym, 60, &w);
		tap_ok(p == 1, "60 differences in +-k pairs: p 1 (%.3g)", p);
	}
	/* subsets of {1..5} with sum <= 2: {}, {1}, {2} */
	tap_ok(near(lab_signrank_cdf(5, 0), 1.0 / 32, 1e-12) && near(lab_signrank_cdf(5, 2), 3.0 / 32, 1e-12),
	       "P(T+ <= 0) = 1/32, P(T+ <= 2) = 3/32 at n 5");
}

static void test_hl(void)
{
	/* Walsh averages of 1 2 2 -3 4, sorted: -3 -1 -.5 -.5 .5 1 1.5 1.5 2 2 2 2.5 3 3 4:
	 * the 8th of 15 is 1.5. Base 10 each: % of the base median 10. */
	const double b[] = { 10, 10, 10, 10, 10 }, o[] = { 11, 12, 12, 7, 14 };
	const double b6[] = { 0, 0, 0, 0, 0, 0 }, o6[] = { 1, 2, 3, 4, 5, 6 };
	struct lab_rank r = lab_signrank_compare(b, o, 5, 0.95);

	tap_ok(r.hl == 1.5 && near(r.pct, 15, 1e-12), "Hodges-Lehmann of the differences 1.5 (+15 %%) (%g)",
	       r.hl);
	tap_ok(isnan(r.lo) && near(r.p, 14.0 / 32, 1e-12), "5 pairs: no 95 %% interval (1 - 2/32 < 95 %%)");
	/* n 6: P(T+ <= 0) = 1/64 <= 2.5 %, P(T+ <= 1) = 2/64 is not: k = 1, the extreme Walsh
	 * averages, coverage 1 - 2/64 */
	r = lab_signrank_compare(b6, o6, 6, 0.95);
	tap_ok(r.lo == 1 && r.hi == 6 && near(r.coverage, 1 - 2.0 / 64, 1e-12),
	       "6 pairs: interval [1, 6] at 96.9 %% (got [%g, %g] at %.4f)", r.lo, r.hi, r.coverage);
}

static void test_fieller(void)
{
	double lo, hi;
	int rc;
	const double a[] = { 10, 11, 12, 13, 14 }, c[] = { 12.5, 13.5, 14.5, 15.5, 16.5 };
	const double pb[] = { 100, 110, 120 }, po[] = { 101, 112, 123 };
	struct lab_desc da = lab_describe(a, 5), dc = lab_describe(c, 5);

	/* num 10, den 100, var 13, cov -4, var 4, t 2: A = 100^2 - 4 x 4 = 9984, B = 10 x 100 +
	 * 4 x 4 = 1016, C = 10^2 - 4 x 13 = 48; (B -+ sqrt(B^2 - AC)) / A = (1016 -+ 743.656) /
	 * 9984 = 0.027278, 0.176248 */
	rc = lab_fieller(10, 100, 13, -4, 4, 2, &lo, &hi);
	tap_ok(!rc && near(lo, 0.027278, 1e-6) && near(hi, 0.176248, 1e-6),
	       "Fieller by hand: [0.027278, 0.176248] (got [%.6f, %.6f])", lo, hi);
	tap_ok(!lab_fieller(10, 100, 9, 0, 0, 2, &lo, &hi) && near(lo, 0.04, 1e-12) &&
	       near(hi, 0.16, 1e-12), "a certain denominator: (10 -+ 2 x 3) / 100");
	tap_ok(lab_fieller(1, 1, 1, 0, 1, 2, &lo, &hi) == -1 && isnan(lo),
	       "a denominator whose interval holds 0: unbounded, refused");
	/* 12 vs 14.5, var 0.5 a side, Welch df 8, t 2.306004: A = 144 - t^2 0.5, B = 30 + t^2 0.5,
	 * C = 6.25 - t^2: [1.4745 %, 44.7388 %] (the Welch interval of the difference over the
	 * mean would be [1.62 %, 40.05 %]) */
	lab_rel_unpaired(&da, &dc, 0.05, &lo, &hi);
	tap_ok(near(lo, 1.4745, 1e-3) && near(hi, 44.7388, 1e-3),
	       "unpaired %% change by Fieller [+1.47 %%, +44.74 %%] (got [%.4f, %.4f])", lo, hi);
	/* d 1 2 3 over base 100 110 120: means 2 and 110, var(d) 1/3, var(base) 100/3, cov 10/3
	 * (all over n), t(2) 4.302653: [-0.5685 %, +3.3255 %] */
	lab_rel_paired(pb, po, 3, 0.05, &lo, &hi);
	tap_ok(near(lo, -0.5685, 1e-3) && near(hi, 3.3255, 1e-3),
	       "paired %% change by Fieller with the covariance [-0.57 %%, +3.33 %%] (got [%.4f, %.4f])",
	       lo, hi);
}

static void test_boots(void)
{
	/* two sides, 3 units of 2 reps: {10,12} {20,22} {30,32} and 1 more; within SS 6 + 6 on 6
	 * df = 2; unit means' variance 100 a side, so between = 100 - 2 / 2 = 99 */
	const double mb[] = { 11, 21, 31 }, mo[] = { 12, 22, 32 }, d[] = { 1, 1, 1 };
	struct lab_vc vc = lab_vc_unpaired(mb, 3, mo, 3, 12, 6, 2), v2;
	int boots, r;

	tap_ok(near(vc.within, 2, 1e-12) && near(vc.between, 99, 1e-12),
	       "random effects: within 2, between 99 (%g, %g)", vc.within, vc.between);
	vc = lab_vc_paired(d, 3, 12, 6, 2);
	tap_ok(near(vc.within, 2, 1e-12) && vc.between == 0,
	       "paired, every difference equal: between 0 (clipped), within 2");
	/* cost (c + r)(b + w / r) is least at r = sqrt(c w / b) = sqrt(4 x 16 / 1) = 8 */
	v2 = (struct lab_vc){ 1, 16, 1, 0 };
	r = lab_best_reps(&v2, 4, 0.05, 0.05, &boots);
	tap_ok(r >= 7 && r <= 9 && boots == lab_boots_needed(&v2, r, 0.05, 0.05),
	       "cheapest reps a boot near sqrt(c w / b) = 8 (%d reps x %d boots)", r, boots);
	/* b + w / r: 1 + 16 / 8 = 3 a side for +-0.05: 2 (1.96^2 x 3 / 0.0025) = 9220ish */
	tap_ok(lab_boots_needed(&v2, 8, 0.05, 0.05) >= 9220 && lab_boots_needed(&v2, 8, 0.05, 0.05) <= 9240,
	       "boots for +-0.05 at 8 reps: about 2 x 1.96^2 x 3 / 0.05^2 = 9220 (%d)",
	       lab_boots_needed(&v2, 8, 0.05, 0.05));
	v2.within = 0;
	r = lab_best_reps(&v2, 4, 0.05, 0.05, &boots);
	tap_ok(r == 1, "no within-boot spread: one rep a boot (%d)", r);
	/* pairs: the least n with t(n - 1) sd / sqrt n <= delta; sd 1, delta 1: n 7 (2.447 /
	 * sqrt 7 = 0.925), not 6 (2.571 / sqrt 6 = 1.050); the unpaired answer for sd / sqrt 2 a
	 * side is t(2n - 2) sqrt(2 / n) / sqrt 2: 6 (t(10) 2.228 / sqrt 6 = 0.910) */
	tap_ok(lab_pairs_needed(1, 1, 0.05, 0) == 7, "pairs for +-1 sd of the differences: 7 (%d)",
	       lab_pairs_needed(1, 1, 0.05, 0));
	tap_ok(lab_pairs_needed(0, 1, 0.05, 0.8) == 1 && lab_pairs_needed(1, 0.001, 0.05, 0) == -1,
	       "pairs: no spread 1, a hopeless change -1");
	/* paired boots: a pair's difference varies by 2 (b + w / r): sd_d^2 = 2 (1 + 16 / 16) = 4 */
	v2 = (struct lab_vc){ 1, 16, 1, 1 };
	tap_ok(lab_boots_needed(&v2, 16, 2, 0.05) == lab_pairs_needed(2, 2, 0.05, 0) &&
	       lab_boots_needed(&v2, 16, 2, 0.05) == 7, "paired boots are pairs at sd_d 2: 7 (%d)",
	       lab_boots_needed(&v2, 16, 2, 0.05));
}

int main(void)
{
	test_blocked();
	test_signrank();
	test_hl();
	test_fieller();
	test_boots();
	return tap_done();
}
