/* SPDX-License-Identifier: MIT */
/*
 * A per-CPU rseq list (the lab's list-rseq) that also counts each CPU's pops in per-CPU data of
 * its own, with a second section after a pop committed (rseq_addv on the CPU the thread is on
 * then: a pop and its count may land on different CPUs' elements, the total stays right).
 */
#include <stddef.h>

#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

#define MAX_CPUS 1024
static struct {
	intptr_t pops;
} __attribute__((aligned(LAB_CACHE_LINE))) stats[MAX_CPUS];

static int stats_setup(const struct lab_pc_run *run)
{
	for (int i = 0; i < run->nslots && i < MAX_CPUS; i++)
		stats[i].pops = 0;
	return 0;
}

static struct lab_pc_percpu stats_data(const struct lab_pc_run *run)
{
	return (struct lab_pc_percpu){ stats, sizeof(stats[0]), sizeof(stats[0].pops), run->nslots };
}

static inline void counted_push(struct lab_pc_thread *t, struct lab_pc_node *node)
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

static inline struct lab_pc_node *counted_pop(struct lab_pc_thread *t)
{
	intptr_t node;

	for (;;) {
		int cpu = (int)rseq_cpu_start();
		int ret = rseq_cmpnev_storeoffp_load(&lab_pc_slots[cpu].v, 0,
						     offsetof(struct lab_pc_node, next), &node, cpu);

		if (ret > 0)
			return NULL;
		if (!ret)
			break;
		t->aborts++;
	}
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!rseq_addv(&stats[cpu].pops, 1, cpu))
			return (struct lab_pc_node *)node;
		t->aborts++;
	}
}

LAB_LIST(own_list, counted_push, counted_pop, .name = "list-own-data",
	 .label = "per-CPU rseq list, pops counted per CPU in data of its own", .versus = "list-cas",
	 .rseq = 1, .aborts = 1, .path = lab_st_rseq_path, .setup = stats_setup,
	 .percpu = stats_data, .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&own_list);
