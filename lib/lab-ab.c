/* SPDX-License-Identifier: MIT */
/*
 * lab-ab: A/B comparison of benchmark samples, the lab's one place for it (hackbench, icount
 * and boot-time benches call it). Reads two files of numbers (ministat's format) or a samples
 * stream (lab/ab-input.h; scripts/ab-csv writes it from a CSV: CSV is read in Python only),
 * describes each variant and compares each with the base by Welch's t test at 95 %, or, with
 * --pair, by the paired t test on the differences; --unit first summarises the rows of each
 * unit (a boot) by their mean. Figures from different accelerators (icount instructions vs
 * nanoseconds) are never compared. The arithmetic is in ab.c and ab-paired.c; this file only
 * reads arguments, matches pairs and prints.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/ab-input.h"
#include "lab/ab.h"
#include "lab/ab-paired.h"

static const char usage[] =
	"usage: lab-ab [OPTIONS] FILE_A FILE_B      two files of numbers, one per line\n"
	"       lab-ab [OPTIONS] --samples FILE     a samples stream ('-': stdin), one value a line:\n"
	"                     key TAB variant TAB accel TAB unit TAB pair TAB value\n"
	"                     (from a CSV: scripts/ab-csv LAB_AB [OPTIONS] --csv FILE)\n"
	"  --labels A,B       names of the two files' samples (default: the file names)\n"
	"  --accel A,B        accelerators of the two files (or a '# accel: X' line in each)\n"
	"  --unit COL         summarise each unit's values (the unit field; COL names it, e.g.\n"
	"                     round: one boot) by their mean; the tests run over those means\n"
	"  --pair COL         pair base and other by the pair field (COL names it, e.g. batch,\n"
	"                     round): paired t on the differences, Wilcoxon signed-rank,\n"
	"                     Hodges-Lehmann on them\n"
	"  --unit-cost REPS   with --unit: a boot's fixed cost in reps, for the cheapest reps per\n"
	"                     boot (default: 2)\n"
	"  --base NAME        the base variant (default: the first one seen)\n"
	"  --confidence PCT   confidence of the verdict in percent (default: 95)\n"
	"  --format text|tsv  human table (default) or one tab-separated row per variant\n"
	"Exit: 0 compared, 1 bad input, 2 refused (accelerators differ, or one variant only).\n";

struct opts {
	const char *labels, *accels, *samples, *base, *format;
	struct lab_ab_cols cols;
	double confidence, unit_cost;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "labels", 1, 0, 'l' }, { "accel", 1, 0, 'a' }, { "samples", 1, 0, 's' },
		{ "base", 1, 0, 'b' }, { "confidence", 1, 0, 'C' },
		{ "format", 1, 0, 'f' }, { "unit", 1, 0, 'u' }, { "pair", 1, 0, 'p' },
		{ "unit-cost", 1, 0, 'U' }, { "help", 0, 0, 'h' }, { 0 }
	};
	int c;

	*o = (struct opts){ .format = "text", .confidence = 0.95, .unit_cost = 2 };
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'l': o->labels = optarg; break;
		case 'a': o->accels = optarg; break;
		case 's': o->samples = optarg; break;
		case 'b': o->base = optarg; break;
		case 'u': o->cols.unit = optarg; break;
		case 'p': o->cols.pair = optarg; break;
		case 'U': {
			char *end;

			o->unit_cost = strtod(optarg, &end);
			if (end == optarg || *end || !(o->unit_cost >= 0 && o->unit_cost < 1e6)) {
				fprintf(stderr, "lab-ab: --unit-cost wants a number of reps >= 0, not '%s'\n",
					optarg);
				return -1;
			}
			break;
		}
		case 'C':
			o->confidence = atof(optarg) / 100;
			if (!(o->confidence > 0.5 && o->confidence < 1)) {
				fprintf(stderr, "lab-ab: --confidence must be between 50 and 100\n");
				return -1;
			}
			break;
		case 'f':
			o->format = optarg;
			if (strcmp(optarg, "text") && strcmp(optarg, "tsv")) {
				fprintf(stderr, "lab-ab: --format must be text or tsv\n");
				return -1;
			}
			break;
		case 'h': fputs(usage, stdout); exit(0);
		default: fputs(usage, stderr); return -1;
		}
	}
	if (o->samples ? optind != argc : argc - optind != 2) {
		fputs(usage, stderr);
		return -1;
	}
	if (!o->samples && (o->cols.unit || o->cols.pair)) {
		fprintf(stderr, "lab-ab: --unit and --pair need --samples\n");
		return -1;
	}
	return 0;
}

/* "a,b" into two strings (pointers into buf). */
static int pair(const char *s, char *buf, size_t len, char **a, char **b)
{
	snprintf(buf, len, "%s", s);
	*a = buf;
	*b = strchr(buf, ',');
	if (!*b)
		return -1;
	*(*b)++ = 0;
	return 0;
}

