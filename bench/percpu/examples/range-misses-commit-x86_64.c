/* SPDX-License-Identifier: MIT */
/*
 * Deliberately broken (x86-64): a section whose post-commit label sits before its commit, so
 * the table's range [start, post-commit) ends one instruction early and the add runs outside
 * the section. A thread preempted or moved right before the add is not aborted: it adds to the
 * CPU it compared, from wherever it now runs.
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

static inline int short_addv(intptr_t *v, intptr_t count, int cpu)
{
	__asm__ __volatile__ goto(
		RSEQ_ASM_DEFINE_TABLE(3, 1f, 2f, 4f) /* start, post-commit, abort */
		RSEQ_ASM_STORE_RSEQ_CS(1, 3b, RSEQ_ASM_TP_SEGMENT:RSEQ_CS_OFFSET(%[rseq_offset]))
		RSEQ_ASM_CMP_CPU_ID(cpu_id, RSEQ_ASM_TP_SEGMENT:RSEQ_CPU_ID_OFFSET(%[rseq_offset]), 4f)
		"2:\n\t"                  /* the bug: the range ends here ... */
		"addq %[count], %[v]\n\t" /* ... before the commit */
		RSEQ_ASM_DEFINE_ABORT(4, "", abort)
		: /* asm goto: no outputs */
		: [cpu_id] "r"(cpu), [rseq_offset] "r"(rseq_offset), [v] "m"(*v), [count] "er"(count)
		: "memory", "cc", "rax"
		: abort);
	rseq_after_asm_goto();
	return 0;
abort:
	rseq_after_asm_goto();
	return -1;
}

static inline void short_add(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!short_addv(&lab_pc_slots[cpu].v, 1, cpu))
			return;
		t->aborts++;
	}
}

LAB_COUNTER(short_range, short_add, .name = "counter-range-misses-commit",
	    .label = "rseq section whose range ends before its commit (broken)", .rseq = 1,
	    .aborts = 1, .versus = "counter-getcpu-atomic", .path = lab_st_rseq_path,
	    .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&short_range);
