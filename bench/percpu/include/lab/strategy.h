/* SPDX-License-Identifier: MIT */
/*
 * A per-CPU strategy for lab-percpu: one C file against this header. The lab's own rows (the
 * files in bench/percpu/strategies/) are written this way, and `make strategy STRATEGY=mine.c`
 * builds, checks and times yours beside them (bench/percpu/README.md, "Your strategy").
 *
 * A strategy has a shape, which says what its operation is and how the lab proves it exact
 * after every run (lab-percpu --check: 6 x NCPU threads, yields, migrations, timer signals;
 * make strategy adds pinned runs long enough for preemption inside operations):
 *
 *   shape    operation (static inline in your file, t: the calling thread)   checked
 *   counter  void add(struct lab_pc_thread *t)       adds 1        sum of lab_pc_slots[].v
 *                                                                   (+ .total) = threads x ops
 *   list     void push(t, struct lab_pc_node *n)     n onto a list  every node once: held, or
 *            struct lab_pc_node *pop(t)              one off, or NULL  in a slot's list (v/next,
 *                                                                   or tagged/nidx by index)
 *   lock     struct lab_pc_slot *lock(t)             a slot, locked  every increment the lab
 *            void unlock(t, struct lab_pc_slot *s)   release it      makes under it is there,
 *                                                                   every lock word 0 after
 *
 * The lab's per-CPU state is lab_pc_slots[0 .. run->nslots), one 128-byte slot per CPU (index
 * it by CPU number or mm_cid), zeroed before every run; a list links lab_pc_node's through
 * their next field from a slot's v; a lock is a slot's v (0 free). Each operation is inlined
 * into the lab's timed loop (LAB_PC_LOOP), so the figure is the operation's own cost.
 *
 * Declare each strategy with the macro of its shape, then list them once per file:
 *
 *   static inline void my_add(struct lab_pc_thread *t) { ... }
 *   LAB_COUNTER(mine, my_add, .name = "counter-mine", .label = "what it does");
 *   LAB_STRATEGIES(&mine);
 *
 * Optional fields: .versus (the row the speedup compares with), .rseq = 1 (needs rseq:
 * ENOSYS rows without it), .aborts = 1 (the op adds its restarts to t->aborts, reported per
 * Mop), .path (a function returning how it finds the CPU, printed with the check), .setup
 * (shared state, once per run, after the lab zeroed its slots), .thread_init / .thread_fini
 * (in each thread, before the start barrier and after its last op), .total (counter: what it
 * counted outside the slots, after every thread's fini); t->own is the strategy's, per
 * thread. LAB_LIST_BY_OP takes a list's whole operation as one function. The kernel tree's
 * selftests rseq helpers are on the include path: #include <rseq.h> before this header, and
 * .thread_init = lab_pc_rseq_init registers the thread.
 *
 * What <rseq.h> offers (Linux 6.1's tools/testing/selftests/rseq; each helper returns 0 when
 * its section committed, -1 when it aborted, 1 when a compare failed; cpu is the CPU the
 * section must run on, normally (int)rseq_cpu_start()):
 *   rseq_cpu_start(), rseq_current_cpu_raw()             the CPU from the rseq area
 *   rseq_addv(v, count, cpu)                              *v += count
 *   rseq_cmpeqv_storev(v, expect, newv, cpu)              if *v == expect: *v = newv
 *   rseq_cmpnev_storeoffp_load(v, expectnot, voffp, load, cpu)
 *                                     if *v != expectnot: *load = *v, *v = *(*v + voffp)
 *   rseq_offset_deref_addv(ptr, off, inc, cpu)            *(*ptr + off) += inc
 *   rseq_cmpeqv_trystorev_storev(v, expect, v2, newv2, newv, cpu)   (and _release)
 *   rseq_cmpeqv_cmpeqv_storev(v, expect, v2, expect2, newv, cpu)
 *   rseq_cmpeqv_trymemcpy_storev(v, expect, dst, src, len, newv, cpu) (and _release)
 * A section of your own is asm goto on the same file's macros (rseq-x86.h, rseq-arm64.h):
 * RSEQ_ASM_DEFINE_TABLE, RSEQ_ASM_STORE_RSEQ_CS, RSEQ_ASM_CMP_CPU_ID, RSEQ_ASM_DEFINE_ABORT,
 * then rseq_after_asm_goto() on both exits; the committing store must be the section's last
 * instruction (bench/percpu/examples/late-commit-x86_64.c shows what else happens).
 *
 * .percpu declares data of the strategy's own that is per CPU (element c is CPU c's): lab-percpu
 * --explore then refuses a plain store to it that is not the commit of a section on CPU c, as
 * for the lab's slots; without it the exploration infers what both threads of one CPU write.
 *
 * make strategy proves a strategy before it times it: lab-percpu --interleave stops the
 * operation at every instruction boundary (a preemption, a signal, a move to another CPU),
 * lets a second thread run a whole operation on that CPU's state, and checks the shape's
 * invariants and that a plain store to CPU c's slot runs inside a section, on CPU c; then
 * the random passes below run many threads for longer.
 */
