/* SPDX-License-Identifier: MIT */
/*
 * The per-CPU strategies without rseq (getcpu + atomics, CAS list, spinlocks, a mutex, a
 * thread-local counter), the shared slots and nodes, the exactness checks, and the case table.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "percpu.h"
#include "lab/arch.h"
#include "lab/vdso.h"

struct lab_pc_slot *lab_pc_slots;
struct lab_pc_node *lab_pc_nodes;
static int nslots_alloc, nnodes_alloc;

/* Counters that are not per CPU: one global line, a mutex, per-thread totals. */
static struct lab_pc_slot global __attribute__((aligned(LAB_PC_LINE)));
static pthread_mutex_t global_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread uint64_t tls_count;
static struct lab_pc_slot *tls_totals;

void *lab_pc_lines_alloc(size_t n, size_t size)
{
	void *p = n ? aligned_alloc(LAB_PC_LINE, n * size) : NULL;

	if (p)
		memset(p, 0, n * size);
	return p;
}

int lab_pc_slots_reset(const struct lab_pc_run *run)
{
	if (run->nslots > nslots_alloc) {
		free(lab_pc_slots);
		lab_pc_slots = lab_pc_lines_alloc(run->nslots, sizeof(*lab_pc_slots));
		nslots_alloc = lab_pc_slots ? run->nslots : 0;
	}
	if (run->nthreads > nnodes_alloc) {
		free(lab_pc_nodes);
		free(tls_totals);
		lab_pc_nodes = lab_pc_lines_alloc(run->nthreads, sizeof(*lab_pc_nodes));
		tls_totals = lab_pc_lines_alloc(run->nthreads, sizeof(*tls_totals));
		nnodes_alloc = lab_pc_nodes && tls_totals ? run->nthreads : 0;
	}
	if (!nslots_alloc || !nnodes_alloc)
		return -1;
	memset(lab_pc_slots, 0, run->nslots * sizeof(*lab_pc_slots));
	memset(lab_pc_nodes, 0, run->nthreads * sizeof(*lab_pc_nodes));
	memset(tls_totals, 0, run->nthreads * sizeof(*tls_totals));
	memset(&global, 0, sizeof(global));
	for (int i = 0; i < run->nslots; i++) {
		lab_pc_slots[i].word = LAB_PC_WORD;
		lab_pc_slots[i].ptr = &lab_pc_slots[i].word;
	}
	return 0;
}

/*
 * The CPU as getcpu reports it: the vDSO's __vdso_getcpu, else glibc's sched_getcpu, resolved
 * once into one pointer that every getcpu row calls, in timed runs and in --check alike (the
 * rows' reset resolves it, and both kinds of run start with a reset).
 */
typedef long (*vgetcpu_fn)(unsigned *cpu, unsigned *node, void *cache);
static vgetcpu_fn vgetcpu;

static long getcpu_glibc(unsigned *cpu, unsigned *node, void *cache)
{
	int c = sched_getcpu();

	(void)node;
	(void)cache;
	*cpu = (unsigned)c;
	return c < 0 ? -1 : 0;
}

static void getcpu_resolve(void)
{
	if (!vgetcpu)
		vgetcpu = (vgetcpu_fn)lab_vdso_sym("__vdso_getcpu");
	if (!vgetcpu)
		vgetcpu = getcpu_glibc;
}

static const char *getcpu_path(void)
{
	getcpu_resolve();
	return vgetcpu == getcpu_glibc ? "glibc sched_getcpu (no vDSO getcpu)" : "vDSO __vdso_getcpu";
}

static int getcpu_reset(const struct lab_pc_run *run)
{
	getcpu_resolve();
	return lab_pc_slots_reset(run);
}

static inline int getcpu_now(void)
{
	unsigned cpu;

	vgetcpu(&cpu, NULL, NULL);
	return (int)cpu;
}

/* ---- counters ---- */

LAB_PC_LOOP(loop_getcpu_atomic,
	    __atomic_fetch_add(&lab_pc_slots[getcpu_now()].v, 1, __ATOMIC_RELAXED))
LAB_PC_LOOP(loop_global_atomic, __atomic_fetch_add(&global.v, 1, __ATOMIC_RELAXED))
LAB_PC_LOOP(loop_tls, tls_count++)
LAB_PC_LOOP(loop_mutex, pthread_mutex_lock(&global_lock); global.v++;
	    pthread_mutex_unlock(&global_lock))

static void tls_loop(struct lab_pc_thread *t, uint64_t n)
{
	tls_count = 0;
	loop_tls(t, n);
	tls_totals[t->tid].v = (intptr_t)tls_count;
}

int lab_pc_counter_check(const struct lab_pc_run *run, struct lab_pc_thread *th, char *msg,
			 size_t len)
{
	uint64_t want = run->iters * run->nthreads, sum = global.v;

	(void)th;
	for (int i = 0; i < run->nslots; i++)
		sum += lab_pc_slots[i].v;
	for (int i = 0; i < run->nthreads; i++)
		sum += tls_totals[i].v;
	if (sum == want)
		return 0;
	snprintf(msg, len, "sum %llu, want %d threads x %llu = %llu", (unsigned long long)sum,
		 run->nthreads, (unsigned long long)run->iters, (unsigned long long)want);
	return -1;
}

