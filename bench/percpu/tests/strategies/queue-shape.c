/* SPDX-License-Identifier: MIT */
/* Bad input for make strategy: a shape the lab does not know ("queue"). */
#include "lab/strategy.h"

static inline void enqueue(struct lab_pc_thread *t)
{
	(void)t;
}

LAB_STRATEGY_(q, "queue", enqueue(t), .name = "queue-mine", .label = "a queue");
LAB_STRATEGIES(&q);
