/* SPDX-License-Identifier: MIT */
/*
 * The rseq per-CPU cache, built against the kernel tree's selftests rseq helpers in place: an
 * array stack per CPU and class. Pop compares the count and the top slot and stores count - 1
 * (rseq_cmpeqv_cmpeqv_storev: the slot is compared inside the section, so an object popped and
 * another pushed meanwhile is never handed out); push stores the object into the next slot and
 * commits count + 1 (rseq_cmpeqv_trystorev_storev). Refill and flush go to the arena in batches.
 */
#define _GNU_SOURCE
#include <rseq.h>

#include "alloc-cache.h"
#include "lab/selftests-rseq.h"

static int setup(struct al_thread *t, char *msg, size_t len)
{
	(void)t;
	return lab_st_rseq_register(msg, len);
}

/* The current CPU's top object, or NULL when its cache is empty. */
static inline void *pop(struct al_thread *t, int cls)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start(), ret;
		struct al_cache *c = al_cache(cpu, cls);
		intptr_t n = RSEQ_READ_ONCE(c->n), top;

		if (!n)
			return NULL;
		top = RSEQ_READ_ONCE(c->slot[n - 1]);
		ret = rseq_cmpeqv_cmpeqv_storev(&c->n, n, &c->slot[n - 1], top, n - 1, cpu);
		if (!ret)
			return (void *)top;
		if (ret < 0)
			t->aborts++;
	}
}

/* 0, or -1 when the current CPU's cache is full. */
static inline int push(struct al_thread *t, int cls, void *p)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start(), ret;
		struct al_cache *c = al_cache(cpu, cls);
		intptr_t n = RSEQ_READ_ONCE(c->n);

		if (n == al_cap)
			return -1;
		ret = rseq_cmpeqv_trystorev_storev(&c->n, n, &c->slot[n], (intptr_t)p, n + 1, cpu);
		if (!ret)
			return 0;
		if (ret < 0)
			t->aborts++;
	}
}

static inline void *rs_alloc(struct al_thread *t, int cls)
{
	void *p = pop(t, cls), *batch[AL_BATCH];
	int got, k;

	if (p)
		return p;
	t->refills++;
	got = al_arena_get(cls, batch, al_batch);
	for (k = 1; k < got && !push(t, cls, batch[k]); k++)
		;
	if (k < got)
		al_arena_put(cls, batch + k, got - k);
	return batch[0];
}

static inline void rs_free(struct al_thread *t, void *p, int cls)
{
	while (push(t, cls, p)) {
		void *batch[AL_BATCH];
		int k;

		t->flushes++;
		for (k = 0; k < al_batch && (batch[k] = pop(t, cls)); k++)
			;
		al_arena_put(cls, batch, k);
	}
}

AL_WORKLOADS(rs, 1, rs_alloc, rs_free)

const struct al_strategy al_rseq = {
	"alloc-rseq", "per-CPU cache, rseq (jemalloc-style)", "alloc-getcpu-cas", 1, 1,
	lab_st_rseq_path, setup, rs_pair, rs_request, NULL,
};
