/* SPDX-License-Identifier: MIT */
/*
 * Deliberately broken: a per-CPU list whose pop reads the head and its next before the rseq
 * section, and commits head = next if the head is still the one it read. Preempted between
 * the two, while another thread of that CPU pops the head, pops the next and pushes the first
 * back, it finds the same head (ABA) and installs a next that another thread now holds: a node
 * in the list and held at once. The interleaving check's histories (pop, pop, push, push)
 * reach it with two preemptions.
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

static inline void aba_push(struct lab_pc_thread *t, struct lab_pc_node *node)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		intptr_t *head = &lab_pc_slots[cpu].v, expect = RSEQ_READ_ONCE(*head);
		int ret;

		node->next = expect;
		ret = rseq_cmpeqv_storev(head, expect, (intptr_t)node, cpu);
		if (!ret)
			return;
		if (ret < 0)
			t->aborts++;
	}
}

static inline struct lab_pc_node *aba_pop(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		intptr_t *head = &lab_pc_slots[cpu].v, node = RSEQ_READ_ONCE(*head), next;
		int ret;

		if (!node)
			return NULL;
		/* the bug: next is read outside the section, the section compares the head only */
		next = RSEQ_READ_ONCE(((struct lab_pc_node *)node)->next);
		ret = rseq_cmpeqv_storev(head, node, next, cpu);
		if (!ret)
			return (struct lab_pc_node *)node;
		if (ret < 0)
			t->aborts++;
	}
}

LAB_LIST(aba, aba_push, aba_pop, .name = "list-aba",
	 .label = "rseq list whose pop reads next before its section (broken: ABA)",
	 .versus = "list-cas", .rseq = 1, .aborts = 1, .path = lab_st_rseq_path,
	 .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&aba);
