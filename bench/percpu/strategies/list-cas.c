/* SPDX-License-Identifier: MIT */
/* The list's reference row: a lock-free list per CPU (getcpu picks it), compare-and-swap on a
 * head tagged with a count against ABA, nodes linked by index (lab_pc_slot.tagged, nidx). */
#include "lab/strategy.h"

#define IDX_MASK 0xffffffffull

static inline void cas_push(struct lab_pc_thread *t, struct lab_pc_node *node)
{
	struct lab_pc_slot *s = &lab_pc_slots[lab_pc_getcpu()];
	uint64_t old = __atomic_load_n(&s->tagged, __ATOMIC_RELAXED), new;
	uint32_t idx = (uint32_t)(node - lab_pc_nodes) + 1;

	(void)t;
	do {
		__atomic_store_n(&node->nidx, (uint32_t)(old & IDX_MASK), __ATOMIC_RELAXED);
		new = ((old >> 32) + 1) << 32 | idx;
	} while (!__atomic_compare_exchange_n(&s->tagged, &old, new, 0, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
}

static inline struct lab_pc_node *cas_pop(struct lab_pc_thread *t)
{
	struct lab_pc_slot *s = &lab_pc_slots[lab_pc_getcpu()];
	uint64_t old = __atomic_load_n(&s->tagged, __ATOMIC_ACQUIRE), new;
	uint32_t idx;

	(void)t;
	do {
		idx = (uint32_t)(old & IDX_MASK);
		if (!idx)
			return NULL;
		/* Possibly stale if the node moved meanwhile: then the tag has changed too. */
		new = ((old >> 32) + 1) << 32 |
		      __atomic_load_n(&lab_pc_nodes[idx - 1].nidx, __ATOMIC_RELAXED);
	} while (!__atomic_compare_exchange_n(&s->tagged, &old, new, 0, __ATOMIC_ACQUIRE,
					      __ATOMIC_ACQUIRE));
	return &lab_pc_nodes[idx - 1];
}

LAB_LIST(list_cas, cas_push, cas_pop, .name = "list-cas",
	 .label = "per-CPU lock-free CAS list push+pop", .path = lab_pc_getcpu_path);
LAB_STRATEGIES(&list_cas);
