/* SPDX-License-Identifier: MIT */
/* Bad input for make strategy: crashes (a store through a null pointer) once 1000 ops ran. */
#include "lab/strategy.h"

static inline void add(struct lab_pc_thread *t)
{
	intptr_t *volatile p = NULL;

	if (++t->pushes > 1000)
		*p = 1;
	__atomic_fetch_add(&lab_pc_slots[0].v, 1, __ATOMIC_RELAXED);
}

LAB_COUNTER(c, add, .name = "counter-crash", .label = "crashes");
LAB_STRATEGIES(&c);
