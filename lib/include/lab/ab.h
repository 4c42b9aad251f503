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

/* The mmtests-style marker of a comparison into buf: "*-2.20%*" when significant,
 * "(-2.20%)" when not, "(too few)" without a verdict. Returns buf. */
char *lab_ab_marker(const struct lab_ab *r, char *buf, int len);
/* "significant", "not significant", "too few runs", "no difference". */
const char *lab_ab_verdict_name(enum lab_verdict v);

#endif
