/* SPDX-License-Identifier: MIT */
/*
 * Deliberately broken (x86-64): a hand-written critical section on the selftests' RSEQ_ASM_*
 * macros whose committing add is not its last instruction: one nop sits between the commit
 * and the post-commit label. Preempted on that nop, the kernel aborts a section whose store
 * has already landed, and the retry adds again: an increment counted twice. The random
 * check meets that one-instruction window now and then; make strategy's interleaving check
 * stops the thread on every instruction, so it refuses this every time.
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

static inline int late_addv(intptr_t *v, intptr_t count, int cpu)
{
	__asm__ __volatile__ goto(
		RSEQ_ASM_DEFINE_TABLE(3, 1f, 2f, 4f) /* start, post-commit, abort */
		RSEQ_ASM_STORE_RSEQ_CS(1, 3b, RSEQ_ASM_TP_SEGMENT:RSEQ_CS_OFFSET(%[rseq_offset]))
		RSEQ_ASM_CMP_CPU_ID(cpu_id, RSEQ_ASM_TP_SEGMENT:RSEQ_CPU_ID_OFFSET(%[rseq_offset]), 4f)
		"addq %[count], %[v]\n\t" /* the commit ... */
		"nop\n\t"                 /* ... and the bug: still inside the section */
		"2:\n\t"
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

static inline void late_add(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!late_addv(&lab_pc_slots[cpu].v, 1, cpu))
			return;
		t->aborts++;
	}
}

LAB_COUNTER(late, late_add, .name = "counter-late-commit",
	    .label = "rseq section with an instruction after its commit (broken)", .rseq = 1,
	    .aborts = 1, .versus = "counter-getcpu-atomic", .path = lab_st_rseq_path,
	    .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&late);
