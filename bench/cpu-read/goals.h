/* SPDX-License-Identifier: MIT */
/* The CPU-read bench's performance goals, judged on a finished table. */
#ifndef LAB_CPU_READ_GOALS_H
#define LAB_CPU_READ_GOALS_H

#include <stdio.h>

#include "lab/results.h"

/* A goal judged with its interval: met or missed only when the whole interval says so. */
enum lab_verdict { LAB_MISSED = 0, LAB_MET = 1, LAB_UNRESOLVED = 2, LAB_UNJUDGED = -1 };

struct lab_cpu_read_goals {
	double rseq_minus_empty; /* ns, medians; NaN when either row has no figure */
	double rme_lo, rme_hi;   /* its interval from the reps' extremes */
	enum lab_verdict rme;    /* within 0.1 ns of the empty loop */
	double worst_spread;     /* largest (max - min) / median over the rows with figures */
	const char *worst_row;   /* its method */
	enum lab_verdict ordered; /* rseq, empty < vDSO, lsl, RDPID < syscall */
};

/* Judge rows r[0..n) (ns figures; nothing is judged under icount). */
struct lab_cpu_read_goals lab_cpu_read_judge(const struct lab_result *r, int n);

/* The verdict on "x within +-limit" for x in [lo, hi]. */
enum lab_verdict lab_within(double lo, double hi, double limit);

/* Print the goals, met, MISSED or unresolved, after the table. */
void lab_cpu_read_print_goals(FILE *f, const struct lab_cpu_read_goals *g);

#endif
