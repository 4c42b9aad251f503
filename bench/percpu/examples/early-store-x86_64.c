/* SPDX-License-Identifier: MIT */
/*
 * Deliberately broken (x86-64): a section that adds to its CPU's counter first and then
 * commits another store (the CPU that wrote last) as its last instruction. Preempted between
 * the two, the kernel aborts a section whose add has landed, and the retry adds again.
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

static inline int early_addv(struct lab_pc_slot *s, intptr_t count, int cpu)
{
	__asm__ __volatile__ goto(
		RSEQ_ASM_DEFINE_TABLE(3, 1f, 2f, 4f) /* start, post-commit, abort */
		RSEQ_ASM_STORE_RSEQ_CS(1, 3b, RSEQ_ASM_TP_SEGMENT:RSEQ_CS_OFFSET(%[rseq_offset]))
		RSEQ_ASM_CMP_CPU_ID(cpu_id, RSEQ_ASM_TP_SEGMENT:RSEQ_CPU_ID_OFFSET(%[rseq_offset]), 4f)
		"addq %[count], %[v]\n\t"  /* the bug: the add lands before the commit */
		"movq %[who], %[last]\n\t" /* the commit */
		"2:\n\t"
		RSEQ_ASM_DEFINE_ABORT(4, "", abort)
		: /* asm goto: no outputs */
		: [cpu_id] "r"(cpu), [rseq_offset] "r"(rseq_offset), [v] "m"(s->v),
		  [count] "er"(count), [last] "m"(s->tagged), [who] "r"((uint64_t)cpu)
		: "memory", "cc", "rax"
		: abort);
	rseq_after_asm_goto();
	return 0;
abort:
	rseq_after_asm_goto();
	return -1;
}

static inline void early_add(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!early_addv(&lab_pc_slots[cpu], 1, cpu))
			return;
		t->aborts++;
	}
}

LAB_COUNTER(early, early_add, .name = "counter-early-store",
	    .label = "rseq section that adds before its commit (broken)", .rseq = 1, .aborts = 1,
	    .versus = "counter-getcpu-atomic", .path = lab_st_rseq_path,
	    .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&early);
