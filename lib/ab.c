/* SPDX-License-Identifier: MIT */
/* A/B statistics (lab/ab.h): Welch's t test with its p-value from the t distribution. */
#include <math.h>
#include <stdio.h>

#include "lab/ab.h"
#include "lab/stats.h"

double lab_mean(const double *v, int n)
{
	double s = 0;

	if (n <= 0)
		return NAN;
	for (int i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

double lab_sd(const double *v, int n)
{
	double m = lab_mean(v, n), ss = 0;

	if (n < 2)
		return NAN;
	for (int i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return sqrt(ss / (n - 1));
}

struct lab_desc lab_describe(const double *v, int n)
{
	/* Median, min and max come from the harness's summary (bench/stats.c). */
	struct lab_summary s = lab_summarize(v, n);
	struct lab_desc d = { n, lab_mean(v, n), s.median, lab_sd(v, n), s.min, s.max };

	return d;
}

/* Continued fraction of the incomplete beta function, evaluated with the modified Lentz method
 * (converges for x < (a + 1) / (a + b + 2); lab_betai uses the symmetry otherwise). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		double m2 = 2.0 * m, num, del;

		/* even step: m (b - m) x / ((a + 2m - 1)(a + 2m)) */
		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		/* odd step: -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) */
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double lab_betai(double a, double b, double x)
{
	double front;

	if (isnan(x) || x < 0 || x > 1 || a <= 0 || b <= 0)
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1-x)^b / B(a, b), in logs to stay finite */
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double lab_t_pvalue(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	/* P(|T| >= |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	return lab_betai(df / 2, 0.5, df / (df + t * t));
}

double lab_t_quantile(double p, double df)
{
	double lo = 0, hi = 1e6;

	if (!(p > 0 && p <= 1) || !(df > 0))
		return NAN;
	/* The p-value falls as t grows: bisect. */
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (lab_t_pvalue(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double lab_ci_halfwidth(const struct lab_desc *d, double confidence)
{
	if (d->n < 2)
		return NAN;
	return lab_t_quantile(1 - confidence, d->n - 1) * d->sd / sqrt(d->n);
}

struct lab_ab lab_ab_compare(const struct lab_desc *base, const struct lab_desc *other,
			     double confidence)
{
	struct lab_ab r = { other->mean - base->mean, NAN, NAN, NAN, NAN, LAB_AB_TOO_FEW };
	double va, vb, se2;

	if (base->mean != 0)
		r.pct = 100 * r.diff / fabs(base->mean);
	if (base->n < LAB_AB_MIN_RUNS || other->n < LAB_AB_MIN_RUNS)
		return r;
	va = base->sd * base->sd / base->n;
	vb = other->sd * other->sd / other->n;
	se2 = va + vb;
	if (se2 == 0) {
		/* No spread on either side: equal means are no difference, unequal ones certain. */
		r.verdict = r.diff == 0 ? LAB_AB_IDENTICAL : LAB_AB_SIGNIFICANT;
		r.p = r.diff == 0 ? 1 : 0;
		return r;
	}
	r.t = r.diff / sqrt(se2);
	r.df = se2 * se2 / (va * va / (base->n - 1) + vb * vb / (other->n - 1));
	r.p = lab_t_pvalue(r.t, r.df);
	r.verdict = r.p < 1 - confidence ? LAB_AB_SIGNIFICANT : LAB_AB_NOT_SIGNIFICANT;
	return r;
}

const char *lab_ab_verdict_name(enum lab_verdict v)
{
	switch (v) {
	case LAB_AB_SIGNIFICANT: return "significant";
	case LAB_AB_NOT_SIGNIFICANT: return "not significant";
	case LAB_AB_TOO_FEW: return "too few runs";
	case LAB_AB_IDENTICAL: return "no difference";
	}
	return "?";
}

char *lab_ab_marker(const struct lab_ab *r, char *buf, int len)
{
	if (r->verdict == LAB_AB_TOO_FEW)
		snprintf(buf, len, "(too few)");
	else if (r->verdict == LAB_AB_SIGNIFICANT)
		snprintf(buf, len, "*%+.2f%%*", r->pct);
	else
		snprintf(buf, len, "(%+.2f%%)", r->pct);
	return buf;
}
