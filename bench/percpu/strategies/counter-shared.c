/* SPDX-License-Identifier: MIT */
/* Counters that are not per CPU: one global atomic, a mutex, a thread-local count. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lab/strategy.h"

static struct lab_pc_slot global __attribute__((aligned(LAB_CACHE_LINE)));
static pthread_mutex_t global_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread uint64_t tls_count;
static struct lab_pc_slot *tls_totals; /* each thread's count, on its own line */
static int ntotals;

static int global_setup(const struct lab_pc_run *run)
{
	(void)run;
	global.v = 0;
	return 0;
}

static uint64_t global_total(const struct lab_pc_run *run)
{
	(void)run;
	return (uint64_t)global.v;
}

static inline void global_add(struct lab_pc_thread *t)
{
	(void)t;
	__atomic_fetch_add(&global.v, 1, __ATOMIC_RELAXED);
}

static inline void mutex_add(struct lab_pc_thread *t)
{
	(void)t;
	pthread_mutex_lock(&global_lock);
	global.v++;
	pthread_mutex_unlock(&global_lock);
}

static int tls_setup(const struct lab_pc_run *run)
{
	if (run->nthreads > ntotals) {
		free(tls_totals);
		tls_totals = lab_pc_lines_alloc(run->nthreads, sizeof(*tls_totals));
		ntotals = tls_totals ? run->nthreads : 0;
	}
	if (!tls_totals)
		return -1;
	memset(tls_totals, 0, run->nthreads * sizeof(*tls_totals));
	return 0;
}

static int tls_init(struct lab_pc_thread *t, char *msg, size_t len)
{
	(void)t;
	(void)msg;
	(void)len;
	tls_count = 0;
	return 0;
}

static void tls_fini(struct lab_pc_thread *t)
{
	tls_totals[t->tid].v = (intptr_t)tls_count;
}

static uint64_t tls_total(const struct lab_pc_run *run)
{
	uint64_t sum = 0;

	for (int i = 0; i < run->nthreads; i++)
		sum += (uint64_t)tls_totals[i].v;
	return sum;
}

static inline void tls_add(struct lab_pc_thread *t)
{
	(void)t;
	tls_count++;
}

LAB_COUNTER(global_atomic, global_add, .name = "counter-global-atomic",
	    .label = "one global counter, lock add", .versus = "counter-getcpu-atomic",
	    .setup = global_setup, .total = global_total);
LAB_COUNTER(tls, tls_add, .name = "counter-tls",
	    .label = "thread-local counter: a plain add to memory per op",
	    .versus = "counter-getcpu-atomic", .setup = tls_setup, .thread_init = tls_init,
	    .thread_fini = tls_fini, .total = tls_total);
LAB_COUNTER(mutex, mutex_add, .name = "counter-mutex",
	    .label = "global counter under a pthread mutex", .versus = "counter-getcpu-atomic",
	    .setup = global_setup, .total = global_total);
LAB_STRATEGIES(&global_atomic, &tls, &mutex);
