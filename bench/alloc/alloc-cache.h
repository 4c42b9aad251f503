/* SPDX-License-Identifier: MIT */
/*
 * lab-alloc: an allocator front end the jemalloc way. Fixed-size objects in six size classes
 * (16..512 bytes) come from a shared arena per class (a mutex, a free stack, a bump pointer
 * into one reserved region); in front of it each strategy keeps a cache: per CPU (rseq,
 * getcpu + CAS on a tagged stack head, getcpu + a per-CPU lock), per thread (tcache-like), or
 * none (the arena mutex alone); glibc malloc/free is the outside reference. A cache refills
 * from and flushes to the arena in batches.
 */
#ifndef LAB_ALLOC_CACHE_H
#define LAB_ALLOC_CACHE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/cacheline.h"
#include "lab/disturb.h"

#define AL_NCLASS 6
#define AL_MIN_SHIFT 4   /* class c holds 16 << c bytes */
#define AL_CAP 64        /* objects a cache holds */
#define AL_BATCH 32      /* objects moved per refill / flush */
#define AL_IDX_BITS 26   /* CAS stack head: object index + 1 */
#define AL_CNT_BITS 10   /* ... count ... */
#define AL_POOL (64ul << 20) /* bytes reserved per class */

static inline size_t al_size(int cls)
{
	return (size_t)1 << (AL_MIN_SHIFT + cls);
}

struct al_arena {
	pthread_mutex_t lock;
	char *base;
	size_t carved, limit; /* objects carved from the region so far, at most */
	void **stack;
	size_t n, cap;
	uint8_t *inuse;       /* --check: 1 while an object is handed out */
};

/* One CPU's cache of one class: an array stack (rseq, lock), or a tagged list head (CAS). */
struct al_cache {
	intptr_t n;
	intptr_t lock;
	uint64_t head; /* idx+1 | count << 26 | tag << 36 */
	intptr_t slot[AL_CAP];
} __attribute__((aligned(LAB_CACHE_LINE)));

/* The caches' capacity and batch in force: AL_CAP and AL_BATCH for timing; small in --check
 * so that refills and flushes (and the arena) are exercised all the time. */
extern int al_cap, al_batch;
extern struct al_arena al_arenas[AL_NCLASS];
extern struct al_cache *al_caches; /* [nslots][AL_NCLASS] */

static inline struct al_cache *al_cache(int cpu, int cls)
{
	return &al_caches[cpu * AL_NCLASS + cls];
}

/* Take up to k objects from the arena (mutex held once); returns how many (0: exhausted). */
int al_arena_get(int cls, void **out, int k);
void al_arena_put(int cls, void *const *in, int k);
/* The object's index in its class, or -1 when p is not one of the class's objects. */
long al_index(int cls, const void *p);

struct al_run {
	int nthreads;
	uint64_t iters;   /* pairs or requests per thread */
	int request;      /* 0: alloc+free pairs of one class; 1: requests */
	int burst;        /* objects per request */
	int check;        /* claim/verify every object, fill and verify every byte */
	int nslots;
	size_t max_samples; /* latency samples kept per thread */
	struct lab_disturb dis;
};

struct al_thread {
	const struct al_run *run;
	struct lab_disturb_thread dt;
	int tid;
	uint64_t aborts, refills, flushes, signals, rng;
	double *samples;  /* request latencies, ns */
	size_t nsamples;
	double clock_ns;  /* median of empty requests: the clock pair alone, ns */
	int errors;
	char error[200];
};

struct al_strategy {
	const char *name, *label, *versus;
	int rseq, own; /* own: objects come from our arenas (audited for loss) */
	const char *(*path)(void);
	int (*thread_setup)(struct al_thread *t, char *msg, size_t len);
	void (*pair)(struct al_thread *t, uint64_t n);
	void (*request)(struct al_thread *t, uint64_t n);
	void (*thread_end)(struct al_thread *t); /* give back what the thread holds; may be NULL */
};

extern const struct al_strategy al_rseq, al_getcpu_cas, al_percpu_lock, al_tcache, al_arena,
	al_glibc;

int al_getcpu(void);
const char *al_getcpu_path(void);

