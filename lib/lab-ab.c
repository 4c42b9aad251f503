/* SPDX-License-Identifier: MIT */
/*
 * lab-ab: A/B comparison of benchmark samples, the lab's one place for it (hackbench, icount
 * and boot-time benches call it). Reads two files of numbers (ministat's format) or a CSV,
 * describes each variant and compares each with the base by Welch's t test at 95 %. Figures
 * from different accelerators (icount instructions vs nanoseconds) are never compared.
 * The arithmetic is in ab.c; this file only reads arguments and prints.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/ab-input.h"
#include "lab/ab.h"

static const char usage[] =
	"usage: lab-ab [OPTIONS] FILE_A FILE_B      two files of numbers, one per line\n"
	"       lab-ab [OPTIONS] --csv FILE         a CSV with a header line\n"
	"  --labels A,B       names of the two files' samples (default: the file names)\n"
	"  --accel A,B        accelerators of the two files (or a '# accel: X' line in each)\n"
	"  --variant COL      CSV column naming the variant (default: variant)\n"
	"  --value COL        CSV column with the figure (default: value)\n"
	"  --accel-col COL    CSV column with the accelerator (default: accel, if present)\n"
	"  --key COL[,COL]    CSV columns that split the comparisons (e.g. mode,ipc)\n"
	"  --base NAME        the base variant (default: the first one seen)\n"
	"  --confidence PCT   confidence of the verdict in percent (default: 95)\n"
	"  --format text|tsv  human table (default) or one tab-separated row per variant\n"
	"Exit: 0 compared, 1 bad input, 2 refused (accelerators differ, or one variant only).\n";

struct opts {
	const char *labels, *accels, *csv, *base, *format;
	struct lab_csv_cols cols;
	double confidence;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "labels", 1, 0, 'l' }, { "accel", 1, 0, 'a' }, { "csv", 1, 0, 'c' },
		{ "variant", 1, 0, 'V' }, { "value", 1, 0, 'x' }, { "accel-col", 1, 0, 'A' },
		{ "key", 1, 0, 'k' }, { "base", 1, 0, 'b' }, { "confidence", 1, 0, 'C' },
		{ "format", 1, 0, 'f' }, { "help", 0, 0, 'h' }, { 0 }
	};
	int c;

	*o = (struct opts){ .format = "text", .confidence = 0.95,
			    .cols = { "variant", "value", "accel", NULL } };
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'l': o->labels = optarg; break;
		case 'a': o->accels = optarg; break;
		case 'c': o->csv = optarg; break;
		case 'V': o->cols.variant = optarg; break;
		case 'x': o->cols.value = optarg; break;
		case 'A': o->cols.accel = optarg; break;
		case 'k': o->cols.key = optarg; break;
		case 'b': o->base = optarg; break;
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
	if (o->csv ? optind != argc : argc - optind != 2) {
		fputs(usage, stderr);
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

static const char *unit_of(const char *accel)
{
	return !strcmp(accel, "icount") ? "instructions" : *accel ? "time" : "unknown";
}

static void print_text_head(const char *key, const char *accel, double conf)
{
	printf("%s%s%saccel %s, Welch's t at %g %%\n", *key ? "key " : "", key, *key ? ", " : "",
	       *accel ? accel : "unknown", conf * 100);
	printf("%-13s %3s %8s %8s %8s %8s %8s\n", "variant", "n", "mean", "median", "sd", "min",
	       "max");
}

static void print_text_desc(const char *variant, const struct lab_desc *d)
{
	printf("%-13.13s %3d %8.4g %8.4g %8.4g %8.4g %8.4g\n", variant, d->n, d->mean, d->median,
	       d->sd, d->min, d->max);
}

static void print_text_cmp(const char *base, const char *other, const struct lab_ab *r)
{
	char m[32];

	printf("  %s vs %s: %+.4g %s %s", other, base, r->diff, lab_ab_marker(r, m, sizeof(m)),
	       lab_ab_verdict_name(r->verdict));
	if (!isnan(r->t))
		printf(" (t %.2f, df %.1f, p %.2g)", r->t, r->df, r->p);
	printf("\n");
}

static void print_tsv(const struct lab_sample *s, const struct lab_desc *d, const char *base,
		      const struct lab_ab *r, double conf)
{
	char m[32] = "";

	printf("%s\t%s\t%s\t%d\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%s", s->key, s->variant,
	       s->accel, d->n, d->mean, d->median, d->sd, d->min, d->max,
	       lab_ci_halfwidth(d, conf), base);
	if (r)
		printf("\t%.9g\t%.6g\t%.6g\t%.6g\t%.6g\t%s\t%s\n", r->diff, r->pct, r->t, r->df, r->p,
		       lab_ab_verdict_name(r->verdict), lab_ab_marker(r, m, sizeof(m)));
	else
		printf("\t\t\t\t\t\tbase\t\n");
}

/* Compare the samples of one key; 0, or 2 when refused. */
static int compare_key(struct lab_samples *ss, const char *key, const struct opts *o)
{
	struct lab_sample *g[64], *base = NULL;
	struct lab_desc db;
	int n = 0;
	int text = !strcmp(o->format, "text");

	for (int i = 0; i < ss->n && n < 64; i++)
		if (!strcmp(ss->s[i].key, key))
			g[n++] = &ss->s[i];
	for (int i = 0; i < n; i++) {
		if (strcmp(g[i]->accel, g[0]->accel)) {
			fprintf(stderr, "lab-ab: refusing to compare %s (%s) with %s (%s): %s%s"
				"figures from different accelerators\n", g[0]->variant,
				*g[0]->accel ? g[0]->accel : "?", g[i]->variant,
				*g[i]->accel ? g[i]->accel : "?", key, *key ? ": " : "");
			return 2;
		}
		if (!base && (!o->base || !strcmp(g[i]->variant, o->base)))
			base = g[i];
	}
	if (!base) {
		fprintf(stderr, "lab-ab: no variant '%s'%s%s\n", o->base, *key ? " under key " : "", key);
		return 2;
	}
	if (n < 2) {
		fprintf(stderr, "lab-ab: only one variant (%s)%s%s: nothing to compare\n",
			base->variant, *key ? " under key " : "", key);
		return 2;
	}
	db = lab_describe(base->v, base->n);
	if (text) {
		print_text_head(key, base->accel, o->confidence);
		print_text_desc(base->variant, &db);
	} else {
		print_tsv(base, &db, base->variant, NULL, o->confidence);
	}
	/* Describe and compare each variant once; text prints all descriptions, then the tests. */
	struct lab_ab cmp[n];

	for (int i = 0; i < n; i++) {
		struct lab_desc d;

		if (g[i] == base)
			continue;
		d = lab_describe(g[i]->v, g[i]->n);
		cmp[i] = lab_ab_compare(&db, &d, o->confidence);
		if (text)
			print_text_desc(g[i]->variant, &d);
		else
			print_tsv(g[i], &d, base->variant, &cmp[i], o->confidence);
	}
	for (int i = 0; text && i < n; i++)
		if (g[i] != base)
			print_text_cmp(base->variant, g[i]->variant, &cmp[i]);
	if (text)
		printf("  (figures: %s)\n", unit_of(base->accel));
	return 0;
}

int main(int argc, char **argv)
{
	struct lab_samples ss = { 0 };
	struct opts o;
	char err[512], lb[256], ab[256], same[300], *la, *lb2, *aa = "", *ab2 = "";
	int rc = 0;

	if (parse_opts(argc, argv, &o))
		return 1;
	if (o.csv) {
		if (lab_read_csv(&ss, o.csv, &o.cols, err, sizeof(err))) {
			fprintf(stderr, "lab-ab: %s\n", err);
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
		return 1;
	}
	if (!strcmp(o.format, "tsv"))
		printf("key\tvariant\taccel\tn\tmean\tmedian\tsd\tmin\tmax\tci\tbase\tdiff\tpct\tt\tdf\tp"
		       "\tverdict\tmarker\n");
	/* One comparison per key, keys in order of first appearance. */
	for (int i = 0; i < ss.n && !rc; i++) {
		int seen = 0;

		for (int j = 0; j < i; j++)
			seen |= !strcmp(ss.s[j].key, ss.s[i].key);
		if (!seen) {
			if (i && !strcmp(o.format, "text"))
				printf("\n");
			rc = compare_key(&ss, ss.s[i].key, &o);
		}
	}
	lab_samples_free(&ss);
	return rc;
}
