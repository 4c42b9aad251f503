/* SPDX-License-Identifier: MIT */
/*
 * The arenas, the caches without rseq (getcpu + CAS on a tagged stack head, getcpu + a per-CPU
 * lock, a per-thread cache), the arena alone, glibc malloc, and the check-mode bookkeeping:
 * a claim flag per object, and the audit that finds every object exactly once at the end.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "alloc-cache.h"
#include "lab/vdso.h"

struct al_arena al_arenas[AL_NCLASS];
struct al_cache *al_caches;
int al_cap = AL_CAP, al_batch = AL_BATCH;
static int ncaches;

uint64_t al_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void al_fail(struct al_thread *t, const char *fmt, ...)
{
	va_list ap;

	if (!t->errors++) {
		va_start(ap, fmt);
		vsnprintf(t->error, sizeof(t->error), fmt, ap);
		va_end(ap);
	}
}

/* ---- the arena ---- */

long al_index(int cls, const void *p)
{
	const struct al_arena *a = &al_arenas[cls];
	const char *c = p;

	if (c < a->base || c >= a->base + a->carved * al_size(cls) ||
	    (size_t)(c - a->base) % al_size(cls))
		return -1;
	return (long)((size_t)(c - a->base) >> (AL_MIN_SHIFT + cls));
}

int al_arena_get(int cls, void **out, int k)
{
	struct al_arena *a = &al_arenas[cls];
	int got = 0;

	pthread_mutex_lock(&a->lock);
	while (got < k && a->n)
		out[got++] = a->stack[--a->n];
	while (got < k && a->carved < a->limit)
		out[got++] = a->base + a->carved++ * al_size(cls);
	pthread_mutex_unlock(&a->lock);
	if (!got) {
		fprintf(stderr, "lab-alloc: the %zu-byte arena is exhausted (%zu objects)\n",
			al_size(cls), a->limit);
		exit(1);
	}
	return got;
}

void al_arena_put(int cls, void *const *in, int k)
{
	struct al_arena *a = &al_arenas[cls];

	pthread_mutex_lock(&a->lock);
	if (a->n + k > a->cap) {
		size_t cap = a->cap ? a->cap : 1024;

		while (cap < a->n + k)
			cap *= 2;
		a->stack = realloc(a->stack, cap * sizeof(void *));
		if (!a->stack) {
			fprintf(stderr, "lab-alloc: out of memory for the arena's free stack\n");
			exit(1);
		}
		a->cap = cap;
	}
	memcpy(a->stack + a->n, in, k * sizeof(void *));
	a->n += k;
	pthread_mutex_unlock(&a->lock);
}

