/* SPDX-License-Identifier: MIT */
/* lab-percpu's printed tables: the seed's format by strategy, and the goals (the thread
   scaling is the report's: bench/percpu/report.py). */
#include <math.h>
#include <string.h>

#include "percpu-run.h"
#include "lab/stats.h"

static const char *const titles[][2] = {
	{ "counter", "Per-CPU statistic counter increment" },
	{ "list", "Per-CPU list push/pop (the LWN article's list)" },
	{ "lock", "liburcu percpu: lock-unlock pair, dereference, read/compare word" },
};

static double median(const struct lab_result *r)
{
	return lab_result_ok(r) && r->ns ? lab_summarize(r->ns, r->reps).median : NAN;
}

static const struct lab_result *find(const struct lab_result *r, int n, const char *method,
				     int threads)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(r[i].method, method) && r[i].threads == threads)
			return &r[i];
	return NULL;
}

static void strategy_table(FILE *f, const struct lab_result *r, int n, const char *strategy,
			   const char *title)
{
	const struct lab_result *ref = NULL;

	fprintf(f, "\n%s (1 thread)\n", title);
	fprintf(f, "%-52s %9s %8s %10s %7s  %s\n", "strategy", "ns/op", "speedup", "aborts/Mop",
		"spread", "seed x86-64");
	for (int i = 0; i < n; i++) {
		const struct lab_result *x = &r[i];
		char label[64], seed[40] = "", aborts[16] = "";
		double ns = median(x);

		if (x->threads != 1 || strcmp(x->strategy, strategy))
			continue;
		if (!ref && lab_result_ok(x))
			ref = x; /* the strategy's first row is its reference */
		snprintf(label, sizeof(label), "- %s:", x->label);
		if (!lab_result_ok(x)) {
			fprintf(f, "%-52s %s\n", label, x->status);
			continue;
		}
		if (x->seed_ns > 0 && ref && ref->seed_ns > 0)
			snprintf(seed, sizeof(seed), "%.1f ns (%.1fx)", x->seed_ns,
				 ref->seed_ns / x->seed_ns);
		if (x->counts_aborts)
			snprintf(aborts, sizeof(aborts), "%.1f",
				 (double)x->aborts * 1e6 / (double)lab_result_ops(x));
		fprintf(f, "%-52s %6.2f ns %7.1fx %10s %6.1f%%  %s\n", label, ns,
			lab_ratio(median(ref), ns), aborts,
			100 * lab_summarize(x->ns, x->reps).spread, seed);
	}
}

static void goals(FILE *f, const struct lab_result *r, int n, int ncpu)
{
	static const char *const percpu[] = { "counter-getcpu-atomic", "counter-rseq-cpuid-atomic",
					      "counter-rseq", "counter-tls", "list-rseq", "list-cas",
					      "list-spinlock", "lock-rseq", "lock-cmpxchg" };
	const struct lab_result *g = find(r, n, "counter-getcpu-atomic", 1);
	const struct lab_result *q = find(r, n, "counter-rseq", 1);
	const struct lab_result *l = find(r, n, "counter-tls", 1);
	const struct lab_result *a1 = find(r, n, "counter-global-atomic", 1);
	const struct lab_result *an = find(r, n, "counter-global-atomic", ncpu);
	double s, k;

	fprintf(f, "\nPerformance goals\n");
	if (g && q && !isnan(s = lab_ratio(median(g), median(q))))
		fprintf(f, "- rseq counter vs getcpu+atomic, 1 thread: %.1fx faster (goal >= 5x, "
			"seed 7.7x): %s\n", s, s >= 5 ? "met" : "MISSED");
	if (l && q && !isnan(k = lab_ratio(median(q), median(l))))
		fprintf(f, "- rseq counter vs thread-local counter: %.2fx its time (goal <= 2x): %s\n",
			k, k <= 2 ? "met" : "MISSED");
	if (ncpu < 2)
		return;
	for (unsigned i = 0; i < sizeof(percpu) / sizeof(percpu[0]); i++) {
		const struct lab_result *x1 = find(r, n, percpu[i], 1), *xn = find(r, n, percpu[i], ncpu);

		if (!x1 || !xn || isnan(k = lab_ratio(median(xn), median(x1))))
			continue;
		fprintf(f, "- %s: %d threads %.2fx its 1-thread ns/op (goal <= 1.5x): %s\n",
			percpu[i], ncpu, k, k <= 1.5 ? "met" : "MISSED");
	}
	if (a1 && an && !isnan(k = lab_ratio(median(an), median(a1))))
		fprintf(f, "- counter-global-atomic: %d threads %.2fx its 1-thread ns/op "
			"(expected to degrade)\n", ncpu, k);
}

void lab_pc_report(FILE *f, const struct lab_result *r, int n, int ncpus)
{
	for (unsigned i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
		strategy_table(f, r, n, titles[i][0], titles[i][1]);
	goals(f, r, n, ncpus);
}
