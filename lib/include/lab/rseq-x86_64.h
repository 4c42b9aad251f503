/* SPDX-License-Identifier: MIT */
/*
 * x86-64 rseq critical sections for the ABI tests. Each one spins inside the critical section
 * until *stop is set or the loop limit runs out, so that the test decides what interrupts it
 * (a signal, a preemption, a migration). The kernel's view of a critical section is:
 *   descriptor {version 0, flags 0, start_ip, post_commit_offset, abort_ip} in memory,
 *   its address stored in rseq->rseq_cs before start_ip, and a 4-byte signature word
 *   right before abort_ip that must equal the one given at registration.
 */
#ifndef LAB_RSEQ_X86_64_H
#define LAB_RSEQ_X86_64_H

#include <stddef.h>
#include <ucontext.h>

#include "lab/rseq-abi.h"

#if !defined(__x86_64__)
#error "lab/rseq-x86_64.h is x86-64 only"
#endif

/* What a critical section returned (plain numbers: the asm text spells them). */
#define LAB_CS_COMMITTED 0
#define LAB_CS_ABORTED 1
#define LAB_CS_TIMEOUT 2

#define LAB_STR_(x) #x
#define LAB_STR(x) LAB_STR_(x)

/*
 * The body shared by every variant. Labels: 1 start_ip, 5 spin loop, 2 post-commit ip,
 * 4 abort ip (in a separate section so that straight-line code never falls into it).
 * SIG is the signature word placed before label 4; ABORT the label the descriptor names
 * as abort_ip (4f normally, 5f to put it inside the critical section); BODY extra
 * instructions run once at the start of the critical section.
 */
#define LAB_RSEQ_CS_ASM(SIG, ABORT, BODY)                                               \
	".pushsection .data.lab_rseq_cs, \"aw\"\n\t"                                    \
	".balign 32\n"                                                                  \
	"3:\n\t"                                                                        \
	".long 0, 0\n\t"                                                                \
	".quad 1f, (2f - 1f), " ABORT "\n\t"                                            \
	".popsection\n\t"                                                               \
	"leaq 3b(%%rip), %%rax\n\t"                                                     \
	"movq %%rax, %c[cs_off](%[area])\n"                                             \
	"1:\n\t"                                                                        \
	"movl $1, (%[in_cs])\n\t"                                                       \
	BODY                                                                            \
	"5:\n\t"                                                                        \
	"cmpl $0, (%[stop])\n\t"                                                        \
	"jne 2f\n\t"                                                                    \
	"subq $1, %[limit]\n\t"                                                         \
	"jnz 5b\n"                                                                      \
	"2:\n\t"                                                                        \
	"movl $" LAB_STR(LAB_CS_COMMITTED) ", %[ret]\n\t"                               \
	"cmpq $0, %[limit]\n\t"                                                         \
	"jne 9f\n\t"                                                                    \
	"movl $" LAB_STR(LAB_CS_TIMEOUT) ", %[ret]\n\t"                                 \
	"jmp 9f\n\t"                                                                    \
	".pushsection .text.lab_rseq_abort, \"ax\"\n\t"                                 \
	".long " SIG "\n"                                                               \
	"4:\n\t"                                                                        \
	"movl $" LAB_STR(LAB_CS_ABORTED) ", %[ret]\n\t"                                 \
	"leaq 4b(%%rip), %[aip]\n\t"                                                    \
	"jmp 9f\n\t"                                                                    \
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
				     : "rax", "memory", "cc", ##__VA_ARGS__);            \
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
LAB_RSEQ_CS_FN(lab_rseq_syscall_in_cs, LAB_STR(LAB_RSEQ_SIG), "4f",
	       "movl $39, %%eax\n\tsyscall\n\t", "rcx", "r11")

/* The interrupted program counter in a signal handler's context. */
static inline unsigned long lab_uc_pc(void *ctx)
{
	return (unsigned long)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
}

#endif
