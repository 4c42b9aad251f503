/* SPDX-License-Identifier: MIT */
/*
 * Deliberately broken: a counter whose section is right but whose abort path gives up: it
 * counts the abort and returns, so an increment interrupted by a preemption, a signal or a
 * migration is never made.
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

static inline void once_add(struct lab_pc_thread *t)
{
	int cpu = (int)rseq_cpu_start();

	/* the bug: no loop around it */
	if (rseq_addv(&lab_pc_slots[cpu].v, 1, cpu))
		t->aborts++;
}

LAB_COUNTER(once, once_add, .name = "counter-no-retry",
	    .label = "rseq add whose abort does not retry (broken)", .rseq = 1, .aborts = 1,
	    .versus = "counter-getcpu-atomic", .path = lab_st_rseq_path,
	    .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&once);
