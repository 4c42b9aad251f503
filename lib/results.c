/* SPDX-License-Identifier: MIT */
/* Printing of a bench's rows: the CSV file and the seed-format table. Numbers come from stats.c. */
#include <math.h>
#include <string.h>

#include "lab/results.h"
#include "lab/stats.h"

int lab_result_ok(const struct lab_result *r)
{
	return !strcmp(r->status, "ok");
}

/* A text field, quoted when it holds a comma, a quote or a newline. */
static void csv_text(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

/* A number, or an empty field for NaN ("no figure", never a made-up zero). */
static void csv_num(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.4f", v);
}

/* N numeric fields, each followed by its comma. */
static void csv_nums(FILE *f, const double *v, int n)
{
	for (int i = 0; i < n; i++) {
		csv_num(f, v[i]);
		fputc(',', f);
	}
}

/* Per-repetition values, ';'-separated in one field so the header does not depend on R. */
static void csv_reps(FILE *f, const double *v, int n)
{
	for (int i = 0; v && i < n; i++)
		fprintf(f, "%s%.4f", i ? ";" : "", v[i]);
}

static struct lab_summary ns_summary(const struct lab_result *r)
{
	struct lab_summary none = { NAN, NAN, NAN, NAN };

	return lab_result_ok(r) && r->ns ? lab_summarize(r->ns, r->reps) : none;
}

/* Median of a counted figure (NULL: not counted). */
static double counted(const struct lab_result *r, const double *v)
{
	return lab_result_ok(r) && v ? lab_summarize(v, r->reps).median : NAN;
}

/* The figure rows are compared by: ns/op, or instructions/op where there is no time (icount). */
static double main_figure(const struct lab_result *r)
{
	return r->ns ? ns_summary(r).median : counted(r, r->instr);
}

static struct lab_summary tsc_summary(const struct lab_result *r)
{
	struct lab_summary none = { NAN, NAN, NAN, NAN };

	return lab_result_ok(r) && r->tsc ? lab_summarize(r->tsc, r->reps) : none;
}

uint64_t lab_result_ops(const struct lab_result *r)
{
	if (!lab_result_ok(r))
		return 0;
	return r->ops_total ? r->ops_total : r->iters * (uint64_t)r->reps;
}

/* count per million operations, NaN when not measured or no operations. */
static double per_mop(int measured, double count, uint64_t ops)
{
	return measured && ops ? count * 1e6 / (double)ops : NAN;
}

/* The columns after the CPU-read ones: per-thread strategies and kernel events. */
static void csv_extra_header(FILE *f)
{
	fputs(",strategy,ops_total,aborts_per_mop,mops_per_s", f);
	for (int i = 0; i < LAB_KSTATS_N; i++)
		fprintf(f, ",k_%s_per_mop", lab_kstats_names[i]);
}

static void csv_extra(FILE *f, const struct lab_result *r)
{
	uint64_t ops = lab_result_ops(r);

	fputc(',', f);
	csv_text(f, r->strategy);
	fputc(',', f);
	if (ops)
		fprintf(f, "%llu", (unsigned long long)ops);
	fputc(',', f);
	csv_num(f, per_mop(r->counts_aborts, (double)r->aborts, ops));
	fputc(',', f);
	csv_num(f, ops && r->wall_ns_total > 0 ? (double)ops * 1e3 / r->wall_ns_total : NAN);
	for (int i = 0; i < LAB_KSTATS_N; i++) {
		fputc(',', f);
		csv_num(f, per_mop(r->has_kstats, (double)r->kstats[i], ops));
	}
}

void lab_results_csv(FILE *f, const struct lab_labels *l, const struct lab_result *r, int n,
		     int baseline)
{
	double base = baseline >= 0 ? main_figure(&r[baseline]) : NAN;

	fputs("variant,accel,method,label,path,glibc_rseq,threads,cpu,status,iters,reps,"
	      "ns_per_op,tsc_per_op,ns_median,ns_min,ns_max,ns_spread,"
	      "tsc_min,tsc_max,ratio_to_empty,seed_ns,ns_reps,tsc_reps,"
	      "instructions_per_op,instructions_source,pmu_cycles_per_op", f);
	csv_extra_header(f);
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		struct lab_summary ns = ns_summary(&r[i]), tsc = tsc_summary(&r[i]);
		int ok = lab_result_ok(&r[i]);

		csv_text(f, l->variant);
		fputc(',', f);
		csv_text(f, l->accel);
		fputc(',', f);
		csv_text(f, r[i].method);
		fputc(',', f);
		csv_text(f, r[i].label);
		fputc(',', f);
		csv_text(f, r[i].path);
		fputc(',', f);
		csv_text(f, r[i].glibc_rseq);
		fprintf(f, ",%d,%d,", r[i].threads, r[i].cpu);
		csv_text(f, r[i].status);
		if (ok)
			fprintf(f, ",%llu,%d,", (unsigned long long)r[i].iters, r[i].reps);
		else
			fputs(",,,", f);
		csv_nums(f, (const double[]){ ns.median, tsc.median, ns.median, ns.min, ns.max,
					      ns.spread, tsc.min, tsc.max,
					      lab_ratio(main_figure(&r[i]), base),
					      r[i].seed_ns > 0 ? r[i].seed_ns : NAN }, 10);
		if (ok)
			csv_reps(f, r[i].ns, r[i].reps);
		fputc(',', f);
		if (ok)
			csv_reps(f, r[i].tsc, r[i].reps);
		fputc(',', f);
		csv_num(f, counted(&r[i], r[i].instr));
		fputc(',', f);
		if (ok && r[i].instr)
			csv_text(f, r[i].instr_source);
		fputc(',', f);
		csv_num(f, counted(&r[i], r[i].pmu_cycles));
		csv_extra(f, &r[i]);
		fputc('\n', f);
	}
}

