/* SPDX-License-Identifier: MIT */
/*
 * Deliberately broken (x86-64): a correct section whose abort handler is preceded by the
 * wrong signature (not the RSEQ_SIG the thread registered with). The kernel checks it whenever
 * it looks at the section, at the first preemption or signal while rseq_cs points at it, and
 * kills the thread with SIGSEGV.
 */
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

#define WRONG_SIG 0x0badc0de

static inline int wrong_sig_addv(intptr_t *v, intptr_t count, int cpu)
{
	__asm__ __volatile__ goto(
		RSEQ_ASM_DEFINE_TABLE(3, 1f, 2f, 4f) /* start, post-commit, abort */
		RSEQ_ASM_STORE_RSEQ_CS(1, 3b, RSEQ_ASM_TP_SEGMENT:RSEQ_CS_OFFSET(%[rseq_offset]))
		RSEQ_ASM_CMP_CPU_ID(cpu_id, RSEQ_ASM_TP_SEGMENT:RSEQ_CPU_ID_OFFSET(%[rseq_offset]), 4f)
		"addq %[count], %[v]\n\t"
		"2:\n\t"
		/* the abort handler, as RSEQ_ASM_DEFINE_ABORT lays it out, with the bug */
		".pushsection __rseq_failure, \"ax\"\n\t"
		".byte 0x0f, 0xb9, 0x3d\n\t"
		".long " __rseq_str(WRONG_SIG) "\n\t"
		"4:\n\t"
		"jmp %l[abort]\n\t"
		".popsection\n\t"
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

static inline void wrong_sig_add(struct lab_pc_thread *t)
{
	for (;;) {
		int cpu = (int)rseq_cpu_start();

		if (!wrong_sig_addv(&lab_pc_slots[cpu].v, 1, cpu))
			return;
		t->aborts++;
	}
}

LAB_COUNTER(wrong_sig, wrong_sig_add, .name = "counter-bad-signature",
	    .label = "rseq section with the wrong abort signature (broken)", .rseq = 1,
	    .aborts = 1, .versus = "counter-getcpu-atomic", .path = lab_st_rseq_path,
	    .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&wrong_sig);
