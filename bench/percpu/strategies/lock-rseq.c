/* SPDX-License-Identifier: MIT */
/* The rseq try-lock: compare 0, store 1 on this CPU's word in a critical section; released
 * by a plain store, possibly from another CPU after a migration. */
#include <sched.h>

#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

static inline struct lab_pc_slot *rseq_lock(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		int ret = rseq_cmpeqv_storev(&lab_pc_slots[cpu].v, 0, 1, cpu);

		if (!ret)
			return &lab_pc_slots[cpu];
		if (ret < 0)
			t->aborts++;
		else
			sched_yield(); /* held by a thread that was preempted or moved away */
	}
}

static inline void rseq_unlock(struct lab_pc_thread *t, struct lab_pc_slot *s)
{
	(void)t;
	__atomic_store_n(&s->v, 0, __ATOMIC_RELEASE);
}

LAB_LOCK(lock_rseq, rseq_lock, rseq_unlock, .name = "lock-rseq",
	 .label = "rseq try-lock/unlock, deref, compare", .versus = "lock-cmpxchg", .rseq = 1,
	 .aborts = 1, .seed_ns = 28.6, .path = lab_st_rseq_path, .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&lock_rseq);
