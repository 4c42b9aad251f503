/* SPDX-License-Identifier: MIT */
/* Bad input for make strategy: two strategies under one name. */
#include "lab/strategy.h"

static inline void add(struct lab_pc_thread *t)
{
	(void)t;
	__atomic_fetch_add(&lab_pc_slots[0].v, 1, __ATOMIC_RELAXED);
}

LAB_COUNTER(a, add, .name = "counter-twice", .label = "first");
LAB_COUNTER(b, add, .name = "counter-twice", .label = "second");
LAB_STRATEGIES(&a, &b);
