/* SPDX-License-Identifier: MIT */
/*
 * A batching counter: each thread counts in a thread-local variable and commits every
 * BATCH increments to its CPU's slot with one rseq critical section (load, add BATCH, one
 * committing store; an abort retries on the new CPU). What is still pending when the thread
 * ends is added in its thread_fini, so the sum stays exact. Cheaper per op than committing
 * each increment, at the price of a total that lags by up to BATCH - 1 per thread.
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

#ifndef BATCH
#define BATCH 16
#endif

static __thread intptr_t pending;

static int batch_init(struct lab_pc_thread *t, char *msg, size_t len)
{
	pending = 0;
	return lab_pc_rseq_init(t, msg, len);
}

/* Add what is pending to this CPU's slot. */
static inline void commit(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!rseq_addv(&lab_pc_slots[cpu].v, pending, cpu))
			break;
		t->aborts++;
	}
	pending = 0;
}

static inline void batch_add(struct lab_pc_thread *t)
{
	if (++pending >= BATCH)
		commit(t);
}

/* After the last op (outside the timing): the remainder, committed the same way. An atomic
 * add into some slot would not do: the rseq commits of that slot's CPU are not atomic
 * against a store from another CPU, and one of the two would be lost (the check saw it). */
static void batch_fini(struct lab_pc_thread *t)
{
	commit(t);
}

LAB_COUNTER(batch, batch_add, .name = "counter-batch16",
	    .label = "thread-local count, rseq commit every 16", .versus = "counter-getcpu-atomic",
	    .rseq = 1, .aborts = 1, .path = lab_st_rseq_path, .thread_init = batch_init,
	    .thread_fini = batch_fini);
LAB_STRATEGIES(&batch);