#ifndef LAB_STRATEGY_H
#define LAB_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "lab/cacheline.h"
#include "lab/disturb.h"

/* One run: its threads and what it shares. */
struct lab_pc_run {
	int nthreads;
	uint64_t iters;    /* operations per thread */
	int nslots;        /* per-CPU arrays have this many slots (highest CPU number + 1) */
	/* What disturbs the threads between (and, for signals, during) operations; its cpus (the
	   allowed CPUs, round-robin) are also where pinned threads go. */
	struct lab_disturb dis;
};

/*
 * What one thread writes on every operation lives on lines of its own: per-CPU slots, the
 * per-thread state and the list nodes are each LAB_CACHE_LINE-aligned (lab/cacheline.h), so
 * no two threads or CPUs ever share a line by accident.
 */

/* Per-thread state the operations see (aborts/pushes/pops/held are written per op). */
struct lab_pc_thread {
	const struct lab_pc_run *run;
	int tid;
	struct lab_disturb_thread dt; /* the next yield or migration */
	uint64_t aborts;    /* restarts seen on the abort path (.aborts = 1) */
	uint64_t pushes, pops;
	void *held;         /* list rows: the node this thread holds */
	void *own;          /* the strategy's own per-thread pointer (thread_init sets it) */
} __attribute__((aligned(LAB_CACHE_LINE)));

/* A CPU's slot: the counter, list head or lock word, and what the lock rows check. */
struct lab_pc_slot {
	intptr_t v;      /* counter / list head / lock word */
	uint64_t tagged; /* CAS list: (tag << 32) | (index + 1) */
	intptr_t *ptr;   /* lock rows: points at word */
	intptr_t word;
	uint64_t count;  /* lock rows: increments made under the lock */
	uint64_t bad;    /* lock rows: compares that failed */
	/* The interleaving check's lock op: who holds the lock (tid + 1, 0: nobody) and how
	   often a thread found it held by another once its lock() had returned. */
	uint32_t holder, overlaps;
} __attribute__((aligned(LAB_CACHE_LINE)));

/* A node is written (next, nidx) by whichever thread pushes it: one per line, too. */
struct lab_pc_node {
	intptr_t next;  /* pointer-linked lists: the next node */
	uint32_t nidx;  /* index-linked lists (CAS): the next node's index + 1 (0: none) */
	uint32_t id;
} __attribute__((aligned(LAB_CACHE_LINE)));

_Static_assert(sizeof(struct lab_pc_slot) == LAB_CACHE_LINE, "a per-CPU slot fills its line");
_Static_assert(sizeof(struct lab_pc_node) == LAB_CACHE_LINE, "a list node fills its line");
_Static_assert(sizeof(struct lab_pc_thread) % LAB_CACHE_LINE == 0 &&
	       _Alignof(struct lab_pc_thread) == LAB_CACHE_LINE, "per-thread state on its own lines");

extern struct lab_pc_slot *lab_pc_slots; /* run->nslots of them */
extern struct lab_pc_node *lab_pc_nodes; /* run->nthreads of them; thread i starts holding i */
#define LAB_PC_WORD 0x5eed5eedL          /* what a lock slot's *ptr reads */

