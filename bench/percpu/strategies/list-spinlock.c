/* SPDX-License-Identifier: MIT */
/* A list per CPU (getcpu picks it) under a test-and-test-and-set spinlock in the slot's word,
 * which yields when the holder seems preempted. */
#include <sched.h>

#include "lab/arch.h"
#include "lab/strategy.h"

static inline void spin_lock(intptr_t *l)
{
	for (int spins = 0; __atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE); spins++) {
		while (__atomic_load_n(l, __ATOMIC_RELAXED)) {
			lab_cpu_relax();
			if (++spins > 200) {
				sched_yield();
				spins = 0;
			}
		}
	}
}

static inline void spin_unlock(intptr_t *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static inline void spin_push(struct lab_pc_thread *t, struct lab_pc_node *node)
{
	struct lab_pc_slot *s = &lab_pc_slots[lab_pc_getcpu()];

	(void)t;
	spin_lock((intptr_t *)&s->word);
	node->next = s->v;
	s->v = (intptr_t)node;
	spin_unlock((intptr_t *)&s->word);
}

static inline struct lab_pc_node *spin_pop(struct lab_pc_thread *t)
{
	struct lab_pc_slot *s = &lab_pc_slots[lab_pc_getcpu()];
	struct lab_pc_node *node;

	(void)t;
	spin_lock((intptr_t *)&s->word);
	node = (struct lab_pc_node *)s->v;
	if (node)
		s->v = node->next;
	spin_unlock((intptr_t *)&s->word);
	return node;
}

/* The lab sets word to the lock rows' compare value: here it is the lock, so clear it. */
static int spin_setup(const struct lab_pc_run *run)
{
	for (int i = 0; i < run->nslots; i++)
		lab_pc_slots[i].word = 0;
	return 0;
}

LAB_LIST(list_spin, spin_push, spin_pop, .name = "list-spinlock",
	 .label = "per-CPU spinlock list push+pop", .versus = "list-cas",
	 .path = lab_pc_getcpu_path, .setup = spin_setup);
LAB_STRATEGIES(&list_spin);
