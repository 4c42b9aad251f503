/* SPDX-License-Identifier: MIT */
/*
 * Deliberately broken (x86-64): a counter on per-CPU data of its own (declared with .percpu),
 * committed by a section that never compares the CPU it was given. A thread that reads CPU 0
 * and moves to CPU 1 before its section adds to CPU 0's element from CPU 1, while CPU 0's own
 * threads add to it: two CPUs, one non-atomic add each. The sum can still come out right in a
 * given run; the interleaving check refuses the store itself (ownership: element c is CPU c's).
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

#define MAX_CPUS 1024
static struct {
	intptr_t v;
} __attribute__((aligned(LAB_CACHE_LINE))) own[MAX_CPUS];

static inline int unchecked_addv(intptr_t *v, intptr_t count)
{
	__asm__ __volatile__ goto(
		RSEQ_ASM_DEFINE_TABLE(3, 1f, 2f, 4f) /* start, post-commit, abort */
		RSEQ_ASM_STORE_RSEQ_CS(1, 3b, RSEQ_ASM_TP_SEGMENT:RSEQ_CS_OFFSET(%[rseq_offset]))
		/* the bug: no RSEQ_ASM_CMP_CPU_ID here */
		"addq %[count], %[v]\n\t"
		"2:\n\t"
		RSEQ_ASM_DEFINE_ABORT(4, "", abort)
		: /* asm goto: no outputs */
		: [rseq_offset] "r"(rseq_offset), [v] "m"(*v), [count] "er"(count)
		: "memory", "cc", "rax"
		: abort);
	rseq_after_asm_goto();
	return 0;
abort:
	rseq_after_asm_goto();
	return -1;
}

static int own_setup(const struct lab_pc_run *run)
{
	for (int i = 0; i < run->nslots && i < MAX_CPUS; i++)
		own[i].v = 0;
	return 0;
}

static uint64_t own_total(const struct lab_pc_run *run)
{
	uint64_t sum = 0;

	for (int i = 0; i < run->nslots && i < MAX_CPUS; i++)
		sum += (uint64_t)own[i].v;
	return sum;
}

static __attribute__((unused)) struct lab_pc_percpu own_data(const struct lab_pc_run *run)
{
	return (struct lab_pc_percpu){ own, sizeof(own[0]), sizeof(own[0].v), run->nslots };
}

static inline void stale_own_add(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!unchecked_addv(&own[cpu].v, 1))
			return;
		t->aborts++;
	}
}

LAB_COUNTER(stale_own, stale_own_add, .name = "counter-own-stale-cpu",
	    .label = "own per-CPU data, section without a CPU compare (broken)", .rseq = 1,
	    .aborts = 1, .versus = "counter-getcpu-atomic", .path = lab_st_rseq_path,
	    .setup = own_setup, .total = own_total,
#ifndef LAB_UNDECLARED /* the check infers the data's owner then (tests/interleave.t) */
	    .percpu = own_data,
#endif
	    .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&stale_own);
