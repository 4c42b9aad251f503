/* SPDX-License-Identifier: MIT */
/* The lock's reference row: getcpu picks the slot, lock cmpxchg 0 -> 1 takes its word. */
#include <sched.h>

#include "lab/arch.h"
#include "lab/strategy.h"

static inline struct lab_pc_slot *cmpxchg_lock(struct lab_pc_thread *t)
{
	struct lab_pc_slot *s = &lab_pc_slots[lab_pc_getcpu()];
	intptr_t zero = 0;

	(void)t;
	while (!__atomic_compare_exchange_n(&s->v, &zero, 1, 0, __ATOMIC_ACQUIRE,
					    __ATOMIC_RELAXED)) {
		zero = 0;
		lab_cpu_relax();
		sched_yield(); /* held: its owner was preempted or moved away */
	}
	return s;
}

static inline void cmpxchg_unlock(struct lab_pc_thread *t, struct lab_pc_slot *s)
{
	(void)t;
	__atomic_store_n(&s->v, 0, __ATOMIC_RELEASE);
}

LAB_LOCK(lock_cmpxchg, cmpxchg_lock, cmpxchg_unlock, .name = "lock-cmpxchg",
	 .label = "getcpu + lock cmpxchg lock/unlock, deref, compare", .seed_ns = 53.4,
	 .path = lab_pc_getcpu_path);
LAB_STRATEGIES(&lock_cmpxchg);
