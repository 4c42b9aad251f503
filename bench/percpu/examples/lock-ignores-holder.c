/* SPDX-License-Identifier: MIT */
/*
 * Deliberately broken: an rseq try-lock that compares the lock word with what it just read
 * rather than with 0, so it "takes" a lock another thread holds. With the holder preempted
 * inside its locked region, the next thread on that CPU walks in: mutual exclusion is gone,
 * though every increment may still be counted. The interleaving check records who holds each
 * lock and refuses this.
 */
#include <sched.h>

#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

static inline struct lab_pc_slot *careless_lock(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		intptr_t seen = RSEQ_READ_ONCE(lab_pc_slots[cpu].v);

		/* the bug: expects what it saw (maybe 1, held) instead of 0 */
		if (!rseq_cmpeqv_storev(&lab_pc_slots[cpu].v, seen, 1, cpu))
			return &lab_pc_slots[cpu];
		t->aborts++;
	}
}

static inline void careless_unlock(struct lab_pc_thread *t, struct lab_pc_slot *s)
{
	(void)t;
	__atomic_store_n(&s->v, 0, __ATOMIC_RELEASE);
}

LAB_LOCK(careless, careless_lock, careless_unlock, .name = "lock-ignores-holder",
	 .label = "rseq try-lock that ignores the holder (broken)", .versus = "lock-cmpxchg",
	 .rseq = 1, .aborts = 1, .path = lab_st_rseq_path, .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&careless);
