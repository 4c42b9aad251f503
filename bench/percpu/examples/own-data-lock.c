/* SPDX-License-Identifier: MIT */
/*
 * A per-CPU rseq try-lock (the lab's lock-rseq) whose holder also counts its acquisitions in
 * per-CPU data of its own, with a plain increment: the lock, not the CPU, makes that safe (a
 * holder moved to another CPU still holds it), so the data is not declared per-CPU-owned.
 */
#include <sched.h>

#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

#define MAX_CPUS 1024
static struct {
	uint64_t taken;
} __attribute__((aligned(LAB_CACHE_LINE))) held[MAX_CPUS];

static inline struct lab_pc_slot *counted_lock(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		int ret = rseq_cmpeqv_storev(&lab_pc_slots[cpu].v, 0, 1, cpu);

		if (!ret) {
			held[cpu].taken++; /* under the lock */
			return &lab_pc_slots[cpu];
		}
		if (ret < 0)
			t->aborts++;
		else
			sched_yield(); /* held: let its holder run */
	}
}

static inline void counted_unlock(struct lab_pc_thread *t, struct lab_pc_slot *s)
{
	(void)t;
	__atomic_store_n(&s->v, 0, __ATOMIC_RELEASE);
}

LAB_LOCK(own_lock, counted_lock, counted_unlock, .name = "lock-own-data",
	 .label = "rseq try-lock, acquisitions counted per CPU under the lock",
	 .versus = "lock-cmpxchg", .rseq = 1, .aborts = 1, .path = lab_st_rseq_path,
	 .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&own_lock);
