/* SPDX-License-Identifier: MIT */
/*
 * The statistics' edges, on samples small enough that the textbook choices differ by far more
 * than any tolerance: the mean's t interval (n - 1 degrees of freedom), the latency mean's
 * normal interval (sd with n - 1), and a Welch p exactly equal to alpha (not significant:
 * significance is p < alpha). TAP.
 *
 * edges-test emit DIR: write DIR/edge.csv (variant,value), a sample pair whose Welch p is
 * exactly 1 - C for a C that lab-ab's --confidence can spell, DIR/pct-at (that PCT) and
 * DIR/pct-loose (a PCT just below it, where p < alpha), for lib-stat-edges.t to run lab-ab on.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/ab.h"
#include "lab/percentile.h"
#include "lab/tap.h"

static const double A[5] = { 10, 11, 12, 13, 14 };

/* other sample: 12.5 .. 16.5, the last value moved by k nanounits */
static void other(double *b, int k)
{
	for (int i = 0; i < 5; i++)
		b[i] = 12.5 + i;
	b[4] += k * 1e-9;
}

/* The first k from 0 whose Welch p (at any confidence) is exactly 1 - c for c = 1 - p, and,
 * when pct is given, c is atof(PCT) / 100 for the PCT written there: -1 if none. */
static int find_boundary(double *p_out, double *c_out, char *pct, size_t len)
{
	for (int k = 0; k < 100000; k++) {
		double b[5], p, c;
		struct lab_desc da = lab_describe(A, 5), db;

		other(b, k);
		db = lab_describe(b, 5);
		p = lab_ab_compare(&da, &db, 0.95).p;
		c = 1 - p;
		if (!(p > 0 && p < 0.5) || 1 - c != p)
			continue;
		if (pct) {
			snprintf(pct, len, "%.17g", c * 100);
			if (atof(pct) / 100 != c)
				continue;
		}
		*p_out = p;
		*c_out = c;
		return k;
	}
	return -1;
}

static int emit(const char *dir)
{
	char path[4096], pct[64];
	double p, c, b[5], loose;
	int k = find_boundary(&p, &c, pct, sizeof(pct));
	FILE *f;

	if (k < 0) {
		fprintf(stderr, "edges-test: no sample with p exactly at a spellable alpha\n");
		return 1;
	}
	other(b, k);
	snprintf(path, sizeof(path), "%s/edge.csv", dir);
	if (!(f = fopen(path, "w")))
		return 1;
	fprintf(f, "variant,value\n");
	for (int i = 0; i < 5; i++)
		fprintf(f, "a,%.17g\n", A[i]);
	for (int i = 0; i < 5; i++)
		fprintf(f, "b,%.17g\n", b[i]);
	fclose(f);
	snprintf(path, sizeof(path), "%s/pct-at", dir);
	if (!(f = fopen(path, "w")))
		return 1;
	fprintf(f, "%s\n", pct);
	fclose(f);
	/* A confidence 1e-9 % lower: alpha just above p. */
	loose = c * 100 - 1e-9;
	snprintf(path, sizeof(path), "%s/pct-loose", dir);
	if (!(f = fopen(path, "w")))
		return 1;
	fprintf(f, "%.17g\n", loose);
	fclose(f);
	printf("p %.17g alpha %.17g (k %d)\n", p, 1 - atof(pct) / 100, k);
	return 0;
}

static void test_ci_halfwidth(void)
{
	const double three[] = { 1, 2, 3 }, two[] = { 0, 2 };
	struct lab_desc d = lab_describe(three, 3);
	double h = lab_ci_halfwidth(&d, 0.95);

	/* sd 1, se 1 / sqrt(3); t(0.975, 2) = 4.3027 (with 3 df it would be 3.1824: 1.837) */
	tap_ok(fabs(h - 4.302653 / sqrt(3)) < 1e-4, "95 %% half-width of 1, 2, 3: 2.4841 (t with 2 df; got %.6g)", h);
	d = lab_describe(two, 2);
	h = lab_ci_halfwidth(&d, 0.95);
	/* sd sqrt(2), se 1; t(0.975, 1) = 12.706 (with 2 df: 4.303) */
	tap_ok(fabs(h - 12.7062) < 1e-3, "95 %% half-width of 0, 2: 12.706 (t with 1 df; got %.6g)", h);
	h = lab_ci_halfwidth(&d, 0.90);
	tap_ok(fabs(h - 6.3138) < 1e-3, "90 %% half-width of 0, 2: 6.314 (got %.6g)", h);
}

static void test_mean_ci(void)
{
	const double two[] = { 0, 2 }, five[] = { 1, 2, 3, 4, 5 };
	struct lab_ci c = lab_mean_ci(two, 2);

	/* sd sqrt(2) (n - 1), se 1: +-1.96 (sd over n would give +-1.386) */
	tap_ok(c.est == 1 && fabs(c.hi - c.est - 1.96) < 0.01 && fabs(c.est - c.lo - 1.96) < 0.01,
	       "latency mean of 0, 2: 1 +- 1.96 (got %g [%g, %g])", c.est, c.lo, c.hi);
	c = lab_mean_ci(five, 5);
	/* sd 1.5811, se 0.7071: +-1.386 (sd over n: +-1.240) */
	tap_ok(c.est == 3 && fabs(c.hi - c.est - 1.386) < 0.01,
	       "latency mean of 1..5: 3 +- 1.386 (got %g [%g, %g])", c.est, c.lo, c.hi);
}

static void test_p_at_alpha(void)
{
	double p, c, b[5];
	int k = find_boundary(&p, &c, NULL, 0);
	struct lab_desc da = lab_describe(A, 5), db;
	struct lab_ab at, loose;

	if (!tap_ok(k >= 0, "a sample pair whose Welch p is exactly 1 - C for some C (p %.17g)", p))
		return;
	other(b, k);
	db = lab_describe(b, 5);
	at = lab_ab_compare(&da, &db, c);
	loose = lab_ab_compare(&da, &db, nextafter(c, 0));
	tap_ok(at.p == 1 - c, "  its p at that confidence is alpha itself (%.17g)", at.p);
	tap_ok(at.verdict == LAB_AB_NOT_SIGNIFICANT, "p == alpha: not significant (p < alpha is the rule)");
	tap_ok(loose.verdict == LAB_AB_SIGNIFICANT, "alpha one step above p: significant");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "emit"))
		return emit(argv[2]);
	test_ci_halfwidth();
	test_mean_ci();
	test_p_at_alpha();
	return tap_done();
}