int al_reset(const struct al_run *run)
{
	al_cap = run->check ? 8 : AL_CAP;
	al_batch = run->check ? 4 : AL_BATCH;
	for (int c = 0; c < AL_NCLASS; c++) {
		struct al_arena *a = &al_arenas[c];

		if (!a->base) {
			pthread_mutex_init(&a->lock, NULL);
			a->limit = AL_POOL / al_size(c);
			if (a->limit >= (1ul << AL_IDX_BITS))
				a->limit = (1ul << AL_IDX_BITS) - 1;
			a->base = mmap(NULL, AL_POOL, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
			a->inuse = calloc(a->limit, 1);
			if (a->base == MAP_FAILED || !a->inuse)
				return -1;
		}
		memset(a->inuse, 0, a->carved);
		a->carved = a->n = 0;
	}
	if (run->nslots * AL_NCLASS > ncaches) {
		free(al_caches);
		al_caches = aligned_alloc(LAB_CACHE_LINE, run->nslots * AL_NCLASS * sizeof(*al_caches));
		ncaches = al_caches ? run->nslots * AL_NCLASS : 0;
		if (!al_caches)
			return -1;
	}
	memset(al_caches, 0, ncaches * sizeof(*al_caches));
	return 0;
}

/* ---- check-mode bookkeeping ---- */

void al_claim(struct al_thread *t, int cls, void *p, int own)
{
	long i;

	if (!own)
		return;
	if ((i = al_index(cls, p)) < 0)
		al_fail(t, "%p is not a %zu-byte object of the arena", p, al_size(cls));
	else if (__atomic_exchange_n(&al_arenas[cls].inuse[i], 1, __ATOMIC_ACQ_REL))
		al_fail(t, "%zu-byte object %ld handed out twice", al_size(cls), i);
}

void al_release(struct al_thread *t, int cls, void *p, int own)
{
	long i;

	if (own && (i = al_index(cls, p)) >= 0 &&
	    !__atomic_exchange_n(&al_arenas[cls].inuse[i], 0, __ATOMIC_ACQ_REL))
		al_fail(t, "%zu-byte object %ld given back but not handed out", al_size(cls), i);
}

static int see(uint8_t *seen, int cls, const void *p, const char *where, char *msg, size_t len)
{
	long i = al_index(cls, p);

	if (i < 0) {
		snprintf(msg, len, "%s: %p is not a %zu-byte object", where, p, al_size(cls));
		return -1;
	}
	if (seen[i]++) {
		snprintf(msg, len, "%zu-byte object %ld is free twice (again in %s)", al_size(cls), i,
			 where);
		return -1;
	}
	return 0;
}

int al_audit(int nslots, char *msg, size_t len)
{
	for (int c = 0; c < AL_NCLASS; c++) {
		struct al_arena *a = &al_arenas[c];
		uint8_t *seen = calloc(a->carved + 1, 1);
		size_t found = 0;
		int bad = 0;

		if (!seen) {
			snprintf(msg, len, "out of memory");
			return -1;
		}
		for (size_t k = 0; !bad && k < a->n; k++, found++)
			bad = see(seen, c, a->stack[k], "the arena", msg, len);
		for (int cpu = 0; !bad && cpu < nslots; cpu++) {
			struct al_cache *ca = al_cache(cpu, c);
			uint64_t h = ca->head, cnt = h >> AL_IDX_BITS & ((1u << AL_CNT_BITS) - 1);

			for (intptr_t k = 0; !bad && k < ca->n; k++, found++)
				bad = see(seen, c, (void *)ca->slot[k], "a CPU's cache", msg, len);
			for (uint64_t i = h & ((1u << AL_IDX_BITS) - 1); !bad && i; cnt--, found++) {
				void *p = a->base + (i - 1) * al_size(c);

				bad = see(seen, c, p, "a CPU's CAS list", msg, len);
				i = *(uint32_t *)p;
			}
			if (!bad && cnt)
				snprintf(msg, len, "CPU %d's CAS list count is off by %llu", cpu,
					 (unsigned long long)cnt), bad = 1;
		}
		for (size_t k = 0; !bad && k < a->carved; k++)
			if (a->inuse[k])
				snprintf(msg, len, "%zu-byte object %zu still marked handed out",
					 al_size(c), k), bad = 1;
		if (!bad && found != a->carved)
			snprintf(msg, len, "%zu-byte class: %zu objects carved, %zu found free: %zu lost",
				 al_size(c), a->carved, found, a->carved - found), bad = 1;
		free(seen);
		if (bad)
			return -1;
	}
	return 0;
}

/* ---- getcpu ---- */

typedef long (*vgetcpu_fn)(unsigned *cpu, unsigned *node, void *cache);
static vgetcpu_fn vgetcpu;

const char *al_getcpu_path(void)
{
	if (!vgetcpu)
		vgetcpu = (vgetcpu_fn)lab_vdso_sym("__vdso_getcpu");
	return vgetcpu ? "vDSO __vdso_getcpu" : "glibc sched_getcpu (no vDSO getcpu)";
}

int al_getcpu(void)
{
	unsigned cpu;

	if (vgetcpu && vgetcpu(&cpu, NULL, NULL) == 0)
		return (int)cpu;
	return sched_getcpu();
}

/* ---- getcpu + CAS: a Treiber stack per CPU, its head tagged against ABA ---- */

#define IDX_MASK ((1ull << AL_IDX_BITS) - 1)
#define CNT_MASK ((1ull << AL_CNT_BITS) - 1)
#define TAG_SHIFT (AL_IDX_BITS + AL_CNT_BITS)

static inline void *cas_pop(struct al_cache *c, int cls)
{
	uint64_t h = __atomic_load_n(&c->head, __ATOMIC_ACQUIRE);

	for (;;) {
		uint64_t i = h & IDX_MASK, next, nh;
		char *p;

		if (!i)
			return NULL;
		p = al_arenas[cls].base + (i - 1) * al_size(cls);
		/* The object may already be someone else's: then the tag changed and the CAS fails. */
		next = __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED);
		nh = (next & IDX_MASK) | (((h >> AL_IDX_BITS & CNT_MASK) - 1) << AL_IDX_BITS) |
		     ((h >> TAG_SHIFT) + 1) << TAG_SHIFT;
		if (__atomic_compare_exchange_n(&c->head, &h, nh, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_ACQUIRE))
			return p;
	}
}

