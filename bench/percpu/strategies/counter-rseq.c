/* SPDX-License-Identifier: MIT */
/*
 * The rseq counters, on the kernel tree's selftests rseq helpers: rseq's cpu_id picks the
 * slot for an atomic add, or a critical section adds with one committing store (an abort
 * retries on the new CPU).
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

/* An atomic add: safe even after a migration between the read and the add. */
static inline void cpuid_add(struct lab_pc_thread *t)
{
	(void)t;
	__atomic_fetch_add(&lab_pc_slots[rseq_current_cpu_raw()].v, 1, __ATOMIC_RELAXED);
}

/* The critical section: load, add, one committing store. */
static inline void rseq_add(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!rseq_addv(&lab_pc_slots[cpu].v, 1, cpu))
			return;
		t->aborts++;
	}
}

LAB_COUNTER(cpuid_atomic, cpuid_add, .name = "counter-rseq-cpuid-atomic",
	    .label = "rseq cpu_id + lock add", .versus = "counter-getcpu-atomic", .rseq = 1,
	    .aborts = 1, .path = lab_st_rseq_path, .thread_init = lab_pc_rseq_init);
LAB_COUNTER(counter_rseq, rseq_add, .name = "counter-rseq",
	    .label = "rseq critical section (add, commit)", .versus = "counter-getcpu-atomic",
	    .rseq = 1, .aborts = 1, .seed_ns = 2.0, .path = lab_st_rseq_path,
	    .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&cpuid_atomic, &counter_rseq);