/* The label column's width: the longest "- label:", so that no label is cut. */
static int label_width(const struct lab_result *r, int n)
{
	int w = 46;

	for (int i = 0; i < n; i++)
		if (r[i].label && (int)strlen(r[i].label) + 3 > w)
			w = (int)strlen(r[i].label) + 3;
	return w;
}

/* Under icount there is no time: label, instructions/op, ratio to the baseline. */
static void instr_table(FILE *f, const struct lab_result *r, int n, int baseline)
{
	double base = baseline >= 0 ? main_figure(&r[baseline]) : NAN;
	int w = label_width(r, n);

	fprintf(f, "%-*s %14s %7s\n", w, "method", "instructions/op", "x empty");
	for (int i = 0; i < n; i++) {
		char label[160];
		double v = counted(&r[i], r[i].instr);

		snprintf(label, sizeof(label), "- %s:", r[i].label);
		if (!lab_result_ok(&r[i]))
			fprintf(f, "%-*s %s\n", w, label, r[i].status);
		else
			fprintf(f, "%-*s %14.2f %6.1fx%s%s\n", w, label, v, lab_ratio(v, base),
				r[i].path[0] ? "  via " : "", r[i].path);
	}
}

void lab_results_table(FILE *f, const struct lab_result *r, int n, int baseline)
{
	double base = baseline >= 0 ? ns_summary(&r[baseline]).median : NAN;

	if (n > 0 && !r[0].ns && r[0].instr) {
		instr_table(f, r, n, baseline);
		return;
	}
	int w = label_width(r, n);

	fprintf(f, "%-*s %9s %7s %15s %9s  %s\n", w, "method", "ns/op", "x empty", "min-max ns",
		"TSC/op", "seed x86-64");
	for (int i = 0; i < n; i++) {
		struct lab_summary ns = ns_summary(&r[i]), tsc = tsc_summary(&r[i]);
		char label[160], seed[16] = "";

		snprintf(label, sizeof(label), "- %s:", r[i].label);
		if (r[i].seed_ns > 0)
			snprintf(seed, sizeof(seed), "%.1f ns", r[i].seed_ns);
		if (!lab_result_ok(&r[i])) {
			fprintf(f, "%-*s %s\n", w, label, r[i].status);
			continue;
		}
		fprintf(f, "%-*s %6.2f ns %6.1fx %7.2f-%-7.2f", w, label, ns.median,
			lab_ratio(ns.median, base), ns.min, ns.max);
		if (isnan(tsc.median))
			fprintf(f, " %9s", "");
		else
			fprintf(f, " %9.1f", tsc.median);
		fprintf(f, "  %-11s%s%s", seed, r[i].path[0] ? "  via " : "", r[i].path);
		if (r[i].pmu_cycles && r[i].instr)
			fprintf(f, "  [PMU %.1f cycles, %.1f instructions]",
				counted(&r[i], r[i].pmu_cycles), counted(&r[i], r[i].instr));
		fputc('\n', f);
	}
}
