/* SPDX-License-Identifier: MIT */
/* The CPU-read goals: rseq within 0.1 ns of the empty loop, every row's spread <= 2 %, and the
 * seed's ordering (rseq ~ empty < vDSO / lsl / RDPID < syscall). Judging apart from printing. */
#include <math.h>
#include <string.h>

#include "goals.h"
#include "lab/stats.h"

/* Median ns/op of METHOD, NaN when the row is absent or has no figure. */
static double median_of(const struct lab_result *r, int n, const char *method)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(r[i].method, method) && !strcmp(r[i].status, "ok") && r[i].ns)
			return lab_summarize(r[i].ns, r[i].reps).median;
	return NAN;
}

struct lab_cpu_read_goals lab_cpu_read_judge(const struct lab_result *r, int n)
{
	static const char *const middle[] = { "vdso", "lsl", "rdpid" };
	struct lab_cpu_read_goals g = { .worst_spread = NAN, .worst_row = NULL, .ordered = -1 };
	double empty = median_of(r, n, "empty"), own = median_of(r, n, "rseq-own");
	double sys = median_of(r, n, "syscall"), lo = INFINITY, hi = -INFINITY;

	g.rseq_minus_empty = own - empty;
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
		double m = median_of(r, n, middle[k]);

		if (!isnan(m)) {
			lo = fmin(lo, m);
			hi = fmax(hi, m);
		}
	}
	if (!isnan(empty) && !isnan(own) && !isnan(sys) && lo <= hi)
		g.ordered = fmax(empty, own) < lo && hi < sys;
	return g;
}

void lab_cpu_read_print_goals(FILE *f, const struct lab_cpu_read_goals *g)
{
	fprintf(f, "\nPerformance goals (issue 3; judged on any machine, meant for real hardware)\n");
	if (isnan(g->rseq_minus_empty))
		fprintf(f, "- rseq cpu_id read vs empty loop: no figure for one of them\n");
	else
		fprintf(f, "- rseq cpu_id read vs empty loop: %+.2f ns (goal within 0.1 ns): %s\n",
			g->rseq_minus_empty, fabs(g->rseq_minus_empty) <= 0.1 ? "met" : "MISSED");
	if (g->worst_row)
		fprintf(f, "- largest spread (max-min)/median: %.1f %% in %s (goal <= 2 %%): %s\n",
			100 * g->worst_spread, g->worst_row, g->worst_spread <= 0.02 ? "met" : "MISSED");
	if (g->ordered < 0)
		fprintf(f, "- ordering rseq ~ empty < vDSO/lsl/RDPID < syscall: rows missing\n");
	else
		fprintf(f, "- ordering rseq ~ empty < vDSO/lsl/RDPID < syscall: %s\n",
			g->ordered ? "met" : "MISSED");
}
