/* SPDX-License-Identifier: MIT */
/*
 * Deliberately broken: rseq's cpu_id picks the slot, then a plain load, add and store, with
 * nothing to restart it. A thread preempted (or moved) between its load and its store writes
 * back a stale sum over the increments another thread made meanwhile on that slot, so
 * increments are lost. make strategy must refuse to time it: the exactness check (6 x NCPU
 * threads, yields, migrations, timer signals) finds the sum short.
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

static inline void racy_add(struct lab_pc_thread *t)
{
	volatile intptr_t *v = &lab_pc_slots[rseq_current_cpu_raw()].v;

	intptr_t x;

	(void)t;
	x = *v;		/* load, add, store: not restartable, not atomic */
	/*
	 * The window made wide (most of each op's time): a preemption lands here nearly every
	 * time one comes, rather than now and then, so the check refuses this strategy every
	 * time rather than most times.
	 */
	for (int i = 0; i < 256; i++)
		__asm__ __volatile__("" ::: "memory");
	*v = x + 1;
}

LAB_COUNTER(broken, racy_add, .name = "counter-broken-lms",
	    .label = "rseq cpu_id + plain load/add/store (broken: not restartable)", .rseq = 1,
	    .versus = "counter-getcpu-atomic", .path = lab_st_rseq_path,
	    .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&broken);
