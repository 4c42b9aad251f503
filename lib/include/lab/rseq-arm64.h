/* SPDX-License-Identifier: MIT */
/*
 * arm64's instructions for the rseq critical-section template (lab/rseq-asm.h, which picks
 * this file): the same steps as lab/rseq-x86_64.h, which explains them.
 */
#ifndef LAB_RSEQ_ARM64_H
#define LAB_RSEQ_ARM64_H

#include <stddef.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "lab/rseq-abi.h"

#if !defined(LAB_RSEQ_ASM_H)
#error "include lab/rseq-asm.h (or lab/rseq-cs.h), which picks this file"
#endif
#if !defined(__aarch64__)
#error "lab/rseq-arm64.h is arm64 only"
#endif

/* The template's steps (lab/rseq-asm.h). */
#define LAB_RSEQ_ASM_U64(x) ".quad " x
#define LAB_RSEQ_ASM_SIG(sig) ".long " sig
#define LAB_RSEQ_ASM_STORE_CS(L)                                                         \
	"adrp x9, " L "\n\t"                                                             \
	"add x9, x9, :lo12:" L "\n\t"                                                    \
	"str x9, [%[area], %[cs_off]]\n"
#define LAB_RSEQ_ASM_STORE_CLOBBERS "x9"

/* The ABI tests' steps (lab/rseq-cs.h). */
#define LAB_RSEQ_ASM_SET_IN_CS                                                           \
	"mov w10, #1\n\t"                                                                \
	"str w10, [%[in_cs]]\n\t"
#define LAB_RSEQ_ASM_SPIN                                                                \
	"ldr w10, [%[stop]]\n\t"                                                         \
	"cbnz w10, 2f\n\t"                                                               \
	"subs %[limit], %[limit], #1\n\t"                                                \
	"b.ne 5b\n"
#define LAB_RSEQ_ASM_RESULT                                                              \
	"mov %w[ret], #" LAB_STR(LAB_CS_COMMITTED) "\n\t"                                \
	"cbnz %[limit], 9f\n\t"                                                          \
	"mov %w[ret], #" LAB_STR(LAB_CS_TIMEOUT) "\n\t"                                  \
	"b 9f\n\t"
#define LAB_RSEQ_ASM_ABORTED                                                             \
	"mov %w[ret], #" LAB_STR(LAB_CS_ABORTED) "\n\t"                                  \
	"adr %[aip], 4b\n\t"                                                             \
	"b 9f\n\t"

/* Registers the ABI tests' sections use besides their operands (the store's among them). */
#define LAB_RSEQ_CS_CLOBBERS "x9", "x10"

/* getpid (x8 = the number, svc #0; x0 takes the result). */
#define LAB_RSEQ_SYSCALL_BODY "mov x8, #" LAB_STR(__NR_getpid) "\n\tsvc #0\n\t"
#define LAB_RSEQ_SYSCALL_CLOBBERS "x0", "x8"

/* The interrupted program counter in a signal handler's context. */
static inline unsigned long lab_uc_pc(void *ctx)
{
	return (unsigned long)((ucontext_t *)ctx)->uc_mcontext.pc;
}

#endif
