/* SPDX-License-Identifier: MIT */
/*
 * lab-percpu: per-CPU strategies (counter increment, list push/pop, lock/unlock pair), rseq
 * against the alternatives. Each case is one row; its loop runs in every thread of a run, and
 * its check proves afterwards that no operation was lost or counted twice.
 */
#ifndef LAB_PERCPU_H
#define LAB_PERCPU_H

#include <stddef.h>
#include <stdint.h>

#include "lab/disturb.h"

/* One run of a case: its threads and what it shares, set up by the case's reset. */
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
 * per-thread state and the list nodes are each LAB_PC_LINE-aligned (two 64-byte lines, since
 * the adjacent-line prefetcher moves lines in 128-byte pairs), so no two threads or CPUs ever
 * share a line by accident and a scaling figure shows the strategy, not false sharing.
 */
#define LAB_PC_LINE 128

/* Per-thread state the loops see (the aborts/pushes/pops/held fields are written per op). */
struct lab_pc_thread {
	const struct lab_pc_run *run;
	int tid;
	struct lab_disturb_thread dt; /* the next yield or migration */
	uint64_t aborts;    /* rseq restarts seen on the abort path */
	uint64_t pushes, pops;
	void *held;         /* list rows: the node this thread holds */
} __attribute__((aligned(LAB_PC_LINE)));

struct lab_pc_case {
	const char *name, *label;
	const char *strategy; /* "counter", "list", "lock" */
	const char *versus;   /* the row the speedup column compares with; NULL: itself a reference */
	int rseq;             /* needs rseq (ENOSYS without) */
	double seed_ns;       /* the seed commit's x86-64 figure; 0: none */
	const char *(*path)(void);
	/* Clear the shared state for a run: 0, or -1 (out of memory). */
	int (*reset)(const struct lab_pc_run *run);
	/* In each thread before the barrier (rseq registration, node ownership); may be NULL. */
	int (*thread_setup)(struct lab_pc_thread *t, char *msg, size_t len);
	void (*loop)(struct lab_pc_thread *t, uint64_t n);
	/* After a run, with every thread's state: 0 when exact, else -1 with what was wrong. */
	int (*check)(const struct lab_pc_run *run, struct lab_pc_thread *threads, char *msg,
		     size_t len);
};

extern const struct lab_pc_case *const lab_pc_cases[];
extern const int lab_pc_ncases;

/*
 * The loop shape every case uses: n operations, a compiler barrier after each (so that a
 * counter is really incremented n times in memory), the disturbance check only when asked.
 */
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

/* The rseq cases (percpu-rseq.c, built against the kernel tree's selftests rseq.h). */
extern const struct lab_pc_case lab_pc_counter_rseq, lab_pc_counter_rseq_cpuid,
	lab_pc_list_rseq, lab_pc_lock_rseq;

/* Shared with percpu-rseq.c: the per-CPU slots, nodes and lock words the cases work on. */
struct lab_pc_slot {
	intptr_t v;      /* counter / list head / lock word */
	uint64_t tagged; /* CAS list: (tag << 32) | (index + 1) */
	intptr_t *ptr;   /* lock rows: points at word */
	intptr_t word;
	uint64_t count;  /* lock rows: increments made under the lock */
	uint64_t bad;    /* lock rows: compares that failed */
} __attribute__((aligned(LAB_PC_LINE)));

/* A node is written (next, nidx) by whichever thread pushes it: one per line, too. */
struct lab_pc_node {
	intptr_t next;  /* rseq and spinlock lists: the next node */
	uint32_t nidx;  /* CAS list: the next node's index + 1 (0: none) */
	uint32_t id;
} __attribute__((aligned(LAB_PC_LINE)));

_Static_assert(sizeof(struct lab_pc_slot) == LAB_PC_LINE, "a per-CPU slot fills its line");
_Static_assert(sizeof(struct lab_pc_node) == LAB_PC_LINE, "a list node fills its line");
_Static_assert(sizeof(struct lab_pc_thread) % LAB_PC_LINE == 0 &&
	       _Alignof(struct lab_pc_thread) == LAB_PC_LINE, "per-thread state on its own lines");

/* An array of n LAB_PC_LINE-aligned elements, zeroed (calloc only aligns to 16); NULL if none. */
void *lab_pc_lines_alloc(size_t n, size_t size);

extern struct lab_pc_slot *lab_pc_slots;
extern struct lab_pc_node *lab_pc_nodes;
#define LAB_PC_WORD 0x5eed5eedL

int lab_pc_slots_reset(const struct lab_pc_run *run);
int lab_pc_list_setup(struct lab_pc_thread *t, char *msg, size_t len);
int lab_pc_counter_check(const struct lab_pc_run *run, struct lab_pc_thread *th, char *msg,
			 size_t len);
int lab_pc_list_check(const struct lab_pc_run *run, struct lab_pc_thread *th, char *msg,
		      size_t len);
int lab_pc_lock_check(const struct lab_pc_run *run, struct lab_pc_thread *th, char *msg,
		      size_t len);

#endif
