/* SPDX-License-Identifier: MIT */
/* The CPU-read bench's performance goals (issue 3), judged on a finished table. */
#ifndef LAB_CPU_READ_GOALS_H
#define LAB_CPU_READ_GOALS_H

#include <stdio.h>

#include "lab/results.h"

struct lab_cpu_read_goals {
	double rseq_minus_empty; /* ns; NaN when either row has no figure */
	double worst_spread;     /* largest (max - min) / median over the rows with figures */
	const char *worst_row;   /* its method */
	int ordered;             /* rseq, empty < vDSO, lsl, RDPID < syscall; -1: rows missing */
};

/* Judge rows r[0..n) (ns figures; nothing is judged under icount). */
struct lab_cpu_read_goals lab_cpu_read_judge(const struct lab_result *r, int n);

/* Print the goals, met or MISSED, after the table. */
void lab_cpu_read_print_goals(FILE *f, const struct lab_cpu_read_goals *g);

#endif
