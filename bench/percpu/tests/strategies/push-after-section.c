/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose (tests/explore.t): a list push whose section only confirms the head (it
 * stores back the value it compared) and whose real store of the new head comes after the
 * section has returned, a plain store outside any section. The section's own table is right:
 * the refusal must say the store is outside a section, not that the range misses a commit.
 */
#include <stddef.h>

#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

static inline void after_push(struct lab_pc_thread *t, struct lab_pc_node *node)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		intptr_t *head = &lab_pc_slots[cpu].v, seen = RSEQ_READ_ONCE(*head);
		int ret;

		node->next = seen;
		ret = rseq_cmpeqv_storev(head, seen, seen, cpu);
		if (!ret) {
			RSEQ_WRITE_ONCE(*head, (intptr_t)node); /* after the section */
			return;
		}
		if (ret < 0)
			t->aborts++;
	}
}

static inline struct lab_pc_node *plain_pop(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		intptr_t node;
		int ret = rseq_cmpnev_storeoffp_load(&lab_pc_slots[cpu].v, 0,
						     offsetof(struct lab_pc_node, next), &node, cpu);

		if (ret > 0)
			return NULL;
		if (!ret)
			return (struct lab_pc_node *)node;
		t->aborts++;
	}
}

LAB_LIST(after, after_push, plain_pop, .name = "list-push-after-section",
	 .label = "rseq list whose push stores the head after its section (broken)",
	 .versus = "list-cas", .rseq = 1, .aborts = 1, .path = lab_st_rseq_path,
	 .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&after);
