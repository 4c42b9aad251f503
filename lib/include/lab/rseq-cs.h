/* SPDX-License-Identifier: MIT */
/*
 * The ABI tests' rseq critical sections (lab_rseq_spin, lab_rseq_spin_badsig,
 * lab_rseq_spin_abort_in_cs, lab_rseq_syscall_in_cs, LAB_CS_*) and lab_uc_pc(ctx), the
 * interrupted program counter of a signal context: one section written here on the
 * template of lab/rseq-asm.h, each architecture's instructions in its lab/rseq-ARCH.h.
 */
#ifndef LAB_RSEQ_CS_H
#define LAB_RSEQ_CS_H

#include <stddef.h>

#include "lab/rseq-abi.h"

/* What a critical section returned (plain numbers: the asm text spells them). */
#define LAB_CS_COMMITTED 0
#define LAB_CS_ABORTED 1
#define LAB_CS_TIMEOUT 2

#include "lab/rseq-asm.h"

/*
 * The ABI tests' section, from the template (lab/rseq-asm.h) and each architecture's steps:
 * LAB_RSEQ_ASM_SET_IN_CS (*in_cs = 1), LAB_RSEQ_ASM_SPIN (label 5: leave for 2f when *stop,
 * else count limit down and loop), LAB_RSEQ_ASM_RESULT (ret = COMMITTED, or TIMEOUT when
 * limit ran out; on to 9f), LAB_RSEQ_ASM_ABORTED (ret = ABORTED, aip = the handler; on to 9f),
 * with LAB_RSEQ_CS_CLOBBERS (the store's scratch registers among them); the getpid body LAB_RSEQ_SYSCALL_BODY with its
 * LAB_RSEQ_SYSCALL_CLOBBERS; and lab_uc_pc(). SIG is the signature word before the handler;
 * ABORT the label the descriptor names as abort_ip (4f normally, 5f to put it inside the
 * section); BODY instructions run once at the start of the section.
 */
#define LAB_RSEQ_CS_ASM(SIG, ABORT, BODY)                                               \
	LAB_RSEQ_ASM_DESCRIPTOR(".data.lab_rseq_cs", "1f", "(2f - 1f)", ABORT)          \
	LAB_RSEQ_ASM_STORE_CS("3b")                                                     \
	"1:\n\t"                                                                        \
	LAB_RSEQ_ASM_SET_IN_CS                                                          \
	BODY                                                                            \
	"5:\n\t"                                                                        \
	LAB_RSEQ_ASM_SPIN                                                               \
	"2:\n\t"                                                                        \
	LAB_RSEQ_ASM_RESULT                                                             \
	LAB_RSEQ_ASM_ABORT_ENTRY(".text.lab_rseq_abort", SIG)                           \
	LAB_RSEQ_ASM_ABORTED                                                            \
	".popsection\n"                                                                 \
	"9:\n\t"

#define LAB_RSEQ_CS_OPERANDS                                                             \
	: [ret] "=&r"(ret), [limit] "+r"(limit), [aip] "+r"(aip)                         \
	: [area] "r"(area), [stop] "r"(stop), [in_cs] "r"(in_cs),                        \
	  [cs_off] "i"(offsetof(struct rseq, rseq_cs))

/* Define a critical-section function NAME(area, stop, in_cs, limit, abort_ip) from the body. */
#define LAB_RSEQ_CS_FN(NAME, SIG, ABORT, BODY, ...)                                      \
	static inline int NAME(struct rseq *area, volatile int *stop, volatile int *in_cs, \
			       unsigned long limit, unsigned long *abort_ip)               \
	{                                                                                \
		unsigned long aip = 0;                                                   \
		int ret;                                                                 \
                                                                                         \
		__asm__ __volatile__(LAB_RSEQ_CS_ASM(SIG, ABORT, BODY)                   \
				     LAB_RSEQ_CS_OPERANDS                                \
				     : LAB_RSEQ_CS_CLOBBERS, "memory", "cc", ##__VA_ARGS__); \
		if (abort_ip)                                                            \
			*abort_ip = aip;                                                 \
		return ret;                                                              \
	}

/*
 * lab_rseq_spin: the well-formed critical section. Sets *in_cs on entry, then spins until
 * *stop or limit iterations. Returns COMMITTED if it left through the end, ABORTED if the
 * kernel sent it to the abort handler (and the handler's address in *abort_ip, if given),
 * TIMEOUT if the limit ran out.
 */
LAB_RSEQ_CS_FN(lab_rseq_spin, LAB_STR(LAB_RSEQ_SIG), "4f", "")

/* The same, but the word before the abort handler is not the registered signature. */
LAB_RSEQ_CS_FN(lab_rseq_spin_badsig, "0x53053052", "4f", "")

/* The same, but the descriptor's abort_ip points inside the critical section (at the loop). */
LAB_RSEQ_CS_FN(lab_rseq_spin_abort_in_cs, LAB_STR(LAB_RSEQ_SIG), "5f", "")

/* A getpid system call made inside the critical section, which DEBUG_RSEQ kernels punish. */
LAB_RSEQ_CS_FN(lab_rseq_syscall_in_cs, LAB_STR(LAB_RSEQ_SIG), "4f", LAB_RSEQ_SYSCALL_BODY,
	       LAB_RSEQ_SYSCALL_CLOBBERS)

#endif
