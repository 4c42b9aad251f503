/* SPDX-License-Identifier: MIT */
/*
 * The designs beside Welch's (lab/ab.h): paired samples (t on the differences, Wilcoxon's
 * signed-rank test, Hodges-Lehmann on the differences), the relative change's interval by
 * Fieller, and the boots a +-1 % interval needs under a one-way random-effects model (boots
 * as units, reps inside a boot as subsamples). No printing here.
 */
#ifndef LAB_AB_PAIRED_H
#define LAB_AB_PAIRED_H

#include "lab/ab.h"

/* Largest n for which the signed-rank p is exact (sums counted over all 2^n sign patterns);
 * above it, the normal approximation with the tie correction. */
#define LAB_SIGNRANK_EXACT_MAX 50

/* other[i] - base[i] for n pairs: paired t (df n - 1) and its interval; pct as Welch's (of
 * the base mean). Fewer than LAB_AB_MIN_RUNS pairs: no verdict. */
struct lab_ab lab_paired_compare(const double *base, const double *other, int n,
				 double confidence);

/* Wilcoxon's signed-rank test of the n differences d: zeros dropped, ties as midranks, the
 * two-sided p exact for up to LAB_SIGNRANK_EXACT_MAX nonzero differences. *wplus: the sum of
 * the positive differences' ranks. 1 when every difference is 0. */
double lab_signrank_p(const double *d, int n, double *wplus);
/* Without ties or zeros: P(T+ <= t) for n differences. */
double lab_signrank_cdf(int n, int t);

/* The rank view of paired data as struct lab_rank: u is T+, p Wilcoxon's, hl the median of
 * the Walsh averages (d_i + d_j) / 2, i <= j, with its distribution-free interval; % figures
 * of the base median, as lab_rank_compare's. */
struct lab_rank lab_signrank_compare(const double *base, const double *other, int n,
				     double confidence);

/* Fieller's interval of num / den, the two means estimated with variances vnn, vdd and
 * covariance vnd, at the t value tq: 0 with [*lo, *hi], -1 (NaNs) when den's own interval
 * reaches 0 and the set is unbounded. */
int lab_fieller(double num, double den, double vnn, double vnd, double vdd, double tq,
		double *lo, double *hi);

/* The % change other/base - 1 and its interval by Fieller, for the design used: unpaired
 * (Welch's df, the means independent) or paired (the differences' mean over the base mean,
 * their covariance counted, df n - 1). p_level is the two-sided level (1 - confidence, or
 * Holm's adjusted one). NaNs when not computable (too few, an unbounded set). */
void lab_rel_unpaired(const struct lab_desc *base, const struct lab_desc *other, double level,
		      double *lo, double *hi);
void lab_rel_paired(const double *base, const double *other, int n, double level, double *lo,
		    double *hi);

/* Variance components of one-way random effects: a unit's mean of r reps varies by
 * between + within / r. */
struct lab_vc {
	double between, within; /* variances; between clipped at 0 */
	double reps;            /* reps per unit as measured (their mean) */
	int paired;             /* from paired units: boots needed are pairs for the paired t */
};

/* Unpaired: from the two sides' unit means (mb, mo: nb, no units), within-unit sums of
 * squares ssw over dfw degrees of freedom (both sides pooled) and reps per unit. */
struct lab_vc lab_vc_unpaired(const double *mb, int nb, const double *mo, int no, double ssw,
			      int dfw, double reps);
/* Paired: from the per-pair differences of unit means; between is what a boot adds to a
 * difference that its pair does not share. */
struct lab_vc lab_vc_paired(const double *d, int n, double ssw, int dfw, double reps);

/* Pairs for the paired t (df n - 1) on differences of sd sd_d to show a change of delta with
 * power (e.g. 0.8) at two-sided level alpha, or (power 0) for an interval no wider than
 * +-delta. 1 when sd_d is 0; -1 when over 100000. */
int lab_pairs_needed(double sd_d, double delta, double alpha, double power);

/* Units (boots) per side (pairs when paired) for a +-delta interval of the difference with r reps per boot;
 * -1 when over 100000. */
int lab_boots_needed(const struct lab_vc *vc, int r, double delta, double alpha);
/* The reps per boot (1..1000) that minimise (cost + r) x boots, a boot costing cost reps;
 * *boots its boots. Ties go to fewer reps. */
int lab_best_reps(const struct lab_vc *vc, double cost, double delta, double alpha,
		  int *boots);

#endif
