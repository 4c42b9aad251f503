/* SPDX-License-Identifier: MIT */
/*
 * A/B comparison of two samples, apart from any printing: per-sample description, and base vs
 * other with Welch's t test (unequal variances, Welch-Satterthwaite degrees of freedom), the
 * two-sided p-value from the t distribution, and a verdict at a given confidence.
 */
#ifndef LAB_AB_H
#define LAB_AB_H

/* No verdict is given from fewer runs than this per side. */
#define LAB_AB_MIN_RUNS 3
/* lab-ab's distribution view: values more than this fraction of the median apart are
 * different modes. */
#define LAB_AB_MODE_GAP 0.03

struct lab_desc {
	int n;
	double mean, median, sd, min, max; /* sd: sample standard deviation (n - 1); NaN if n < 2 */
};

enum lab_verdict {
	LAB_AB_SIGNIFICANT,     /* the means differ at the asked confidence */
	LAB_AB_NOT_SIGNIFICANT, /* no difference shown */
	LAB_AB_TOO_FEW,         /* fewer than LAB_AB_MIN_RUNS on a side: no verdict */
	LAB_AB_IDENTICAL,       /* both samples without spread and equal means: no difference */
};

struct lab_ab {
	double diff;     /* other - base */
	double pct;      /* 100 * (other - base) / base; NaN when base mean is 0 */
	double t, df, p; /* Welch's t, its degrees of freedom, two-sided p; NaN when not computed */
	enum lab_verdict verdict;
	/* The confidence interval of diff (Welch), absolute and in % of the base mean; NaN
	 * without a verdict. Both samples without spread: the interval is diff itself. */
	double lo, hi, pct_lo, pct_hi;
};

/* The rank view of base vs other (lab_rank_compare): Mann-Whitney U with its exact
 * two-sided p (permutation distribution of the rank sum, ties as midranks), and the
 * Hodges-Lehmann shift (median of all other - base differences) with its distribution-free
 * interval; the % figures are relative to the base median. */
struct lab_rank {
	double u;           /* U of other: pairs (base, other) with other > base, ties half */
	double p;           /* two-sided p; NaN with an empty side */
	double hl, lo, hi;  /* shift and its interval; lo/hi NaN when too few runs for it */
	double pct, pct_lo, pct_hi;
	double coverage;    /* the interval's exact coverage (>= the asked confidence) */
};

double lab_mean(const double *v, int n);
/* Sample standard deviation (divides by n - 1); NaN when n < 2. */
double lab_sd(const double *v, int n);
struct lab_desc lab_describe(const double *v, int n);

/* Two-sided p-value of t with df degrees of freedom (df > 0, may be fractional). */
double lab_t_pvalue(double t, double df);
/* The t value with two-sided p-value p and df degrees of freedom (e.g. p 0.05, df 4: 2.776). */
double lab_t_quantile(double p, double df);
/* Half-width of the confidence interval of the mean of d (e.g. 0.95); NaN when n < 2. */
double lab_ci_halfwidth(const struct lab_desc *d, double confidence);
/* Regularized incomplete beta function I_x(a, b), 0 <= x <= 1, a, b > 0. */
double lab_betai(double a, double b, double x);

/* base vs other from their descriptions; confidence e.g. 0.95. */
struct lab_ab lab_ab_compare(const struct lab_desc *base, const struct lab_desc *other,
			     double confidence);

/* Mann-Whitney U and Hodges-Lehmann of base (n) vs other (m) at confidence (e.g. 0.95). */
struct lab_rank lab_rank_compare(const double *base, int n, const double *other, int m,
				 double confidence);
/* Exact null distribution of U for samples of n and m without ties: P(U <= u). */
double lab_mw_cdf(int n, int m, int u);

/* Holm's step-down correction of k p-values: adj[i] is p[i] adjusted (NaN stays NaN and
 * does not count as a test). */
void lab_holm(const double *p, double *adj, int k);

/* Runs per side for two samples of sd sd to show a change of delta: with power (e.g. 0.8)
 * at two-sided level alpha (e.g. 0.05) by Welch's t, or (power 0) for a confidence interval
 * of the difference no wider than +-delta. 1 when sd is 0; -1 when over 100000. */
int lab_runs_needed(double sd, double delta, double alpha, double power);
/* The smallest n per side for a two-sample (samples 2) or one-sample (1, paired differences)
 * test to resolve delta at this sd, alpha and power (0: the interval's half-width alone);
 * -1 beyond 100000. */
int lab_samples_needed(double sd, double delta, double alpha, double power, int samples);
/* Twice the midrank of each of key[0..n) (ties share one: doubling keeps them whole) into
 * r2; returns the tie correction, the sum of t^3 - t over the groups of t tied values. */
double lab_midranks2(const double *key, int n, int *r2);

/* The distribution view of a sample: its values sorted and cut wherever two neighbours are
 * more than gap (a fraction of the median, e.g. 0.03) apart. Writes up to max clusters'
 * medians and sizes; returns the number of clusters (0 for an empty sample). */
int lab_modes(const double *v, int n, double gap, double *center, int *count, int max);

/* The mmtests-style marker of a comparison into buf: "*-2.20%*" when significant,
 * "(-2.20%)" when not, "(too few)" without a verdict. Returns buf. */
char *lab_ab_marker(const struct lab_ab *r, char *buf, int len);
/* "significant", "not significant", "too few runs", "no difference". */
const char *lab_ab_verdict_name(enum lab_verdict v);

#endif