/* One comparison: base vs other under one key, with everything printed about it. */
struct cmp {
	struct lab_sample *base, *other;
	struct lab_desc db, d;
	struct lab_ab ab;
	struct lab_rank rk;
	double p_holm, mw_holm;
	int runs_power, runs_ci;
	enum lab_verdict raw; /* Welch's (or the paired t's) verdict before Holm */
	/* paired: the matched values (np pairs, in base order); NULL unpaired */
	double *xb, *xo;
	int np;
	double rel_lo, rel_hi, adj_lo, adj_hi, adj_conf; /* Fieller's % intervals */
	struct lab_vc vc;       /* with --unit: between and within variance */
	int boots_now, reps_now, reps_best, boots_best;
};

/* The groups: for each key, its samples (base first) and comparisons. */
struct group {
	const char *key;
	struct lab_sample *g[64];
	int n;
	struct cmp *c; /* n - 1 comparisons, in sample order */
};

/* Runs (units) per side for a 1 % change at the spread of the two samples (their pooled sd),
 * or, paired, pairs at the spread of the differences (the paired t's df n - 1). */
static void runs_for(struct cmp *c, double alpha)
{
	double sd2 = 0, delta = 0.01 * fabs(c->db.mean);
	int df = 0;

	if (c->xb) {
		double *d = malloc((c->np ? c->np : 1) * sizeof(*d)), sd;

		for (int i = 0; i < c->np; i++)
			d[i] = c->xo[i] - c->xb[i];
		sd = lab_sd(d, c->np);
		free(d);
		c->runs_power = c->runs_ci = -2;
		if (c->np >= 2) {
			c->runs_power = lab_pairs_needed(sd, delta, alpha, 0.8);
			c->runs_ci = lab_pairs_needed(sd, delta, alpha, 0);
		}
		return;
	} else if (c->db.n >= 2 && c->d.n >= 2) {
		sd2 = ((c->db.n - 1) * c->db.sd * c->db.sd + (c->d.n - 1) * c->d.sd * c->d.sd);
		df = c->db.n + c->d.n - 2;
	}
	c->runs_power = c->runs_ci = -2; /* -2: not computed */
	if (df > 0) {
		c->runs_power = lab_runs_needed(sqrt(sd2 / df), delta, alpha, 0.8);
		c->runs_ci = lab_runs_needed(sqrt(sd2 / df), delta, alpha, 0);
	}
}