/* Check mode: mark handed out / given back; a second claim or release is an error. */
void al_claim(struct al_thread *t, int cls, void *p, int own);
void al_release(struct al_thread *t, int cls, void *p, int own);
void al_fail(struct al_thread *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint64_t al_now_ns(void);

/* Every object of every class exactly once on a free list or in a cache; 0 or -1 with why. */
int al_audit(int nslots, char *msg, size_t len);
int al_reset(const struct al_run *run);

static inline uint64_t al_rand(struct al_thread *t)
{
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	return t->rng;
}

/* The fill pattern of an object: a byte sequence seeded by owner, request and slot. */
static inline uint8_t al_seed(const struct al_thread *t, uint64_t req, int slot)
{
	return (uint8_t)(t->tid * 31 + req * 7 + slot * 13 + 1);
}

/*
 * The two workloads, instantiated per strategy with its alloc and free inlined:
 * PAIR: n times alloc a 64-byte object, write a word, free it.
 * REQUEST: n requests of `burst` objects of mixed classes, each filled whole and read back,
 * freed in an interleaved order (evens, then odds); each request timed.
 */
#define AL_PAIR_CLASS 2
#define AL_WORKLOADS(pfx, OWN, ALLOC, FREE)                                            \
	static void pfx##_pair(struct al_thread *t, uint64_t n)                          \
	{                                                                                \
		int dis = t->run->dis.what != 0, chk = t->run->check;                    \
		for (uint64_t i = 0; i < n; i++) {                                       \
			void *p = ALLOC(t, AL_PAIR_CLASS);                               \
			if (chk)                                                         \
				al_claim(t, AL_PAIR_CLASS, p, OWN);                      \
			*(volatile uint64_t *)p = i;                                     \
			if (chk) {                                                       \
				if (*(volatile uint64_t *)p != i)                        \
					al_fail(t, "pair %llu: word overwritten",        \
						(unsigned long long)i);                  \
				al_release(t, AL_PAIR_CLASS, p, OWN);                    \
			}                                                                \
			FREE(t, p, AL_PAIR_CLASS);                                       \
			if (dis)                                                         \
				lab_disturb_tick(&t->dt);                                \
		}                                                                        \
	}                                                                                \
	static void pfx##_request(struct al_thread *t, uint64_t n)                       \
	{                                                                                \
		int dis = t->run->dis.what != 0, chk = t->run->check, b = t->run->burst;  \
		void *obj[256];                                                          \
		int cls[256];                                                            \
		for (uint64_t r = 0; r < n; r++) {                                       \
			uint64_t t0 = al_now_ns(), sum = 0;                              \
			for (int k = 0; k < b; k++) {                                    \
				cls[k] = (int)(al_rand(t) % AL_NCLASS);                  \
				obj[k] = ALLOC(t, cls[k]);                               \
				if (chk)                                                 \
					al_claim(t, cls[k], obj[k], OWN);                \
				uint8_t *o = obj[k], s = al_seed(t, r, k);               \
				for (size_t j = 0; j < al_size(cls[k]); j++)             \
					o[j] = (uint8_t)(s + j);                         \
				if (dis)                                                 \
					lab_disturb_tick(&t->dt);                        \
			}                                                                \
			for (int h = 0; h < 2; h++)                                      \
				for (int k = h; k < b; k += 2) {                         \
					uint8_t *o = obj[k], s = al_seed(t, r, k);       \
					for (size_t j = 0; j < al_size(cls[k]); j++) {   \
						sum += o[j];                             \
						if (chk && o[j] != (uint8_t)(s + j)) {   \
							al_fail(t, "request %llu object %d " \
								"(%zu bytes) byte %zu changed", \
								(unsigned long long)r, k, \
								al_size(cls[k]), j);     \
							break;                           \
						}                                        \
					}                                                \
					if (chk)                                         \
						al_release(t, cls[k], obj[k], OWN);      \
					FREE(t, obj[k], cls[k]);                         \
					if (dis)                                         \
						lab_disturb_tick(&t->dt);                \
				}                                                        \
			__asm__ volatile("" : : "r"(sum));                               \
			if (t->nsamples < t->run->max_samples)                           \
				t->samples[t->nsamples++] = (double)(al_now_ns() - t0);  \
		}                                                                        \
	}

#endif
