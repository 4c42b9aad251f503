/* SPDX-License-Identifier: MIT */
/*
 * The rseq rows of lab-percpu, built against the kernel tree's own rseq helpers
 * (tools/testing/selftests/rseq/rseq.h and rseq-x86.h, compiled in place from the unpacked
 * tree, with its rseq.c for the registration and glibc co-existence). Every abort path adds
 * one to the thread's abort count and retries.
 */
#define _GNU_SOURCE
#include <sched.h>

#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "percpu.h"

static int rseq_setup(struct lab_pc_thread *t, char *msg, size_t len)
{
	(void)t;
	return lab_st_rseq_register(msg, len);
}

static int rseq_list_setup(struct lab_pc_thread *t, char *msg, size_t len)
{
	return rseq_setup(t, msg, len) ? -1 : lab_pc_list_setup(t, msg, len);
}

/* ---- counters ---- */

/* rseq's cpu_id to pick the slot, then an atomic add (safe even after a migration). */
LAB_PC_LOOP(loop_cpuid_atomic,
	    __atomic_fetch_add(&lab_pc_slots[rseq_current_cpu_raw()].v, 1, __ATOMIC_RELAXED))

/* The critical section: load, add, one committing store; an abort retries on the new CPU. */
static inline void rseq_inc(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!rseq_addv(&lab_pc_slots[cpu].v, 1, cpu))
			return;
		t->aborts++;
	}
}

LAB_PC_LOOP(loop_counter_rseq, rseq_inc(t))

/* ---- the LWN article's per-CPU list: the head replaced by one committing store ---- */

static inline void rseq_push(struct lab_pc_thread *t, struct lab_pc_node *node)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		intptr_t *head = &lab_pc_slots[cpu].v;
		intptr_t expect = RSEQ_READ_ONCE(*head);
		int ret;

		node->next = expect;
		ret = rseq_cmpeqv_storev(head, expect, (intptr_t)node, cpu);
		if (!ret)
			return;
		if (ret < 0)
			t->aborts++; /* else the head changed before the section: try again */
	}
}

static inline struct lab_pc_node *rseq_pop(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();
		intptr_t node;
		int ret = rseq_cmpnev_storeoffp_load(&lab_pc_slots[cpu].v, 0,
						     offsetof(struct lab_pc_node, next), &node, cpu);

		if (ret == 0)
			return (struct lab_pc_node *)node;
		if (ret > 0)
			return NULL; /* this CPU's list is empty */
		t->aborts++;
	}
}

static inline void rseq_list_op(struct lab_pc_thread *t)
{
	if (t->held) {
		rseq_push(t, t->held);
		t->pushes++;
	}
	t->held = rseq_pop(t);
	t->pops += t->held != NULL;
}

LAB_PC_LOOP(loop_list_rseq, rseq_list_op(t))

/* ---- per-CPU lock: try-lock is compare 0, store 1 on this CPU's word, in a section ---- */

static inline void rseq_lock_op(struct lab_pc_thread *t)
{
	struct lab_pc_slot *s;

	for (;;) {
		int cpu = (int)rseq_cpu_start();
		int ret = rseq_cmpeqv_storev(&lab_pc_slots[cpu].v, 0, 1, cpu);

		if (!ret) {
			s = &lab_pc_slots[cpu];
			break;
		}
		if (ret < 0)
			t->aborts++;
		else
			sched_yield(); /* held by a thread that was preempted or moved away */
	}
	if (*s->ptr != LAB_PC_WORD)
		s->bad++;
	s->count++;
	/* Released with a plain store, possibly from another CPU after a migration. */
	__atomic_store_n(&s->v, 0, __ATOMIC_RELEASE);
}

LAB_PC_LOOP(loop_lock_rseq, rseq_lock_op(t))

const struct lab_pc_case lab_pc_counter_rseq_cpuid = {
	"counter-rseq-cpuid-atomic", "rseq cpu_id + lock add", "counter", "counter-getcpu-atomic",
	1, 0, lab_st_rseq_path, lab_pc_slots_reset, rseq_setup, loop_cpuid_atomic,
	lab_pc_counter_check,
};
const struct lab_pc_case lab_pc_counter_rseq = {
	"counter-rseq", "rseq critical section (add, commit)", "counter", "counter-getcpu-atomic",
	1, 2.0, lab_st_rseq_path, lab_pc_slots_reset, rseq_setup, loop_counter_rseq,
	lab_pc_counter_check,
};
const struct lab_pc_case lab_pc_list_rseq = {
	"list-rseq", "per-CPU rseq list push+pop (one committing store)", "list", "list-cas", 1, 0,
	lab_st_rseq_path, lab_pc_slots_reset, rseq_list_setup, loop_list_rseq, lab_pc_list_check,
};
const struct lab_pc_case lab_pc_lock_rseq = {
	"lock-rseq", "rseq try-lock/unlock, deref, compare", "lock", "lock-cmpxchg", 1, 28.6,
	lab_st_rseq_path, lab_pc_slots_reset, rseq_setup, loop_lock_rseq, lab_pc_lock_check,
};