static void modes_str(const struct lab_sample *s, char *buf, int len)
{
	double c[8];
	int k[8], n = lab_modes(s->v, s->n, LAB_AB_MODE_GAP, c, k, 8), o = 0;

	buf[0] = 0;
	for (int i = 0; i < n && i < 8 && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%.6gx%d", i ? ";" : "", c[i], k[i]);
	if (n > 8 && o < len)
		snprintf(buf + o, len - o, ";...");
}

/* "resolved" when the half-width of the difference's interval is at most 1 % of the base
 * mean (the TSV's resolution column, kept as it was), "unresolved" when wider, "" without an
 * interval. */
static const char *resolution(const struct cmp *c)
{
	if (isnan(c->ab.pct_lo) || isnan(c->ab.pct_hi))
		return "";
	return (c->ab.pct_hi - c->ab.pct_lo) / 2 <= 1 ? "resolved" : "unresolved";
}

/* Two words kept apart: "+-1 % precision" (the half-width of the Fieller interval at most 1 %)
 * and "within +-1 %" (the whole interval inside it): "yes", "no", or "" without one. */
static const char *precision(const struct cmp *c)
{
	if (isnan(c->rel_lo) || isnan(c->rel_hi))
		return "";
	return (c->rel_hi - c->rel_lo) / 2 <= 1 ? "yes" : "no";
}

static const char *within(const struct cmp *c)
{
	if (isnan(c->rel_lo) || isnan(c->rel_hi))
		return "";
	return c->rel_lo >= -1 && c->rel_hi <= 1 ? "yes" : "no";
}

static const char *runs_str(int n, char *buf, int len)
{
	if (n == -2)
		snprintf(buf, len, "?");
	else if (n < 0)
		snprintf(buf, len, ">100000");
	else
		snprintf(buf, len, "%d", n);
	return buf;
}

/* "paired by round, 3 units" / "unpaired, 16 units"; n: the units of a base row */
static void design_str(const struct cmp *c, int n, const struct opts *o, char *buf, int len)
{
	if (o->cols.pair)
		snprintf(buf, len, "paired by %s, %d unit%s", o->cols.pair, c ? c->np : n,
			 (c ? c->np : n) == 1 ? "" : "s");
	else
		snprintf(buf, len, "unpaired, %d unit%s", c ? c->d.n : n, (c ? c->d.n : n) == 1 ? "" : "s");
}

static void print_text_head(const struct group *gr, const struct opts *o, int ncmp)
{
	const char *key = gr->key, *accel = gr->g[0]->accel;
	const struct lab_sample *b = gr->g[0];

	printf("%s%s%saccel %s, %s at %g %%, Holm over %d comparisons\n", *key ? "key " : "",
	       key, *key ? ", " : "", *accel ? accel : "unknown",
	       o->cols.pair ? "paired t on the differences" : "Welch's t", o->confidence * 100,
	       ncmp);
	if (o->cols.unit)
		printf("the unit is one %s: each %s's %s rows (%d in %d units) summarised by their mean\n",
		       o->cols.unit, o->cols.unit, b->variant, b->rows, b->n);
	printf("%-13s %3s %8s %8s %8s %8s %8s  %s\n", "variant", "n", "mean", "median", "sd", "min",
	       "max", "modes (median x runs)");
}

static void print_text_desc(const struct lab_sample *s, const struct lab_desc *d)
{
	char m[256];

	modes_str(s, m, sizeof(m));
	printf("%-13.13s %3d %8.4g %8.4g %8.4g %8.4g %8.4g  %s\n", s->variant, d->n, d->mean,
	       d->median, d->sd, d->min, d->max, m);
}

static void print_text_cmp(const struct cmp *c, const struct opts *o)
{
	char m[32], a[32], b[32], des[128];
	double conf = o->confidence;

	design_str(c, 0, o, des, sizeof(des));
	printf("  %s vs %s: %+.4g %s %s", c->other->variant, c->base->variant, c->ab.diff,
	       lab_ab_marker(&c->ab, m, sizeof(m)), lab_ab_verdict_name(c->ab.verdict));
	if (!isnan(c->ab.t))
		printf(" (%st %.2f, df %.1f, p %.2g, Holm p %.2g)", c->xb ? "paired " : "", c->ab.t,
		       c->ab.df, c->ab.p, c->p_holm);
	printf("\n    design: %s\n", des);
	if (!isnan(c->ab.lo))
		printf("    mean diff %+.4g, %g %% CI [%+.4g, %+.4g] = [%+.2f%%, %+.2f%%] of the base mean\n",
		       c->ab.diff, conf * 100, c->ab.lo, c->ab.hi, c->ab.pct_lo, c->ab.pct_hi);
	if (!isnan(c->rel_lo))
		printf("    change by Fieller, %g %% CI [%+.2f%%, %+.2f%%]: +-1 %% precision %s "
		       "(half-width %.2f %%), within +-1 %% %s\n", conf * 100, c->rel_lo, c->rel_hi,
		       precision(c), (c->rel_hi - c->rel_lo) / 2, within(c));
	else if (c->ab.verdict != LAB_AB_TOO_FEW)
		printf("    change by Fieller: no bounded interval (the base mean's own interval holds 0)\n");
	if (!isnan(c->adj_lo))
		printf("    Holm-adjusted: %.4g %% CI [%+.2f%%, %+.2f%%] (excludes 0 exactly when Holm's verdict is significant)\n",
		       c->adj_conf * 100, c->adj_lo, c->adj_hi);
	printf("    ranks: Hodges-Lehmann shift%s %+.4g (%+.2f%%)", c->xb ? " of the differences" : "",
	       c->rk.hl, c->rk.pct);
	if (!isnan(c->rk.lo))
		printf(", %.1f %% CI [%+.4g, %+.4g] = [%+.2f%%, %+.2f%%]", c->rk.coverage * 100,
		       c->rk.lo, c->rk.hi, c->rk.pct_lo, c->rk.pct_hi);
	else
		printf(", no interval (too few runs)");
	if (c->xb)
		printf("; Wilcoxon signed-rank T+ %.1f, p %.2g, Holm p %.2g\n", c->rk.u, c->rk.p,
		       c->mw_holm);
	else
		printf("; Mann-Whitney U %.1f, p %.2g, Holm p %.2g\n", c->rk.u, c->rk.p, c->mw_holm);
	printf("    %s per side for a 1 %% change at this spread: %s to detect it (80 %% power), "
	       "%s for a CI of +-1 %%\n", o->cols.unit ? "units" : "runs",
	       runs_str(c->runs_power, a, sizeof(a)), runs_str(c->runs_ci, b, sizeof(b)));
	if (o->cols.unit && !isnan(c->vc.between)) {
		printf("    boots: between-%s sd %.4g, within sd %.4g (%.3g reps a %s): %s %ss x %d "
		       "reps a side for +-1 %%; ", o->cols.unit, sqrt(c->vc.between),
		       sqrt(c->vc.within), c->vc.reps, o->cols.unit, runs_str(c->boots_now, a, sizeof(a)),
		       o->cols.unit, c->reps_now);
		if (c->reps_best > 0)
			printf("cheapest at a %s's cost of %g reps: %d reps x %s %ss\n", o->cols.unit,
			       o->unit_cost, c->reps_best, runs_str(c->boots_best, b, sizeof(b)),
			       o->cols.unit);
		else
			printf("no reps a %s reach it in 100000 %ss\n", o->cols.unit, o->cols.unit);
		if (c->vc.reps == 1)
			printf("    (one rep a %s: within and between cannot be told apart; all counted as between)\n",
			       o->cols.unit);
	}
}

static void print_tsv_head(void)
{
	printf("key\tvariant\taccel\tn\tmean\tmedian\tsd\tmin\tmax\tci\tbase\tdiff\tpct\tt\tdf\tp"
	       "\tverdict\tmarker\tdiff_lo\tdiff_hi\tpct_lo\tpct_hi\tp_holm\tverdict_raw"
	       "\tmw_u\tmw_p\tmw_p_holm\thl\thl_lo\thl_hi\thl_pct\thl_pct_lo\thl_pct_hi"
	       "\thl_coverage\truns_1pct\truns_ci_1pct\tmodes\tresolution"
	       "\tdesign\tunits\trel_lo\trel_hi\tprecision\twithin\tadj_lo\tadj_hi"
	       "\tsd_between\tsd_within\treps\tboots_1pct\treps_best\tboots_best\n");
}

static void print_tsv(const struct lab_sample *s, const struct lab_desc *d, const char *base,
		      const struct cmp *c, const struct opts *o)
{
	char m[32] = "", md[256], a[32], b[32], des[128];
	const struct lab_ab *r = c ? &c->ab : NULL;

	modes_str(s, md, sizeof(md));
	printf("%s\t%s\t%s\t%d\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%s", s->key, s->variant,
	       s->accel, d->n, d->mean, d->median, d->sd, d->min, d->max,
	       lab_ci_halfwidth(d, o->confidence), base);
	if (!r) {
		/* the comparison's 6 + 6 + 12 columns empty, verdict "base", then the modes; of the
		 * appended ones the design and the base's units only */
		printf("\t\t\t\t\t\tbase\t");
		for (int i = 0; i < 18; i++)
			printf("\t");
		printf("\t%s\t", md);
		design_str(NULL, d->n, o, des, sizeof(des));
		printf("\t%s\t%d", des, d->n);
		for (int i = 0; i < 12; i++)
			printf("\t");
		printf("\n");
		return;
	}
	printf("\t%.9g\t%.6g\t%.6g\t%.6g\t%.6g\t%s\t%s", r->diff, r->pct, r->t, r->df, r->p,
	       lab_ab_verdict_name(r->verdict), lab_ab_marker(r, m, sizeof(m)));
	printf("\t%.9g\t%.9g\t%.6g\t%.6g\t%.6g\t%s", r->lo, r->hi, r->pct_lo, r->pct_hi, c->p_holm,
	       lab_ab_verdict_name(c->raw));
	printf("\t%.1f\t%.6g\t%.6g\t%.9g\t%.9g\t%.9g\t%.6g\t%.6g\t%.6g\t%.4g\t%s\t%s\t%s\t%s",
	       c->rk.u, c->rk.p, c->mw_holm, c->rk.hl, c->rk.lo, c->rk.hi, c->rk.pct,
	       c->rk.pct_lo, c->rk.pct_hi, c->rk.coverage, runs_str(c->runs_power, a, sizeof(a)),
	       runs_str(c->runs_ci, b, sizeof(b)), md, resolution(c));
	design_str(c, 0, o, des, sizeof(des));
	printf("\t%s\t%d\t%.6g\t%.6g\t%s\t%s\t%.6g\t%.6g", des, c->xb ? c->np : d->n, c->rel_lo,
	       c->rel_hi, precision(c), within(c), c->adj_lo, c->adj_hi);
	if (o->cols.unit && !isnan(c->vc.between)) {
		printf("\t%.6g\t%.6g\t%.6g\t%s\t", sqrt(c->vc.between), sqrt(c->vc.within),
		       c->vc.reps, runs_str(c->boots_now, a, sizeof(a)));
		/* no reps a boot reach +-1 % in 100000 boots: both empty */
		if (c->reps_best > 0)
			printf("%d\t%s\n", c->reps_best, runs_str(c->boots_best, b, sizeof(b)));
		else
			printf("\t\n");
	}
	else
		printf("\t\t\t\t\t\t\n");
}

/* Each side's values in pair order: xb, xo (base's order). 0, or 1 with a one-line error
 * naming the rows that have no partner. */
static int match_pairs(struct cmp *c, const char *key, const struct opts *o)
{
	const struct lab_sample *b = c->base, *x = c->other;
	const struct lab_sample *side[2] = { b, x };
	char msg[1024];
	int len = 0, bad = 0;

	for (int s = 0; s < 2; s++)
		for (int i = 0; i < side[s]->n; i++)
			for (int j = i + 1; j < side[s]->n; j++)
				if (!strcmp(side[s]->pair[i], side[s]->pair[j])) {
					fprintf(stderr, "lab-ab: %s%s%s has %s %s twice: pairs need one "
						"row per value a side (summarise with --unit)\n",
						side[s]->variant, *key ? " under key " : "", key,
						o->cols.pair, side[s]->pair[i]);
					return 1;
				}
	c->xb = malloc((b->n ? b->n : 1) * sizeof(double));
	c->xo = malloc((b->n ? b->n : 1) * sizeof(double));
	c->np = 0;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < side[s]->n; i++) {
			const struct lab_sample *t = side[!s];
			int j = 0;

			while (j < t->n && strcmp(t->pair[j], side[s]->pair[i]))
				j++;
			if (j < t->n) {
				if (!s) {
					c->xb[c->np] = b->v[i];
					c->xo[c->np++] = x->v[j];
				}
				continue;
			}
			if (bad++ < 6)
				len += snprintf(msg + len, sizeof(msg) - len > 0 ? sizeof(msg) - len : 0,
						"%s%s %s of %s", bad > 1 ? ", " : "", o->cols.pair,
						side[s]->pair[i], side[s]->variant);
		}
	if (bad) {
		fprintf(stderr, "lab-ab: unpaired rows%s%s: %s%s (no row with that %s in the other "
			"variant)\n", *key ? " under key " : "", key, msg, bad > 6 ? ", ..." : "",
			o->cols.pair);
		return 1;
	}
	return 0;
}

