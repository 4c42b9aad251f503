/* SPDX-License-Identifier: MIT */
/*
 * A counter on per-CPU data of its own: an array of cache-line elements, one per CPU, each
 * added to by an rseq section on that CPU (rseq_addv: load, add, one committing store; an
 * abort retries on the CPU the thread is on then). .percpu tells the interleaving check that
 * element c is CPU c's, .total adds them up.
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

#define MAX_CPUS 1024
static struct {
	intptr_t v;
} __attribute__((aligned(LAB_CACHE_LINE))) counts[MAX_CPUS];

static int counts_setup(const struct lab_pc_run *run)
{
	for (int i = 0; i < run->nslots && i < MAX_CPUS; i++)
		counts[i].v = 0;
	return 0;
}

static uint64_t counts_total(const struct lab_pc_run *run)
{
	uint64_t sum = 0;

	for (int i = 0; i < run->nslots && i < MAX_CPUS; i++)
		sum += (uint64_t)counts[i].v;
	return sum;
}

static struct lab_pc_percpu counts_data(const struct lab_pc_run *run)
{
	return (struct lab_pc_percpu){ counts, sizeof(counts[0]), sizeof(counts[0].v), run->nslots };
}

static inline void counts_add(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!rseq_addv(&counts[cpu].v, 1, cpu))
			return;
		t->aborts++;
	}
}

LAB_COUNTER(own_counter, counts_add, .name = "counter-own-data",
	    .label = "rseq add to a per-CPU array of its own", .versus = "counter-getcpu-atomic",
	    .rseq = 1, .aborts = 1, .path = lab_st_rseq_path, .setup = counts_setup,
	    .total = counts_total, .percpu = counts_data, .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&own_counter);
