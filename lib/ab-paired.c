/* SPDX-License-Identifier: MIT */
/* Paired designs, Fieller's relative interval and boots needed (lab/ab-paired.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab/ab-paired.h"

/* Above this many pairs the no-ties distribution of T+ (for the Hodges-Lehmann interval) is
 * replaced by its normal approximation. */
#define SIGNRANK_CDF_MAX 400

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(const double *v, int n)
{
	double *s = malloc(n * sizeof(*s)), m;

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

struct lab_ab lab_paired_compare(const double *base, const double *other, int n,
				 double confidence)
{
	struct lab_ab r = { NAN, NAN, NAN, NAN, NAN, LAB_AB_TOO_FEW, NAN, NAN, NAN, NAN };
	double *d, mb, sd, h;

	if (n < 1)
		return r;
	d = malloc(n * sizeof(*d));
	for (int i = 0; i < n; i++)
		d[i] = other[i] - base[i];
	r.diff = lab_mean(d, n);
	mb = lab_mean(base, n);
	if (mb != 0)
		r.pct = 100 * r.diff / fabs(mb);
	if (n < LAB_AB_MIN_RUNS)
		goto out;
	sd = lab_sd(d, n);
	if (sd == 0) {
		/* Every pair differs by the same amount: no difference, or a certain one. */
		r.verdict = r.diff == 0 ? LAB_AB_IDENTICAL : LAB_AB_SIGNIFICANT;
		r.p = r.diff == 0 ? 1 : 0;
		h = 0;
	} else {
		r.t = r.diff / (sd / sqrt(n));
		r.df = n - 1;
		r.p = lab_t_pvalue(r.t, r.df);
		r.verdict = r.p < 1 - confidence ? LAB_AB_SIGNIFICANT : LAB_AB_NOT_SIGNIFICANT;
		h = lab_t_quantile(1 - confidence, r.df) * sd / sqrt(n);
	}
	r.lo = r.diff - h;
	r.hi = r.diff + h;
	if (mb != 0) {
		r.pct_lo = 100 * r.lo / fabs(mb);
		r.pct_hi = 100 * r.hi / fabs(mb);
	}
out:
	free(d);
	return r;
}

/* Counts of the subset sums of the n integers w (each in or out): c[s], s = 0..smax.
 * Doubles: 2^50 patterns stay exact, and only ratios matter. */
static double *subset_sums(const int *w, int n, int smax)
{
	double *c = calloc(smax + 1, sizeof(*c));

	if (!c)
		abort();
	c[0] = 1;
	for (int i = 0; i < n; i++)
		for (int s = smax; s >= w[i]; s--)
			c[s] += c[s - w[i]];
	return c;
}

double lab_signrank_p(const double *d, int n, double *wplus)
{
	int m = 0, *r2, w2 = 0, tot2 = 0;
	double *a, *mag, ties, p;

	*wplus = 0;
	a = malloc((n > 0 ? n : 1) * sizeof(*a));
	mag = calloc(n > 0 ? n : 1, sizeof(*mag));
	r2 = malloc((n > 0 ? n : 1) * sizeof(*r2));
	/* zeros carry no sign: dropped (Wilcoxon's convention) */
	for (int i = 0; i < n; i++)
		if (d[i] != 0) {
			a[m] = d[i];
			mag[m++] = fabs(d[i]);	/* the ranks are of the magnitudes */
		}
	ties = lab_midranks2(mag, m, r2);
	for (int i = 0; i < m; i++) {
		tot2 += r2[i];
		if (a[i] > 0)
			w2 += r2[i];
	}
	*wplus = w2 / 2.0;
	if (m == 0) {
		p = 1;
	} else if (m <= LAB_SIGNRANK_EXACT_MAX) {
		/* every sign pattern equally likely: P(|2W - E| >= |observed - E|), E = tot2 / 2 */
		double *c = subset_sums(r2, m, tot2), all = 0, ext = 0, mid = tot2 / 2.0;

		for (int s = 0; s <= tot2; s++) {
			all += c[s];
			if (fabs(s - mid) >= fabs(w2 - mid) - 1e-9)
				ext += c[s];
		}
		free(c);
		p = ext / all;
	} else {
		double var = m * (m + 1.0) * (2 * m + 1) / 24 - ties / 48;
		double z = var > 0 ? (fabs(*wplus - m * (m + 1) / 4.0) - 0.5) / sqrt(var) : 0;

		p = var > 0 ? erfc((z > 0 ? z : 0) / sqrt(2)) : 1;
	}
	free(a);
	free(mag);
	free(r2);
	return p > 1 ? 1 : p;
}

/* P(T+ <= t) for t = 0..n(n+1)/2, no ties; NULL past SIGNRANK_CDF_MAX. */
static double *signrank_cdf_all(int n)
{
	int M = n * (n + 1) / 2, *w;
	double *c, tot = 0;

	if (n < 1 || n > SIGNRANK_CDF_MAX)
		return NULL;
	w = malloc(n * sizeof(*w));
	for (int i = 0; i < n; i++)
		w[i] = i + 1;
	c = subset_sums(w, n, M);
	for (int t = 0; t <= M; t++) {
		tot += c[t];
		c[t] = tot;
	}
	for (int t = 0; t <= M; t++)
		c[t] /= tot;
	free(w);
	return c;
}

double lab_signrank_cdf(int n, int t)
{
	double *c = signrank_cdf_all(n), p;

	if (!c)
		return NAN;
	p = t < 0 ? 0 : t >= n * (n + 1) / 2 ? 1 : c[t];
	free(c);
	return p;
}

struct lab_rank lab_signrank_compare(const double *base, const double *other, int n,
				     double confidence)
{
	struct lab_rank r = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	int M = n * (n + 1) / 2, k = 0;
	double *d, *w, *cdf, med, alpha = 1 - confidence;

	if (n < 1)
		return r;
	d = malloc(n * sizeof(*d));
	w = malloc(M * sizeof(*w));
	for (int i = 0; i < n; i++)
		d[i] = other[i] - base[i];
	r.p = lab_signrank_p(d, n, &r.u);
	for (int i = 0, j = 0; i < n; i++)
		for (int l = i; l < n; l++)
			w[j++] = (d[i] + d[l]) / 2;
	qsort(w, M, sizeof(*w), cmp_double);
	r.hl = M % 2 ? w[M / 2] : (w[M / 2 - 1] + w[M / 2]) / 2;
	/* [W(k), W(M + 1 - k)] with k the largest such that P(T+ <= k - 1) <= alpha / 2 */
	cdf = signrank_cdf_all(n);
	if (cdf) {
		while (k < M / 2 && cdf[k] <= alpha / 2)
			k++;
		if (k >= 1)
			r.coverage = 1 - 2 * cdf[k - 1];
	} else {
		double z = lab_t_quantile(alpha, 1e7);

		k = (int)floor(M / 2.0 - z * sqrt(n * (n + 1.0) * (2 * n + 1) / 24));
		r.coverage = confidence; /* approximately */
	}
	if (k >= 1) {
		r.lo = w[k - 1];
		r.hi = w[M - k];
	} else {
		r.coverage = NAN;
	}
	med = median_of(base, n);
	if (med != 0) {
		r.pct = 100 * r.hl / fabs(med);
		r.pct_lo = 100 * r.lo / fabs(med);
		r.pct_hi = 100 * r.hi / fabs(med);
	}
	free(cdf);
	free(w);
	free(d);
	return r;
}

int lab_fieller(double num, double den, double vnn, double vnd, double vdd, double tq,
		double *lo, double *hi)
{
	/* theta with (num - theta den)^2 <= tq^2 (vnn - 2 theta vnd + theta^2 vdd):
	 * A theta^2 - 2 B theta + C <= 0 */
	double A = den * den - tq * tq * vdd, B = num * den - tq * tq * vnd;
	double C = num * num - tq * tq * vnn, disc = B * B - A * C;

	*lo = *hi = NAN;
	if (!(A > 0) || isnan(disc))
		return -1; /* den's interval holds 0: the set is unbounded */
	if (disc < 0)
		disc = 0; /* rounding: theta = num / den always lies in the set */
	*lo = (B - sqrt(disc)) / A;
	*hi = (B + sqrt(disc)) / A;
	return 0;
}

/* theta's interval into % of |den| */
static void to_pct(double den, double tlo, double thi, double *lo, double *hi)
{
	*lo = den > 0 ? 100 * tlo : -100 * thi;
	*hi = den > 0 ? 100 * thi : -100 * tlo;
}

void lab_rel_unpaired(const struct lab_desc *base, const struct lab_desc *other, double level,
		      double *lo, double *hi)
{
	double va, vo, df, tlo, thi, diff = other->mean - base->mean;

	*lo = *hi = NAN;
	if (base->n < LAB_AB_MIN_RUNS || other->n < LAB_AB_MIN_RUNS || base->mean == 0 ||
	    !(level > 0 && level < 1))
		return;
	va = base->sd * base->sd / base->n;
	vo = other->sd * other->sd / other->n;
	if (va + vo == 0) {
		*lo = *hi = 100 * diff / fabs(base->mean);
		return;
	}
	/* Welch-Satterthwaite df of the difference; the base mean's own variance is part of it */
	df = (va + vo) * (va + vo) / (va * va / (base->n - 1) + vo * vo / (other->n - 1));
	/* num = other - base, den = base: cov(num, den) = -var(base) */
	if (lab_fieller(diff, base->mean, va + vo, -va, va, lab_t_quantile(level, df), &tlo,
			&thi))
		return;
	to_pct(base->mean, tlo, thi, lo, hi);
}

void lab_rel_paired(const double *base, const double *other, int n, double level, double *lo,
		    double *hi)
{
	double mb, md, vdd = 0, vbb = 0, vdb = 0, tlo, thi;

	*lo = *hi = NAN;
	if (n < LAB_AB_MIN_RUNS || !(level > 0 && level < 1))
		return;
	mb = lab_mean(base, n);
	md = lab_mean(other, n) - mb;
	if (mb == 0)
		return;
	for (int i = 0; i < n; i++) {
		double db = base[i] - mb, dd = other[i] - base[i] - md;

		vdd += dd * dd;
		vbb += db * db;
		vdb += dd * db;
	}
	/* variances and covariance of the two means */
	vdd /= (double)(n - 1) * n;
	vbb /= (double)(n - 1) * n;
	vdb /= (double)(n - 1) * n;
	if (vdd == 0) {
		*lo = *hi = 100 * md / fabs(mb);
		return;
	}
	if (lab_fieller(md, mb, vdd, vdb, vbb, lab_t_quantile(level, n - 1), &tlo, &thi))
		return;
	to_pct(mb, tlo, thi, lo, hi);
}

/* Sum of squares about the mean. */
static double ss_about_mean(const double *v, int n)
{
	double m = lab_mean(v, n), s = 0;

	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return s;
}

static struct lab_vc vc_from(double var_of_mean, double ssw, int dfw, double reps)
{
	struct lab_vc vc = { NAN, NAN, reps, 0 };

	/* one rep per unit: nothing tells within from between; all of it counts as between */
	vc.within = dfw > 0 ? ssw / dfw : 0;
	vc.between = var_of_mean - vc.within / (reps > 0 ? reps : 1);
	if (vc.between < 0)
		vc.between = 0;
	return vc;
}

struct lab_vc lab_vc_unpaired(const double *mb, int nb, const double *mo, int no, double ssw,
			      int dfw, double reps)
{
	struct lab_vc none = { NAN, NAN, reps, 0 };

	if (nb + no - 2 < 1 || nb < 1 || no < 1)
		return none;
	/* the unit means' variance pooled over both sides: between + within / r */
	return vc_from((ss_about_mean(mb, nb) + ss_about_mean(mo, no)) / (nb + no - 2), ssw, dfw,
		       reps);
}

struct lab_vc lab_vc_paired(const double *d, int n, double ssw, int dfw, double reps)
{
	struct lab_vc none = { NAN, NAN, reps, 1 }, vc;

	if (n < 2)
		return none;
	/* a difference of two unit means varies by 2 (between + within / r) */
	vc = vc_from(lab_sd(d, n) * lab_sd(d, n) / 2, ssw, dfw, reps);
	vc.paired = 1;
	return vc;
}

int lab_pairs_needed(double sd_d, double delta, double alpha, double power)
{
	return lab_samples_needed(sd_d, delta, alpha, power, 1);
}

int lab_boots_needed(const struct lab_vc *vc, int r, double delta, double alpha)
{
	double sd;

	if (isnan(vc->between) || isnan(vc->within) || r < 1)
		return -1;
	sd = sqrt(vc->between + vc->within / r);
	/* a pair's difference varies by twice a unit mean's variance */
	return vc->paired ? lab_pairs_needed(sqrt(2) * sd, delta, alpha, 0)
			  : lab_runs_needed(sd, delta, alpha, 0);
}

int lab_best_reps(const struct lab_vc *vc, double cost, double delta, double alpha,
		  int *boots)
{
	struct lab_vc inf = { vc->between, 0, vc->reps, vc->paired };
	int best = -1, floor_b = lab_boots_needed(&inf, 1, delta, alpha);
	double best_cost = INFINITY;

	*boots = -1;
	for (int r = 1; r <= 1000; r++) {
		int b;
		double c;

		/* no more reps can bring the boots below those without any within spread */
		if (floor_b > 0 && (cost + r) * floor_b >= best_cost)
			break;
		b = lab_boots_needed(vc, r, delta, alpha);
		c = (cost + r) * b;

		if (b > 0 && c < best_cost) {
			best_cost = c;
			best = r;
			*boots = b;
		}
	}
	return best;
}