/* With --unit: the variance components and the boots a +-1 % interval needs. */
static void boots_for(struct cmp *c, const struct opts *o)
{
	double delta = 0.01 * fabs(c->db.mean), alpha = 1 - o->confidence;
	int rows = c->base->rows + c->other->rows, units = c->base->n + c->other->n;
	int dfw = c->base->dfw + c->other->dfw;
	double ssw = c->base->ssw + c->other->ssw, reps = units ? (double)rows / units : NAN;

	if (c->xb) {
		double *d = malloc((c->np ? c->np : 1) * sizeof(*d));

		for (int i = 0; i < c->np; i++)
			d[i] = c->xo[i] - c->xb[i];
		c->vc = lab_vc_paired(d, c->np, ssw, dfw, reps);
		free(d);
	} else {
		c->vc = lab_vc_unpaired(c->base->v, c->base->n, c->other->v, c->other->n, ssw, dfw,
					reps);
	}
	c->reps_now = (int)lround(reps);
	c->boots_now = c->boots_best = -2;
	c->reps_best = 0;
	if (isnan(c->vc.between) || !(delta > 0))
		return;
	c->boots_now = lab_boots_needed(&c->vc, c->reps_now, delta, alpha);
	c->reps_best = lab_best_reps(&c->vc, o->unit_cost, delta, alpha, &c->boots_best);
	/* The units needed from the model too: a unit mean's variance between + within / r
	 * rests on every row, where the unit means alone may be two or three values. */
	if (c->reps_now >= 1) {
		double sd = sqrt(c->vc.between + c->vc.within / c->reps_now);

		c->runs_power = c->vc.paired ? lab_pairs_needed(sqrt(2) * sd, delta, alpha, 0.8)
					     : lab_runs_needed(sd, delta, alpha, 0.8);
		c->runs_ci = c->boots_now;
	}
}