/* ---- per-CPU lists ---- */

int lab_pc_list_setup(struct lab_pc_thread *t, char *msg, size_t len)
{
	(void)msg;
	(void)len;
	lab_pc_nodes[t->tid].id = t->tid;
	t->held = &lab_pc_nodes[t->tid];
	return 0;
}

/* Lock-free list per CPU: compare-and-swap on a head tagged with a count against ABA. */
#define IDX_MASK 0xffffffffull
static inline void cas_push(struct lab_pc_node *node)
{
	struct lab_pc_slot *s = &lab_pc_slots[getcpu_now()];
	uint64_t old = __atomic_load_n(&s->tagged, __ATOMIC_RELAXED), new;
	uint32_t idx = (uint32_t)(node - lab_pc_nodes) + 1;

	do {
		__atomic_store_n(&node->nidx, (uint32_t)(old & IDX_MASK), __ATOMIC_RELAXED);
		new = ((old >> 32) + 1) << 32 | idx;
	} while (!__atomic_compare_exchange_n(&s->tagged, &old, new, 0, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
}

static inline struct lab_pc_node *cas_pop(void)
{
	struct lab_pc_slot *s = &lab_pc_slots[getcpu_now()];
	uint64_t old = __atomic_load_n(&s->tagged, __ATOMIC_ACQUIRE), new;
	uint32_t idx;

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

/* A test-and-test-and-set spinlock that yields when the holder seems preempted. */
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

static inline void spin_push(struct lab_pc_node *node)
{
	struct lab_pc_slot *s = &lab_pc_slots[getcpu_now()];

	spin_lock((intptr_t *)&s->word);
	node->next = s->v;
	s->v = (intptr_t)node;
	spin_unlock((intptr_t *)&s->word);
}

static inline struct lab_pc_node *spin_pop(void)
{
	struct lab_pc_slot *s = &lab_pc_slots[getcpu_now()];
	struct lab_pc_node *node;

	spin_lock((intptr_t *)&s->word);
	node = (struct lab_pc_node *)s->v;
	if (node)
		s->v = node->next;
	spin_unlock((intptr_t *)&s->word);
	return node;
}

/* One operation: push the node held (if any), then pop one from the current CPU's list. */
#define LIST_OP(push, pop)                                                       \
	do {                                                                     \
		if (t->held) {                                                   \
			push((struct lab_pc_node *)t->held);                     \
			t->pushes++;                                             \
		}                                                                \
		t->held = pop();                                                 \
		t->pops += t->held != NULL;                                      \
	} while (0)

LAB_PC_LOOP(loop_list_cas, LIST_OP(cas_push, cas_pop))
LAB_PC_LOOP(loop_list_spin, LIST_OP(spin_push, spin_pop))

/* Spinlock rows use word as the lock: clear it (reset set it to the compare value). */
static int spin_reset(const struct lab_pc_run *run)
{
	if (getcpu_reset(run))
		return -1;
	for (int i = 0; i < run->nslots; i++)
		lab_pc_slots[i].word = 0;
	return 0;
}

/* Every node exactly once, in a list or held: count, duplicates and the sum of ids. */
int lab_pc_list_check(const struct lab_pc_run *run, struct lab_pc_thread *th, char *msg,
		      size_t len)
{
	int n = run->nthreads, seen_total = 0, held = 0, dup = -1;
	uint64_t sum = 0, pushes = 0, pops = 0, ops = 0, want = (uint64_t)n * (n - 1) / 2;
	char *seen = calloc(n, 1);

#define SEE(node)                                                                 \
	do {                                                                      \
		uint32_t id_ = (node)->id;                                        \
		if (id_ >= (uint32_t)n || seen[id_]++) {                          \
			dup = (int)id_;                                           \
			goto out;                                                 \
		}                                                                 \
		seen_total++;                                                     \
		sum += id_;                                                       \
	} while (0)
	for (int i = 0; i < n; i++) {
		pushes += th[i].pushes;
		pops += th[i].pops;
		if (th[i].held) {
			SEE((struct lab_pc_node *)th[i].held);
			held++;
		}
	}
	for (int c = 0; c < run->nslots; c++) {
		/* A list is either pointer-linked (rseq, spinlock) or index-linked (CAS). */
		for (struct lab_pc_node *p = (struct lab_pc_node *)lab_pc_slots[c].v; p;
		     p = (struct lab_pc_node *)p->next)
			SEE(p);
		for (uint32_t i = lab_pc_slots[c].tagged & IDX_MASK; i; i = lab_pc_nodes[i - 1].nidx)
			SEE(&lab_pc_nodes[i - 1]);
	}
#undef SEE
	ops = run->iters * n;
out:
	free(seen);
	if (dup >= 0) {
		snprintf(msg, len, "node %d found twice (or a bad node): a list is corrupt", dup);
		return -1;
	}
	if (seen_total != n || sum != want) {
		snprintf(msg, len, "%d of %d nodes found, id sum %llu, want %llu", seen_total, n,
			 (unsigned long long)sum, (unsigned long long)want);
		return -1;
	}
	/* Nodes start held; a push moves one into a list, a pop that found one moves it out. */
	if (pops > ops || pushes > ops || pushes - pops != (uint64_t)(seen_total - held)) {
		snprintf(msg, len, "pushes %llu - pops %llu != %d nodes in the lists",
			 (unsigned long long)pushes, (unsigned long long)pops, seen_total - held);
		return -1;
	}
	return 0;
}

/* ---- per-CPU lock/unlock pair: lock, dereference, compare a word, count, unlock ---- */

static inline void locked_body(struct lab_pc_slot *s)
{
	if (*s->ptr != LAB_PC_WORD)
		s->bad++;
	s->count++;
}

static inline void cmpxchg_lock_op(void)
{
	struct lab_pc_slot *s = &lab_pc_slots[getcpu_now()];
	intptr_t zero = 0;

	while (!__atomic_compare_exchange_n(&s->v, &zero, 1, 0, __ATOMIC_ACQUIRE,
					    __ATOMIC_RELAXED)) {
		zero = 0;
		lab_cpu_relax();
		sched_yield(); /* held: its owner was preempted or moved away */
	}
	locked_body(s);
	__atomic_store_n(&s->v, 0, __ATOMIC_RELEASE);
}

LAB_PC_LOOP(loop_lock_cmpxchg, cmpxchg_lock_op())

int lab_pc_lock_check(const struct lab_pc_run *run, struct lab_pc_thread *th, char *msg,
		      size_t len)
{
	uint64_t sum = 0, bad = 0, want = run->iters * run->nthreads;

	(void)th;
	for (int i = 0; i < run->nslots; i++) {
		sum += lab_pc_slots[i].count;
		bad += lab_pc_slots[i].bad;
		if (lab_pc_slots[i].v) {
			snprintf(msg, len, "the lock of CPU %d is still held", i);
			return -1;
		}
	}
	if (sum == want && !bad)
		return 0;
	snprintf(msg, len, "%llu increments under the locks, want %llu; %llu bad compares",
		 (unsigned long long)sum, (unsigned long long)want, (unsigned long long)bad);
	return -1;
}

static const char *no_path(void)
{
	return "";
}

#define CASE(var, ...) static const struct lab_pc_case var = { __VA_ARGS__ }
CASE(getcpu_atomic, "counter-getcpu-atomic", "getcpu (vDSO) + lock add", "counter", NULL, 0,
     15.3, getcpu_path, getcpu_reset, NULL, loop_getcpu_atomic, lab_pc_counter_check);
CASE(global_atomic, "counter-global-atomic", "one global counter, lock add", "counter",
     "counter-getcpu-atomic", 0, 0, no_path, lab_pc_slots_reset, NULL, loop_global_atomic,
     lab_pc_counter_check);
CASE(tls, "counter-tls", "thread-local counter: a plain add to memory per op", "counter",
     "counter-getcpu-atomic", 0, 0, no_path, lab_pc_slots_reset, NULL, tls_loop,
     lab_pc_counter_check);
CASE(mutex, "counter-mutex", "global counter under a pthread mutex", "counter",
     "counter-getcpu-atomic", 0, 0, no_path, lab_pc_slots_reset, NULL, loop_mutex,
     lab_pc_counter_check);
CASE(list_cas, "list-cas", "per-CPU lock-free CAS list push+pop", "list", NULL, 0, 0,
     getcpu_path, getcpu_reset, lab_pc_list_setup, loop_list_cas, lab_pc_list_check);
CASE(list_spin, "list-spinlock", "per-CPU spinlock list push+pop", "list", "list-cas", 0, 0,
     getcpu_path, spin_reset, lab_pc_list_setup, loop_list_spin, lab_pc_list_check);
CASE(lock_cmpxchg, "lock-cmpxchg", "getcpu + lock cmpxchg lock/unlock, deref, compare",
     "lock", NULL, 0, 53.4, getcpu_path, getcpu_reset, NULL, loop_lock_cmpxchg,
     lab_pc_lock_check);

/* In table order; each strategy's reference row first. */
const struct lab_pc_case *const lab_pc_cases[] = {
	&getcpu_atomic, &lab_pc_counter_rseq_cpuid, &lab_pc_counter_rseq, &global_atomic, &tls,
	&mutex, &list_cas, &lab_pc_list_rseq, &list_spin, &lock_cmpxchg, &lab_pc_lock_rseq,
};
const int lab_pc_ncases = sizeof(lab_pc_cases) / sizeof(lab_pc_cases[0]);