/* An array of n LAB_CACHE_LINE-aligned elements, zeroed (calloc only aligns to 16); NULL if none. */
void *lab_pc_lines_alloc(size_t n, size_t size);

/* The CPU number as getcpu reports it (the vDSO's, else glibc's), through one pointer. */
typedef long (*lab_pc_getcpu_fn)(unsigned *cpu, unsigned *node, void *cache);
extern lab_pc_getcpu_fn lab_pc_vgetcpu;
static inline int lab_pc_getcpu(void)
{
	unsigned cpu;

	lab_pc_vgetcpu(&cpu, NULL, NULL);
	return (int)cpu;
}
const char *lab_pc_getcpu_path(void); /* a .path: which getcpu that is */

/* Every op runs in this loop: a compiler barrier after each (so that a counter is really
 * incremented n times in memory), the disturbance check only when asked. */
#define LAB_PC_LOOP(name, op)                                                         \
	static void name(struct lab_pc_thread *t, uint64_t n)                         \
	{                                                                             \
		if (!t->run->dis.what) {                                              \
			for (uint64_t i = 0; i < n; i++) {                            \
				op;                                                   \
				__asm__ volatile("" ::: "memory");                    \
			}                                                             \
			return;                                                       \
		}                                                                     \
		for (uint64_t i = 0; i < n; i++) {                                    \
			op;                                                           \
			lab_disturb_tick(&t->dt);                                     \
		}                                                                     \
	}

/* A strategy's own per-CPU data: count elements of size bytes, stride apart from base;
 * element c is CPU c's (written by CPU c only, or atomically). */
struct lab_pc_percpu {
	void *base;
	size_t stride, size;
	int count;
};

struct lab_strategy {
	const char *name, *label;
	const char *shape;    /* "counter", "list", "lock" */
	const char *versus;   /* the row the speedup column compares with; NULL: itself a reference */
	int rseq;             /* needs rseq (ENOSYS without) */
	int aborts;           /* counts its restarts in t->aborts */
	double seed_ns;       /* the seed commit's x86-64 figure; 0: none */
	const char *(*path)(void);
	int (*setup)(const struct lab_pc_run *run);                       /* 0, or -1 */
	int (*thread_init)(struct lab_pc_thread *t, char *msg, size_t len); /* 0, or -1 + msg */
	void (*thread_fini)(struct lab_pc_thread *t);
	uint64_t (*total)(const struct lab_pc_run *run);
	void (*loop)(struct lab_pc_thread *t, uint64_t n); /* made by the shape's macro */
	/* One operation, out of line: what the interleaving check (lab-percpu --interleave)
	   runs, a few per thread; made by the shape's macro (a list's push and pop apart). */
	void (*one)(struct lab_pc_thread *t);
	void (*push_one)(struct lab_pc_thread *t, struct lab_pc_node *n);
	struct lab_pc_node *(*pop_one)(struct lab_pc_thread *t);
	/* Per-CPU data of the strategy's own (beyond lab_pc_slots), for the interleaving
	   check's ownership rule; asked after .setup. NULL: the check infers it. */
	struct lab_pc_percpu (*percpu)(const struct lab_pc_run *run);
};

/* One operation of a list strategy: push the node held (if any), then pop one. */
#define LAB_PC_LIST_OP(push, pop)                                                \
	do {                                                                     \
		if (t->held) {                                                   \
			push(t, (struct lab_pc_node *)t->held);                  \
			t->pushes++;                                             \
		}                                                                \
		t->held = pop(t);                                                \
		t->pops += t->held != NULL;                                      \
	} while (0)

/* One operation of a lock strategy: lock, dereference, compare a word, count, unlock. */
#define LAB_PC_LOCK_OP(lock, unlock)                                             \
	do {                                                                     \
		struct lab_pc_slot *s_ = lock(t);                                \
		if (*s_->ptr != LAB_PC_WORD)                                     \
			s_->bad++;                                               \
		s_->count++;                                                     \
		unlock(t, s_);                                                   \
	} while (0)

/* The lock op as the interleaving check runs it: the same, and a holder recorded between
 * lock() and unlock(), so that a second thread let in while the first holds the lock is seen
 * even where no increment is lost. */
