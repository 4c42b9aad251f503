/* SPDX-License-Identifier: MIT */
/* The LWN article's per-CPU list on the selftests rseq helpers: the head replaced by one
 * committing store; an abort retries on the new CPU. */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

static inline void rseq_push(struct lab_pc_thread *t, struct lab_pc_node *node)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		intptr_t *head = &lab_pc_slots[cpu].v;
		intptr_t expect = RSEQ_READ_ONCE(*head);
		int ret;

		node->next = expect;
		ret = rseq_cmpeqv_storev(head, expect, (intptr_t)node, cpu);
		if (!ret)
			return;
		if (ret < 0)
			t->aborts++; /* else the head changed before the section: try again */
	}
}

static inline struct lab_pc_node *rseq_pop(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		intptr_t node;
		int ret = rseq_cmpnev_storeoffp_load(&lab_pc_slots[cpu].v, 0,
						     offsetof(struct lab_pc_node, next), &node, cpu);

		if (ret == 0)
			return (struct lab_pc_node *)node;
		if (ret > 0)
			return NULL; /* this CPU's list is empty */
		t->aborts++;
	}
}

/* One function kept out of line, as GCC 12 chose for it when the rows were one file: the call
 * is part of this row's committed instruction count (inlined, it would be a few less). */
static __attribute__((noinline)) void rseq_list_op(struct lab_pc_thread *t)
{
	LAB_PC_LIST_OP(rseq_push, rseq_pop);
}

LAB_LIST_BY_OP(list_rseq, rseq_list_op, rseq_push, rseq_pop, .name = "list-rseq",
	 .label = "per-CPU rseq list push+pop (one committing store)", .versus = "list-cas",
	 .rseq = 1, .aborts = 1, .path = lab_st_rseq_path, .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&list_rseq);