/* Gather and check one key's samples and compare them; 0, 1 on bad input (unpaired rows),
 * or 2 when refused. */
static int compare_key(struct lab_samples *ss, struct group *gr, const struct opts *o)
{
	struct lab_sample *base = NULL;
	int k = 0;

	gr->n = 0;
	for (int i = 0; i < ss->n && gr->n < 64; i++)
		if (!strcmp(ss->s[i].key, gr->key))
			gr->g[gr->n++] = &ss->s[i];
	for (int i = 0; i < gr->n; i++) {
		if (strcmp(gr->g[i]->accel, gr->g[0]->accel)) {
			fprintf(stderr, "lab-ab: refusing to compare %s (%s) with %s (%s): %s%s"
				"figures from different accelerators\n", gr->g[0]->variant,
				*gr->g[0]->accel ? gr->g[0]->accel : "?", gr->g[i]->variant,
				*gr->g[i]->accel ? gr->g[i]->accel : "?", gr->key,
				*gr->key ? ": " : "");
			return 2;
		}
		if (!base && (!o->base || !strcmp(gr->g[i]->variant, o->base)))
			base = gr->g[i];
	}
	if (!base) {
		fprintf(stderr, "lab-ab: no variant '%s'%s%s\n", o->base,
			*gr->key ? " under key " : "", gr->key);
		return 2;
	}
	if (gr->n < 2) {
		fprintf(stderr, "lab-ab: only one variant (%s)%s%s: nothing to compare\n",
			base->variant, *gr->key ? " under key " : "", gr->key);
		return 2;
	}
	/* base first, the others in order of appearance */
	for (int i = 0; i < gr->n; i++)
		if (gr->g[i] == base) {
			memmove(gr->g + 1, gr->g, i * sizeof(gr->g[0]));
			gr->g[0] = base;
		}
	gr->c = calloc(gr->n - 1, sizeof(*gr->c));
	for (int i = 1; i < gr->n; i++, k++) {
		struct cmp *c = &gr->c[k];

		c->base = base;
		c->other = gr->g[i];
		c->db = lab_describe(base->v, base->n);
		c->d = lab_describe(c->other->v, c->other->n);
		c->adj_lo = c->adj_hi = c->adj_conf = NAN;
		if (o->cols.pair) {
			if (match_pairs(c, gr->key, o)) {
				for (int j = 0; j <= k; j++) {
					free(gr->c[j].xb);
					free(gr->c[j].xo);
				}
				free(gr->c);
				return 1;
			}
			c->ab = lab_paired_compare(c->xb, c->xo, c->np, o->confidence);
			c->rk = lab_signrank_compare(c->xb, c->xo, c->np, o->confidence);
			lab_rel_paired(c->xb, c->xo, c->np, 1 - o->confidence, &c->rel_lo, &c->rel_hi);
		} else {
			c->ab = lab_ab_compare(&c->db, &c->d, o->confidence);
			c->rk = lab_rank_compare(base->v, base->n, c->other->v, c->other->n,
						 o->confidence);
			lab_rel_unpaired(&c->db, &c->d, 1 - o->confidence, &c->rel_lo, &c->rel_hi);
		}
		c->raw = c->ab.verdict;
		runs_for(c, 1 - o->confidence);
		c->vc = (struct lab_vc){ NAN, NAN, NAN, 0 };
		if (o->cols.unit)
			boots_for(c, o);
	}
	return 0;
}

