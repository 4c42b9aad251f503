/* SPDX-License-Identifier: MIT */
/* The CPU-read goals: rseq within 0.1 ns of the empty loop, every row's spread <= 2 %, and the
 * seed's ordering (rseq ~ empty < vDSO / lsl / RDPID < syscall). Judging apart from printing. */
#include <math.h>
#include <string.h>

#include "goals.h"
#include "lab/stats.h"

/* Median, min and max ns/op of METHOD, NaN fields when the row is absent or has no figure. */
static struct lab_summary summary_of(const struct lab_result *r, int n, const char *method)
{
	struct lab_summary none = { NAN, NAN, NAN, NAN };

	for (int i = 0; i < n; i++)
		if (!strcmp(r[i].method, method) && !strcmp(r[i].status, "ok") && r[i].ns)
			return lab_summarize(r[i].ns, r[i].reps);
	return none;
}

enum lab_verdict lab_within(double lo, double hi, double limit)
{
	if (isnan(lo) || isnan(hi))
		return LAB_UNJUDGED;
	if (-limit <= lo && hi <= limit)
		return LAB_MET;
	if (lo > limit || hi < -limit)
		return LAB_MISSED;
	return LAB_UNRESOLVED;
}

static const char *verdict_word(enum lab_verdict v)
{
	return v == LAB_MET ? "met" : v == LAB_MISSED ? "MISSED" : "unresolved (the spread covers it)";
}

struct lab_cpu_read_goals lab_cpu_read_judge(const struct lab_result *r, int n)
{
	static const char *const middle[] = { "vdso", "lsl", "rdpid" };
	struct lab_cpu_read_goals g = { .worst_spread = NAN, .worst_row = NULL,
					.ordered = LAB_UNJUDGED };
	struct lab_summary empty = summary_of(r, n, "empty"), own = summary_of(r, n, "rseq-own");
	struct lab_summary sys = summary_of(r, n, "syscall");
	/* The middle rows' extremes: lowest min and max, highest min and max. */
	double min_lo = INFINITY, max_lo = INFINITY, min_hi = -INFINITY, max_hi = -INFINITY;

	g.rseq_minus_empty = own.median - empty.median;
	g.rme_lo = own.min - empty.max;
	g.rme_hi = own.max - empty.min;
	g.rme = lab_within(g.rme_lo, g.rme_hi, 0.1);
	for (int i = 0; i < n; i++) {
		struct lab_summary s;

		if (strcmp(r[i].status, "ok") || !r[i].ns)
			continue;
		s = lab_summarize(r[i].ns, r[i].reps);
		if (!isnan(s.spread) && (isnan(g.worst_spread) || s.spread > g.worst_spread)) {
			g.worst_spread = s.spread;
			g.worst_row = r[i].method;
		}
	}
	for (unsigned k = 0; k < sizeof(middle) / sizeof(middle[0]); k++) {
		struct lab_summary m = summary_of(r, n, middle[k]);

		if (!isnan(m.median)) {
			min_lo = fmin(min_lo, m.min);
			max_lo = fmin(max_lo, m.max);
			min_hi = fmax(min_hi, m.min);
			max_hi = fmax(max_hi, m.max);
		}
	}
	if (isnan(empty.median) || isnan(own.median) || isnan(sys.median) || min_lo > max_hi)
		return g;
	/* Met when even the extremes keep the order; missed when not even the most favourable
	 * values within the extremes could. */
	if (fmax(empty.max, own.max) < min_lo && max_hi < sys.min)
		g.ordered = LAB_MET;
	else if (!(fmax(empty.min, own.min) < max_lo && min_hi < sys.max))
		g.ordered = LAB_MISSED;
	else
		g.ordered = LAB_UNRESOLVED;
	return g;
}

void lab_cpu_read_print_goals(FILE *f, const struct lab_cpu_read_goals *g)
{
	fprintf(f, "\nPerformance goals (judged on any machine, meant for real hardware)\n");
	if (isnan(g->rseq_minus_empty))
		fprintf(f, "- rseq cpu_id read vs empty loop: no figure for one of them\n");
	else
		fprintf(f, "- rseq cpu_id read vs empty loop: %+.2f ns, range [%+.2f, %+.2f] "
			"(goal within 0.1 ns): %s\n", g->rseq_minus_empty, g->rme_lo, g->rme_hi,
			verdict_word(g->rme));
	if (g->worst_row)
		fprintf(f, "- largest spread (max-min)/median: %.1f %% in %s (goal <= 2 %%): %s\n",
			100 * g->worst_spread, g->worst_row, g->worst_spread <= 0.02 ? "met" : "MISSED");
	if (g->ordered == LAB_UNJUDGED)
		fprintf(f, "- ordering rseq ~ empty < vDSO/lsl/RDPID < syscall: rows missing\n");
	else
		fprintf(f, "- ordering rseq ~ empty < vDSO/lsl/RDPID < syscall (min-max): %s\n",
			verdict_word(g->ordered));
}
