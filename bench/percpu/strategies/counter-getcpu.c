/* SPDX-License-Identifier: MIT */
/* The counter's reference row: getcpu (the vDSO's) picks the slot, an atomic add counts. */
#include "lab/strategy.h"

static inline void getcpu_add(struct lab_pc_thread *t)
{
	(void)t;
	__atomic_fetch_add(&lab_pc_slots[lab_pc_getcpu()].v, 1, __ATOMIC_RELAXED);
}

LAB_COUNTER(getcpu_atomic, getcpu_add, .name = "counter-getcpu-atomic",
	    .label = "getcpu (vDSO) + lock add", .seed_ns = 15.3, .path = lab_pc_getcpu_path);
LAB_STRATEGIES(&getcpu_atomic);
