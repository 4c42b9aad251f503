/* SPDX-License-Identifier: MIT */
/* Bad input for make strategy: a strategy, but no LAB_STRATEGIES(...) list (the symbol the
 * lab links against). */
#include "lab/strategy.h"

static inline void add(struct lab_pc_thread *t)
{
	(void)t;
	__atomic_fetch_add(&lab_pc_slots[0].v, 1, __ATOMIC_RELAXED);
}

LAB_COUNTER(c, add, .name = "counter-no-list", .label = "not listed");
const void *keep_c = &c;
