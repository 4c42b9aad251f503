/* SPDX-License-Identifier: MIT */
/* Unit test of the CPU-read goals (goals.h): judged apart from printing, on made-up rows. */
#include <math.h>
#include <string.h>

#include "../goals.h"
#include "lab/results.h"
#include "lab/tap.h"

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* The CPU-read goals on made-up rows: one that meets them all, then one broken each way. */
static void test_goals(void)
{
	double empty[] = { 1.0, 1.01, 0.99 }, own[] = { 1.05, 1.05, 1.05 }, vdso[] = { 5, 5, 5 };
	double lsl[] = { 13, 13, 13 }, sys[] = { 54, 54, 54 }, noisy[] = { 50, 54, 60 };
	double wide[] = { 0.9, 1.05, 1.2 }, far[] = { 1.2, 1.2, 1.2 }, slow[] = { 70, 70, 70 };
	struct lab_result r[5] = {
		{ .method = "empty", .status = "ok", .reps = 3, .ns = empty },
		{ .method = "rseq-own", .status = "ok", .reps = 3, .ns = own },
		{ .method = "vdso", .status = "ok", .reps = 3, .ns = vdso },
		{ .method = "lsl", .status = "ok", .reps = 3, .ns = lsl },
		{ .method = "syscall", .status = "ok", .reps = 3, .ns = sys },
	};
	struct lab_cpu_read_goals g = lab_cpu_read_judge(r, 5);

	tap_ok(near(g.rseq_minus_empty, 0.05), "goals: rseq - empty = 0.05 ns (%g)", g.rseq_minus_empty);
	tap_ok(near(g.worst_spread, 0.02) && !strcmp(g.worst_row, "empty"),
	       "goals: worst spread 2 %% in empty (%g in %s)", g.worst_spread, g.worst_row);
	tap_ok(g.rme == LAB_MET && near(g.rme_lo, 0.04) && near(g.rme_hi, 0.06),
	       "goals: rseq - empty in [0.04, 0.06] is within 0.1 ns: met");
	tap_ok(g.ordered == LAB_MET, "goals: the seed's ordering holds, extremes too");
	r[1].ns = wide;
	g = lab_cpu_read_judge(r, 5);
	tap_ok(g.rme == LAB_UNRESOLVED && near(g.rme_lo, -0.11) && near(g.rme_hi, 0.21),
	       "goals: rseq - empty in [-0.11, 0.21]: unresolved, not met (median 0.05)");
	r[1].ns = far;
	g = lab_cpu_read_judge(r, 5);
	tap_ok(g.rme == LAB_MISSED, "goals: rseq - empty in [0.19, 0.21]: MISSED");
	r[1].ns = own;
	r[4].ns = noisy;
	r[3].ns = sys; /* lsl 54 vs a syscall of 50..60: the spread covers the order */
	g = lab_cpu_read_judge(r, 5);
	tap_ok(g.ordered == LAB_UNRESOLVED, "goals: lsl within the syscall's spread: unresolved");
	r[3].ns = slow; /* lsl 70 above every syscall rep */
	g = lab_cpu_read_judge(r, 5);
	tap_ok(g.ordered == LAB_MISSED, "goals: lsl above the syscall's max breaks the ordering");
	r[3].ns = sys;
	tap_ok(!strcmp(g.worst_row, "syscall") && near(g.worst_spread, 10.0 / 54),
	       "goals: the noisy row is the worst spread (%s %g)", g.worst_row, g.worst_spread);
	strcpy(r[1].status, "ENOSYS");
	g = lab_cpu_read_judge(r, 5);
	tap_ok(isnan(g.rseq_minus_empty) && g.ordered == LAB_UNJUDGED && g.rme == LAB_UNJUDGED,
	       "goals: an ENOSYS rseq row is not judged");
}

int main(void)
{
	test_goals();
	return tap_done();
}
