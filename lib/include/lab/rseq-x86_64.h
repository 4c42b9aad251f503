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

#if !defined(LAB_RSEQ_CS_H)
#error "include lab/rseq-cs.h, which picks this file"
#endif
#if !defined(__x86_64__)
#error "lab/rseq-x86_64.h is x86-64 only"
#endif

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

/* Registers every critical section uses besides its operands. */
#define LAB_RSEQ_CS_CLOBBERS "rax"

/* getpid (eax = 39, syscall; rcx and r11 are the instruction's). */
#define LAB_RSEQ_SYSCALL_BODY "movl $39, %%eax\n\tsyscall\n\t"
#define LAB_RSEQ_SYSCALL_CLOBBERS "rcx", "r11"

/* The interrupted program counter in a signal handler's context. */
static inline unsigned long lab_uc_pc(void *ctx)
{
	return (unsigned long)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
}

#endif
