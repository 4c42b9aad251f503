/* SPDX-License-Identifier: MIT */
/* A/B statistics (lab/ab.h): Welch's t test with its p-value from the t distribution; the rank
 * view (Mann-Whitney U, Hodges-Lehmann), Holm's correction and the runs a change needs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	/* The p-value falls as t grows: bisect, until a step changes nothing (a fixed point: the
	 * remaining steps of the 200 would not either; about 80 steps, not 200). */
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2, lo0 = lo, hi0 = hi;

		if (lab_t_pvalue(mid, df) > p)
			lo = mid;
		else
			hi = mid;
		if (lo == lo0 && hi == hi0)
			break;
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
	struct lab_ab r = { other->mean - base->mean, NAN, NAN, NAN, NAN, LAB_AB_TOO_FEW,
			    NAN, NAN, NAN, NAN };
	double va, vb, se2, h;

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
		h = 0;
	} else {
		r.t = r.diff / sqrt(se2);
		r.df = se2 * se2 / (va * va / (base->n - 1) + vb * vb / (other->n - 1));
		r.p = lab_t_pvalue(r.t, r.df);
		r.verdict = r.p < 1 - confidence ? LAB_AB_SIGNIFICANT : LAB_AB_NOT_SIGNIFICANT;
		h = lab_t_quantile(1 - confidence, r.df) * sqrt(se2);
	}
	r.lo = r.diff - h;
	r.hi = r.diff + h;
	if (base->mean != 0) {
		r.pct_lo = 100 * r.lo / fabs(base->mean);
		r.pct_hi = 100 * r.hi / fabs(base->mean);
	}
	return r;
}

/* Counts of the sums of every m-subset of the N doubled ranks r2 (integers): cnt[s] for
 * s = 0..smax. Doubles: C(120, 60) is 1e35, beyond any integer type, and only ratios matter. */
static double *ranksum_counts(const int *r2, int N, int m, int smax)
{
	double *c = calloc((size_t)(m + 1) * (smax + 1), sizeof(*c));

	if (!c)
		abort();
	c[0] = 1; /* the empty subset, sum 0 */
	for (int i = 0; i < N; i++)
		for (int k = (i + 1 < m ? i + 1 : m); k >= 1; k--)
			for (int s = smax; s >= r2[i]; s--)
				c[(size_t)k * (smax + 1) + s] += c[(size_t)(k - 1) * (smax + 1) + s - r2[i]];
	return c;
}

/* P(U <= u) for u = 0..n m, U of samples of n and m without ties; NULL past 400 values. */
static double *mw_u_cdf(int n, int m)
{
	int N = n + m, smax = N * (N + 1), *r2;
	double *c, *cdf, tot = 0;

	if (n < 1 || m < 1 || N > 400)
		return NULL;
	r2 = calloc(N, sizeof(*r2));
	cdf = calloc((size_t)n * m + 1, sizeof(*cdf));
	for (int i = 0; i < N; i++)
		r2[i] = 2 * (i + 1);
	c = ranksum_counts(r2, N, m, smax);
	/* U = W - m (m + 1) / 2; doubled sums are even */
	for (int u = 0; u <= n * m; u++) {
		tot += c[(size_t)m * (smax + 1) + 2 * u + m * (m + 1)];
		cdf[u] = tot;
	}
	for (int u = 0; u <= n * m; u++)
		cdf[u] /= tot;
	free(c);
	free(r2);
	return cdf;
}

