/* SPDX-License-Identifier: MIT */
/*
 * lab-percpu --explore: a strategy's schedules explored systematically under a model of what
 * rseq promises (explore.c). Three threads, two on the first CPU and one on the second, each
 * run a short history of operations. On one CPU its threads take turns only where the model
 * preempts one (the section in progress aborts), signals one (it aborts) or moves one to the
 * other CPU (it aborts); across the CPUs the threads run in parallel, interleaved at every
 * instruction that touches memory another thread may touch. Every placement of up to `bound`
 * preemptions, signals and migrations is explored, each state once; every store is checked
 * for ownership and every finished schedule for the shape's invariant. LAB_EX_NOCACHE=1 in the
 * environment explores every state as often as it is reached (the state cache's own check: it
 * loses no end state).
 */
#ifndef LAB_EXPLORE_H
#define LAB_EXPLORE_H

#include <stdint.h>

#include "percpu.h"

#define LAB_EX_BOUND 2     /* preemptions, signals and migrations per schedule */

struct lab_ex_result {
	int bound, threads, cpus;
	int runs;              /* explorations: again while a word became shared that was not */
	uint64_t states;       /* distinct states explored */
	uint64_t schedules;    /* schedules run to their end (others joined a state already seen) */
	uint64_t outcomes;     /* distinct end states of the last exploration (memory written) */
	uint64_t transitions, steps, aborts;
	double seconds;
	int status;            /* 0 every invariant held; 1 refused (error says why); 2 no check */
	char error[1024];
	char schedule[1024];   /* the schedule that broke it, short ("" when none) */
};

/* Check c with its threads on cpu0 and cpu1 (-1: one CPU, no parallel threads, no migration),
 * up to bound events per schedule. r->status says the outcome. */
void lab_pc_explore(const struct lab_strategy *c, int cpu0, int cpu1, int bound,
		     struct lab_ex_result *r);

#endif
