/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose (tests/explore.t): one global counter, loaded, incremented and stored
 * back with plain accesses. With no preemption at all (--bound 0) only the two CPUs running
 * in parallel lose an increment: the exploration must interleave them between the load and
 * the store.
 */
#include "lab/strategy.h"

static struct lab_pc_slot global __attribute__((aligned(LAB_CACHE_LINE)));

static int plain_setup(const struct lab_pc_run *run)
{
	(void)run;
	global.v = 0;
	return 0;
}

static uint64_t plain_total(const struct lab_pc_run *run)
{
	(void)run;
	return (uint64_t)global.v;
}

static inline void plain_add(struct lab_pc_thread *t)
{
	intptr_t v = __atomic_load_n(&global.v, __ATOMIC_RELAXED);

	(void)t;
	__atomic_store_n(&global.v, v + 1, __ATOMIC_RELAXED);
}

LAB_COUNTER(plain, plain_add, .name = "counter-global-plain",
	    .label = "one global counter, a plain load and store (broken)",
	    .setup = plain_setup, .total = plain_total);
LAB_STRATEGIES(&plain);