/* The Holm-consistent interval: Fieller's at the level alpha p / p_holm. It is the Holm step's
 * own level alpha / (m - i) where the step-down has not been held back by an earlier larger
 * adjusted p, stricter where it has; so it excludes 0 exactly when Holm's verdict is
 * significant (Fieller's set holds 0 exactly when the t test of the difference keeps it). */
static void adjust(struct cmp *c, double alpha)
{
	double level;

	if (isnan(c->p_holm) || isnan(c->rel_lo))
		return;
	if (c->ab.p == 0 || c->ab.verdict == LAB_AB_IDENTICAL) {
		/* no spread: the interval is the change itself at any level */
		c->adj_lo = c->rel_lo;
		c->adj_hi = c->rel_hi;
		c->adj_conf = 1;
		return;
	}
	level = c->p_holm > 0 ? alpha * c->ab.p / c->p_holm : alpha;
	c->adj_conf = 1 - level;
	if (c->xb)
		lab_rel_paired(c->xb, c->xo, c->np, level, &c->adj_lo, &c->adj_hi);
	else
		lab_rel_unpaired(&c->db, &c->d, level, &c->adj_lo, &c->adj_hi);
}

/* Holm over every comparison of the run (the t test's and the rank test's p apart); the
 * verdict is the corrected one, and each interval gets its adjusted twin. */
