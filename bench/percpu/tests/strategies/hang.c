/* SPDX-License-Identifier: MIT */
/* Bad input for make strategy: never ends (waits for a word nobody sets). */
#include "lab/arch.h"
#include "lab/strategy.h"

static inline void add(struct lab_pc_thread *t)
{
	(void)t;
	while (!__atomic_load_n(&lab_pc_slots[0].word, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&lab_pc_slots[0].v, __ATOMIC_RELAXED) >= 0)
		lab_cpu_relax();
}

LAB_COUNTER(c, add, .name = "counter-hang", .label = "spins forever");
LAB_STRATEGIES(&c);
