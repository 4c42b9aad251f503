/* SPDX-License-Identifier: MIT */
/*
 * x86-64's instructions for the rseq critical-section template (lab/rseq-asm.h, which picks
 * this file): the descriptor's words, the signature, storing the descriptor's address, and
 * the ABI tests' steps (lab/rseq-cs.h), each of which spins inside its section until *stop is
 * set or the loop limit runs out, so that the test decides what interrupts it.
 */
#ifndef LAB_RSEQ_X86_64_H
#define LAB_RSEQ_X86_64_H

#include <stddef.h>
#include <ucontext.h>

#include "lab/rseq-abi.h"

#if !defined(LAB_RSEQ_ASM_H)
#error "include lab/rseq-asm.h (or lab/rseq-cs.h), which picks this file"
#endif
#if !defined(__x86_64__)
#error "lab/rseq-x86_64.h is x86-64 only"
#endif

/* The template's steps (lab/rseq-asm.h). The signature follows a ud1 opcode's first bytes,
 * as the kernel selftests write it, so that a disassembler sees no stray instruction. */
#define LAB_RSEQ_ASM_U64(x) ".quad " x
#define LAB_RSEQ_ASM_SIG(sig) ".byte 0x0f, 0xb9, 0x3d\n\t.long " sig
#define LAB_RSEQ_ASM_STORE_CS(L)                                                         \
	"leaq " L "(%%rip), %%rax\n\t"                                                   \
	"movq %%rax, %c[cs_off](%[area])\n"
#define LAB_RSEQ_ASM_STORE_CLOBBERS "rax"

/* The ABI tests' steps (lab/rseq-cs.h). */
#define LAB_RSEQ_ASM_SET_IN_CS "movl $1, (%[in_cs])\n\t"
#define LAB_RSEQ_ASM_SPIN                                                                \
	"cmpl $0, (%[stop])\n\t"                                                         \
	"jne 2f\n\t"                                                                     \
	"subq $1, %[limit]\n\t"                                                          \
	"jnz 5b\n"
#define LAB_RSEQ_ASM_RESULT                                                              \
	"movl $" LAB_STR(LAB_CS_COMMITTED) ", %[ret]\n\t"                                \
	"cmpq $0, %[limit]\n\t"                                                          \
	"jne 9f\n\t"                                                                     \
	"movl $" LAB_STR(LAB_CS_TIMEOUT) ", %[ret]\n\t"                                  \
	"jmp 9f\n\t"
#define LAB_RSEQ_ASM_ABORTED                                                             \
	"movl $" LAB_STR(LAB_CS_ABORTED) ", %[ret]\n\t"                                  \
	"leaq 4b(%%rip), %[aip]\n\t"                                                     \
	"jmp 9f\n\t"

/* Registers the ABI tests' sections use besides their operands (the store's among them). */
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