static void correct(struct group *gr, int ngr, double alpha)
{
	int k = 0, i = 0;

	for (int a = 0; a < ngr; a++)
		k += gr[a].n - 1;
	double pw[k > 0 ? k : 1], pm[k > 0 ? k : 1], aw[k > 0 ? k : 1], am[k > 0 ? k : 1];

	for (int a = 0; a < ngr; a++)
		for (int b = 0; b < gr[a].n - 1; b++, i++) {
			struct cmp *c = &gr[a].c[b];

			/* identical or too few: no test, not counted */
			pw[i] = c->ab.verdict == LAB_AB_SIGNIFICANT ||
				c->ab.verdict == LAB_AB_NOT_SIGNIFICANT ? c->ab.p : NAN;
			pm[i] = c->rk.p;
		}
	lab_holm(pw, aw, k);
	lab_holm(pm, am, k);
	i = 0;
	for (int a = 0; a < ngr; a++)
		for (int b = 0; b < gr[a].n - 1; b++, i++) {
			struct cmp *c = &gr[a].c[b];

			c->p_holm = aw[i];
			c->mw_holm = am[i];
			if (!isnan(aw[i]) && c->ab.verdict != LAB_AB_IDENTICAL)
				c->ab.verdict = aw[i] < alpha ? LAB_AB_SIGNIFICANT
							      : LAB_AB_NOT_SIGNIFICANT;
			if (isnan(aw[i]) && !isnan(c->ab.p))
				c->p_holm = c->ab.p; /* no spread: p is 0 or 1 as it is */
			adjust(c, alpha);
		}
}