double lab_mw_cdf(int n, int m, int u)
{
	double *cdf = mw_u_cdf(n, m), p;

	if (!cdf)
		return NAN;
	p = u < 0 ? 0 : u >= n * m ? 1 : cdf[u];
	free(cdf);
	return p;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double lab_midranks2(const double *key, int n, int *r2)
{
	int *idx = malloc((n > 0 ? n : 1) * sizeof(int));
	double ties = 0;

	for (int i = 0; i < n; i++)
		idx[i] = i;
	/* an insertion order is enough at these sizes */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && key[idx[j]] < key[idx[j - 1]]; j--) {
			int t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (int i = 0; i < n;) {
		int j = i;

		while (j + 1 < n && key[idx[j + 1]] == key[idx[i]])
			j++;
		/* positions i..j share the midrank (i + 1 + j + 1) / 2, doubled: i + j + 2 */
		for (int k = i; k <= j; k++)
			r2[idx[k]] = i + j + 2;
		ties += (double)(j - i + 1) * (j - i + 1) * (j - i + 1) - (j - i + 1);
		i = j + 1;
	}
	free(idx);
	return ties;
}

/* Two-sided p of the rank sum of other, exact over all splits of the pooled values (ties
 * as midranks) up to 120 values, else the normal approximation with the tie correction. */
static double mw_pvalue(const double *base, int n, const double *other, int m, double *u)
{
	int N = n + m, *r2 = malloc(N * sizeof(int)), w2 = 0, smax = 0;
	double *v = malloc(N * sizeof(double)), p, ties;

	for (int i = 0; i < N; i++)
		v[i] = i < n ? base[i] : other[i - n];
	ties = lab_midranks2(v, N, r2);
	for (int i = 0; i < N; i++) {
		smax += r2[i];
		if (i >= n)
			w2 += r2[i];
	}
	*u = w2 / 2.0 - m * (m + 1) / 2.0;
	if (N <= 120) {
		double *c = ranksum_counts(r2, N, m, smax), tot = 0, ext = 0;
		double mid = (double)m * (N + 1); /* E[2W] */

		for (int s = 0; s <= smax; s++) {
			double x = c[(size_t)m * (smax + 1) + s];

			tot += x;
			if (fabs(s - mid) >= fabs(w2 - mid) - 1e-9)
				ext += x;
		}
		free(c);
		p = ext / tot;
	} else {
		double var = (double)n * m / 12 * ((N + 1) - ties / ((double)N * (N - 1)));
		double z = var > 0 ? (fabs(*u - n * m / 2.0) - 0.5) / sqrt(var) : 0;

		p = var > 0 ? erfc((z > 0 ? z : 0) / sqrt(2)) : 1;
	}
	free(v);
	free(r2);
	return p > 1 ? 1 : p;
}

struct lab_rank lab_rank_compare(const double *base, int n, const double *other, int m,
				 double confidence)
{
	struct lab_rank r = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	double *d, *b, *cdf, med, alpha = 1 - confidence;
	int k = 0, nm = n * m;

	if (n < 1 || m < 1)
		return r;
	r.p = mw_pvalue(base, n, other, m, &r.u);
	d = malloc(nm * sizeof(*d));
	b = malloc(n * sizeof(*b));
	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++)
			d[i * m + j] = other[j] - base[i];
	qsort(d, nm, sizeof(*d), cmp_double);
	r.hl = nm % 2 ? d[nm / 2] : (d[nm / 2 - 1] + d[nm / 2]) / 2;
	/* the largest k with P(U <= k - 1) <= alpha / 2: [D(k), D(nm + 1 - k)] */
	cdf = mw_u_cdf(n, m);
	while (cdf && k < nm / 2 && cdf[k] <= alpha / 2)
		k++;
	if (k >= 1) {
		r.lo = d[k - 1];
		r.hi = d[nm - k];
		r.coverage = 1 - 2 * cdf[k - 1];
	}
	free(cdf);
	memcpy(b, base, n * sizeof(*b));
	qsort(b, n, sizeof(*b), cmp_double);
	med = n % 2 ? b[n / 2] : (b[n / 2 - 1] + b[n / 2]) / 2;
	if (med != 0) {
		r.pct = 100 * r.hl / fabs(med);
		r.pct_lo = 100 * r.lo / fabs(med);
		r.pct_hi = 100 * r.hi / fabs(med);
	}
	free(d);
	free(b);
	return r;
}

int lab_modes(const double *v, int n, double gap, double *center, int *count, int max)
{
	double *s, med;
	int k = 0;

	if (n < 1)
		return 0;
	s = malloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	for (int i = 0; i < n;) {
		int j = i;

		while (j + 1 < n && s[j + 1] - s[j] <= gap * fabs(med))
			j++;
		if (k < max) {
			int c = j - i + 1;

			center[k] = c % 2 ? s[i + c / 2] : (s[i + c / 2 - 1] + s[i + c / 2]) / 2;
			count[k] = c;
		}
		k++;
		i = j + 1;
	}
	free(s);
	return k;
}

void lab_holm(const double *p, double *adj, int k)
{
	int *o = malloc((k > 0 ? k : 1) * sizeof(int)), tests = 0;
	double run = 0;

	for (int i = 0; i < k; i++)
		if (!isnan(p[i]))
			o[tests++] = i;
	/* ascending p; ties keep their order */
	for (int i = 1; i < tests; i++)
		for (int j = i; j > 0 && p[o[j]] < p[o[j - 1]]; j--) {
			int t = o[j];
			o[j] = o[j - 1];
			o[j - 1] = t;
		}
	for (int i = 0; i < k; i++)
		adj[i] = NAN;
	for (int i = 0; i < tests; i++) {
		double a = (tests - i) * p[o[i]];

		run = a > run ? a : run; /* adjusted p never falls as p grows */
		adj[o[i]] = run > 1 ? 1 : run;
	}
	free(o);
}

int lab_samples_needed(double sd, double delta, double alpha, double power, int samples)
{
	double z, n0;

	if (isnan(sd) || isnan(delta) || delta <= 0)
		return -1;
	if (sd == 0)
		return 1;
	/* the normal answer is a lower bound; t's heavier tails add a few more */
	z = lab_t_quantile(alpha, 1e7) + (power > 0 ? lab_t_quantile(2 * (1 - power), 1e7) : 0);
	n0 = samples * (z * sd / delta) * (z * sd / delta);
	if (n0 > 100000)
		return -1;
	for (int n = n0 > 2 ? (int)n0 : 2; n <= 100000; n++) {
		double df = samples * (n - 1.0);
		double t = lab_t_quantile(alpha, df) +
			   (power > 0 ? lab_t_quantile(2 * (1 - power), df) : 0);

		if (t * sd * sqrt((double)samples / n) <= delta)
			return n;
	}
	return -1;
}

int lab_runs_needed(double sd, double delta, double alpha, double power)
{
	return lab_samples_needed(sd, delta, alpha, power, 2);
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
