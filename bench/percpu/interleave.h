/* SPDX-License-Identifier: MIT */
/*
 * lab-percpu --interleave: a strategy's operation interrupted at every instruction boundary,
 * deterministically (interleave.c). Each interruption is a preemption (pass "preempt"), a
 * signal ("signal") or a move to another CPU ("migrate"), and while the thread is stopped
 * there a competing thread on its CPU runs one whole operation on the same per-CPU state;
 * then the thread resumes, and the shape's invariants and slot ownership are checked.
 */
#ifndef LAB_INTERLEAVE_H
#define LAB_INTERLEAVE_H

#include <stdint.h>

#include "percpu.h"

struct lab_il_result {
	int ninsn;            /* instructions in one uninterrupted operation */
	int passes;           /* 3, or 2 with one CPU (no migration pass) */
	int interleavings;    /* boundaries interrupted, over all passes */
	uint64_t aborts;      /* rseq critical sections the kernel aborted at an interruption */
	uint64_t waits;       /* interruptions where the competitor had to wait for the thread */
	uint64_t steps;       /* single steps, all passes */
	double seconds;
	int status;           /* 0 every invariant held; 1 refused (error says why); 2 no check */
	char error[768];
};

/* Check c with the operating thread and its competitor on cpu0, the migration pass moving the
 * thread to cpu1 (-1: no second CPU, no migration pass). r->status says the outcome. */
void lab_pc_interleave(const struct lab_strategy *c, int cpu0, int cpu1,
		       struct lab_il_result *r);

#endif
