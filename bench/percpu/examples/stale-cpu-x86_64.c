/* SPDX-License-Identifier: MIT */
/*
 * Deliberately broken (x86-64): a critical section that never compares the CPU it was given
 * with rseq's cpu_id. A thread that reads CPU 0, moves to CPU 1 before its section starts
 * (outside the section nothing aborts), then commits to CPU 0's slot from CPU 1 — while a
 * thread on CPU 0 may be inside its own section on that slot. The sum can still come out
 * exact (the commit is one add), which is why the interleaving check also checks ownership:
 * CPU c's slot changes only through a commit that runs on CPU c.
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

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

static inline void stale_add(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!unchecked_addv(&lab_pc_slots[cpu].v, 1))
			return;
		t->aborts++;
	}
}

LAB_COUNTER(stale, stale_add, .name = "counter-stale-cpu",
	    .label = "rseq section without the cpu_id compare (broken)", .rseq = 1,
	    .aborts = 1, .versus = "counter-getcpu-atomic", .path = lab_st_rseq_path,
	    .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&stale);