/* 0, or -1 when the cache is full. */
static inline int cas_push(struct al_cache *c, int cls, void *p)
{
	uint64_t h = __atomic_load_n(&c->head, __ATOMIC_RELAXED), me;

	me = (uint64_t)((char *)p - al_arenas[cls].base) / al_size(cls) + 1;
	for (;;) {
		uint64_t cnt = h >> AL_IDX_BITS & CNT_MASK;

		if (cnt == (uint64_t)al_cap)
			return -1;
		__atomic_store_n((uint32_t *)p, (uint32_t)(h & IDX_MASK), __ATOMIC_RELAXED);
		if (__atomic_compare_exchange_n(&c->head, &h,
						me | (cnt + 1) << AL_IDX_BITS |
							((h >> TAG_SHIFT) + 1) << TAG_SHIFT,
						0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return 0;
	}
}

static inline void *cas_alloc(struct al_thread *t, int cls)
{
	struct al_cache *c = al_cache(al_getcpu(), cls);
	void *p = cas_pop(c, cls), *batch[AL_BATCH];
	int got, k;

	if (p)
		return p;
	t->refills++;
	got = al_arena_get(cls, batch, al_batch);
	for (k = 1; k < got && !cas_push(c, cls, batch[k]); k++)
		;
	if (k < got)
		al_arena_put(cls, batch + k, got - k);
	return batch[0];
}

static inline void cas_free(struct al_thread *t, void *p, int cls)
{
	for (;;) {
		struct al_cache *c = al_cache(al_getcpu(), cls);
		void *batch[AL_BATCH];
		int k;

		if (!cas_push(c, cls, p))
			return;
		t->flushes++;
		for (k = 0; k < al_batch && (batch[k] = cas_pop(c, cls)); k++)
			;
		al_arena_put(cls, batch, k);
	}
}

AL_WORKLOADS(cas, 1, cas_alloc, cas_free)

/* ---- getcpu + a per-CPU lock around an array stack ---- */

static inline struct al_cache *lock_cpu(int cls)
{
	for (;;) {
		struct al_cache *c = al_cache(al_getcpu(), cls);

		if (!__atomic_exchange_n(&c->lock, 1, __ATOMIC_ACQUIRE))
			return c;
		while (__atomic_load_n(&c->lock, __ATOMIC_RELAXED))
			sched_yield(); /* held by a thread that was preempted or moved away */
	}
}

static inline void unlock_cpu(struct al_cache *c)
{
	__atomic_store_n(&c->lock, 0, __ATOMIC_RELEASE);
}

static inline void *lock_alloc(struct al_thread *t, int cls)
{
	struct al_cache *c = lock_cpu(cls);
	void *p;

	if (!c->n) {
		t->refills++;
		c->n = al_arena_get(cls, (void **)c->slot, al_batch);
	}
	p = (void *)c->slot[--c->n];
	unlock_cpu(c);
	return p;
}

static inline void lock_free(struct al_thread *t, void *p, int cls)
{
	struct al_cache *c = lock_cpu(cls);

	if (c->n == al_cap) {
		t->flushes++;
		c->n -= al_batch;
		al_arena_put(cls, (void *const *)&c->slot[c->n], al_batch);
	}
	c->slot[c->n++] = (intptr_t)p;
	unlock_cpu(c);
}

AL_WORKLOADS(lock, 1, lock_alloc, lock_free)

/* ---- a per-thread cache (tcache-like): no atomics at all ---- */

static __thread struct {
	int n;
	void *slot[AL_CAP];
} tcache[AL_NCLASS];

static inline void *tc_alloc(struct al_thread *t, int cls)
{
	if (!tcache[cls].n) {
		t->refills++;
		tcache[cls].n = al_arena_get(cls, tcache[cls].slot, al_batch);
	}
	return tcache[cls].slot[--tcache[cls].n];
}

static inline void tc_free(struct al_thread *t, void *p, int cls)
{
	if (tcache[cls].n == al_cap) {
		t->flushes++;
		tcache[cls].n -= al_batch;
		al_arena_put(cls, &tcache[cls].slot[tcache[cls].n], al_batch);
	}
	tcache[cls].slot[tcache[cls].n++] = p;
}

static void tc_end(struct al_thread *t)
{
	(void)t;
	for (int c = 0; c < AL_NCLASS; c++) {
		al_arena_put(c, tcache[c].slot, tcache[c].n);
		tcache[c].n = 0;
	}
}

AL_WORKLOADS(tc, 1, tc_alloc, tc_free)

/* ---- the arena alone: its mutex on every call ---- */

static inline void *ar_alloc(struct al_thread *t, int cls)
{
	void *p;

	(void)t;
	al_arena_get(cls, &p, 1);
	return p;
}

static inline void ar_free(struct al_thread *t, void *p, int cls)
{
	(void)t;
	al_arena_put(cls, &p, 1);
}

AL_WORKLOADS(ar, 1, ar_alloc, ar_free)

/* ---- glibc ---- */

static inline void *gl_alloc(struct al_thread *t, int cls)
{
	void *p = malloc(al_size(cls));

	if (!p)
		al_fail(t, "malloc(%zu) failed", al_size(cls)), exit(1);
	return p;
}

static inline void gl_free(struct al_thread *t, void *p, int cls)
{
	(void)t;
	(void)cls;
	free(p);
}

AL_WORKLOADS(gl, 0, gl_alloc, gl_free)

static const char *tc_path(void) { return "thread-local array stack"; }
static const char *ar_path(void) { return "pthread mutex per class"; }
static const char *gl_path(void) { return "glibc malloc/free (its own tcache and arenas)"; }

const struct al_strategy al_getcpu_cas = {
	"alloc-getcpu-cas", "per-CPU cache, getcpu + CAS (tagged head)", NULL, 0, 1,
	al_getcpu_path, NULL, cas_pair, cas_request, NULL,
};
const struct al_strategy al_percpu_lock = {
	"alloc-percpu-lock", "per-CPU cache, getcpu + per-CPU lock", "alloc-getcpu-cas", 0, 1,
	al_getcpu_path, NULL, lock_pair, lock_request, NULL,
};
const struct al_strategy al_tcache = {
	"alloc-tcache", "per-thread cache (tcache-like)", "alloc-getcpu-cas", 0, 1, tc_path, NULL,
	tc_pair, tc_request, tc_end,
};
const struct al_strategy al_arena = {
	"alloc-arena", "arena mutex alone (no cache)", "alloc-getcpu-cas", 0, 1, ar_path, NULL,
	ar_pair, ar_request, NULL,
};
const struct al_strategy al_glibc = {
	"alloc-glibc", "glibc malloc/free", "alloc-getcpu-cas", 0, 0, gl_path, NULL, gl_pair,
	gl_request, NULL,
};