static void print_group(const struct group *gr, const struct opts *o, int ncmp)
{
	int text = !strcmp(o->format, "text");
	struct lab_desc db = lab_describe(gr->g[0]->v, gr->g[0]->n);

	if (text) {
		print_text_head(gr, o, ncmp);
		for (int i = 0; i < gr->n; i++) {
			struct lab_desc d = lab_describe(gr->g[i]->v, gr->g[i]->n);

			print_text_desc(gr->g[i], &d);
		}
		/* What the figures are (instructions, virtual or real ns) is the input's to say:
		 * the head names the accelerator, nothing here decides a unit. */
		for (int i = 0; i < gr->n - 1; i++)
			print_text_cmp(&gr->c[i], o);
		return;
	}
	print_tsv(gr->g[0], &db, gr->g[0]->variant, NULL, o);
	for (int i = 0; i < gr->n - 1; i++)
		print_tsv(gr->c[i].other, &gr->c[i].d, gr->g[0]->variant, &gr->c[i], o);
}

int main(int argc, char **argv)
{
	struct lab_samples ss = { 0 };
	struct opts o;
	char err[512], lb[256], ab[256], same[300], *la, *lb2, *aa = "", *ab2 = "";
	int rc = 0;

	if (parse_opts(argc, argv, &o))
		return 1;
	if (o.samples) {
		if (lab_read_samples(&ss, o.samples, &o.cols, err, sizeof(err))) {
			fprintf(stderr, "lab-ab: %s\n", err);
			lab_samples_free(&ss);
			return 1;
		}
	} else {
		la = argv[optind];
		lb2 = argv[optind + 1];
		if (o.labels && pair(o.labels, lb, sizeof(lb), &la, &lb2)) {
			fprintf(stderr, "lab-ab: --labels wants A,B\n");
			return 1;
		}
		if (o.accels && pair(o.accels, ab, sizeof(ab), &aa, &ab2)) {
			fprintf(stderr, "lab-ab: --accel wants A,B\n");
			return 1;
		}
		/* The same file twice is two samples all the same. */
		if (!strcmp(la, lb2)) {
			snprintf(same, sizeof(same), "%s (2)", lb2);
			lb2 = same;
		}
		if (lab_read_numbers(&ss, argv[optind], la, err, sizeof(err)) ||
		    lab_read_numbers(&ss, argv[optind + 1], lb2, err, sizeof(err))) {
			fprintf(stderr, "lab-ab: %s\n", err);
			lab_samples_free(&ss);
			return 1;
		}
		/* --accel overrides the files' own lines */
		if (o.accels) {
			for (int i = 0; i < ss.n; i++) {
				free(ss.s[i].accel);
				ss.s[i].accel = strdup(!strcmp(ss.s[i].variant, lb2) && i ? ab2 : aa);
			}
		}
	}
	if (!ss.n) {
		fprintf(stderr, "lab-ab: no values\n");
		lab_samples_free(&ss);
		return 1;
	}
	if (o.cols.unit && lab_samples_by_unit(&ss, &o.cols, err, sizeof(err))) {
		fprintf(stderr, "lab-ab: %s\n", err);
		lab_samples_free(&ss);
		return 1;
	}
	/* Every key's comparisons first: Holm needs all their p-values before any is printed. */
	struct group gr[64];
	int ngr = 0, ncmp = 0;

	for (int i = 0; i < ss.n && !rc; i++) {
		int seen = 0;

		for (int j = 0; j < i; j++)
			seen |= !strcmp(ss.s[j].key, ss.s[i].key);
		if (seen)
			continue;
		if (ngr == 64) {
			fprintf(stderr, "lab-ab: more than 64 keys\n");
			rc = 1;
			break;
		}
		gr[ngr].key = ss.s[i].key;
		rc = compare_key(&ss, &gr[ngr], &o);
		if (!rc)
			ncmp += gr[ngr++].n - 1;
	}
	if (!rc) {
		correct(gr, ngr, 1 - o.confidence);
		if (!strcmp(o.format, "tsv"))
			print_tsv_head();
		for (int a = 0; a < ngr; a++) {
			if (a && !strcmp(o.format, "text"))
				printf("\n");
			print_group(&gr[a], &o, ncmp);
		}
	}
	for (int a = 0; a < ngr; a++) {
		for (int b = 0; b < gr[a].n - 1; b++) {
			free(gr[a].c[b].xb);
			free(gr[a].c[b].xo);
		}
		free(gr[a].c);
	}
	lab_samples_free(&ss);
	return rc;
}
