/* SPDX-License-Identifier: MIT */
/* Bad input for make strategy: does not compile (an undeclared name). */
#include "lab/strategy.h"

static inline void add(struct lab_pc_thread *t)
{
	(void)t;
	lab_pc_slots[0].v += undeclared_step;
}

LAB_COUNTER(c, add, .name = "counter-no-compile", .label = "does not compile");
LAB_STRATEGIES(&c);