#define LAB_PC_LOCK_OP_CHECKED(lock, unlock)                                     \
	do {                                                                     \
		struct lab_pc_slot *s_ = lock(t);                                \
		volatile uint32_t *h_ = &s_->holder; /* every store kept */     \
		if (*h_)                                                         \
			s_->overlaps++;                                          \
		*h_ = (uint32_t)t->tid + 1;                                      \
		if (*s_->ptr != LAB_PC_WORD)                                     \
			s_->bad++;                                               \
		s_->count++;                                                     \
		*h_ = 0;                                                         \
		unlock(t, s_);                                                   \
	} while (0)

#define LAB_STRATEGY_(var, shape_, op, ...) LAB_STRATEGY_CHECKED_(var, shape_, op, op, __VA_ARGS__)
/* The same, with the operation the interleaving check runs given apart. */
#define LAB_STRATEGY_CHECKED_(var, shape_, op, checked_op, ...)                  \
	LAB_PC_LOOP(var##_loop_, op)                                             \
	static __attribute__((noinline)) void var##_one_(struct lab_pc_thread *t) \
	{                                                                        \
		checked_op;                                                      \
		__asm__ volatile("" ::: "memory");                               \
	}                                                                        \
	static const struct lab_strategy var = { .shape = shape_, .loop = var##_loop_, \
						 .one = var##_one_, __VA_ARGS__ }
#define LAB_COUNTER(var, add, ...) LAB_STRATEGY_(var, "counter", add(t), __VA_ARGS__)
/* A list's push and pop, out of line, for the check's histories (pop, pop, push, push). */
#define LAB_PC_LIST_ONES_(var, push, pop)                                        \
	static __attribute__((noinline)) void var##_push_(struct lab_pc_thread *t, \
							   struct lab_pc_node *n) \
	{                                                                        \
		push(t, n);                                                      \
		__asm__ volatile("" ::: "memory");                               \
	}                                                                        \
	static __attribute__((noinline)) struct lab_pc_node *var##_pop_(struct lab_pc_thread *t) \
	{                                                                        \
		struct lab_pc_node *n_ = pop(t);                                 \
		__asm__ volatile("" ::: "memory");                               \
		return n_;                                                       \
	}
#define LAB_LIST(var, push, pop, ...)                                            \
	LAB_PC_LIST_ONES_(var, push, pop)                                        \
	LAB_STRATEGY_(var, "list", LAB_PC_LIST_OP(push, pop), .push_one = var##_push_, \
		      .pop_one = var##_pop_, __VA_ARGS__)
/* A list whose whole timed operation is op(t), written with LAB_PC_LIST_OP(push, pop): for
 * a push and pop large enough that the compiler should decide whether to inline them. */
#define LAB_LIST_BY_OP(var, op, push, pop, ...)                                  \
	LAB_PC_LIST_ONES_(var, push, pop)                                        \
	LAB_STRATEGY_(var, "list", op(t), .push_one = var##_push_, .pop_one = var##_pop_, \
		      __VA_ARGS__)
#define LAB_LOCK(var, lock, unlock, ...)                                         \
	LAB_STRATEGY_CHECKED_(var, "lock", LAB_PC_LOCK_OP(lock, unlock),         \
		      LAB_PC_LOCK_OP_CHECKED(lock, unlock), __VA_ARGS__)

/* The file's strategies, in table order (each shape's reference row first). The build names
 * the list (-DLAB_STRATEGY_SYM=...), so that several files link into one binary. */
#ifdef RSEQ_H /* <rseq.h> was included first: a .thread_init that registers rseq */
#include "lab/selftests-rseq.h"
static inline int lab_pc_rseq_init(struct lab_pc_thread *t, char *msg, size_t len)
{
	(void)t;
	return lab_st_rseq_register(msg, len);
}
#endif

#ifndef LAB_STRATEGY_SYM
#define LAB_STRATEGY_SYM lab_strategies
#endif
#define LAB_STRATEGIES(...)                                                      \
	extern const struct lab_strategy *const LAB_STRATEGY_SYM[];              \
	const struct lab_strategy *const LAB_STRATEGY_SYM[] = { __VA_ARGS__, NULL }

#endif
