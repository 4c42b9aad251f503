/* SPDX-License-Identifier: MIT */
/*
 * 32-bit ARM's instructions (ARMv7, A32 or Thumb-2 as the compiler chooses; armhf's gcc
 * chooses Thumb-2) for the rseq critical-section template (lab/rseq-asm.h, which picks this
 * file): the same steps as lab/rseq-x86_64.h. The descriptor's u64 fields are a word and a
 * zero word each (little endian); rseq->rseq_cs gets the descriptor's address in its low word
 * (the area starts zeroed, so its high word is 0). The descriptor is in .data: its address is
 * built with movw/movt (adr reaches its own section only). Thumb code addresses carry no mode
 * bit in the descriptor or in a signal context's pc; the abort address read with adr is
 * masked the same way.
 */
#ifndef LAB_RSEQ_ARM_H
#define LAB_RSEQ_ARM_H

#include <stddef.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "lab/rseq-abi.h"

#if !defined(LAB_RSEQ_ASM_H)
#error "include lab/rseq-asm.h (or lab/rseq-cs.h), which picks this file"
#endif
#if !defined(__arm__) || defined(__ARMEB__)
#error "lab/rseq-arm.h is 32-bit little-endian ARM only"
#endif

/* The template's steps (lab/rseq-asm.h). */
#define LAB_RSEQ_ASM_U64(x) ".word " x ", 0"
#define LAB_RSEQ_ASM_SIG(sig) ".word " sig
#define LAB_RSEQ_ASM_STORE_CS(L)                                                         \
	"movw r2, #:lower16:" L "\n\t"                                                   \
	"movt r2, #:upper16:" L "\n\t"                                                   \
	"str r2, [%[area], %[cs_off]]\n"
#define LAB_RSEQ_ASM_STORE_CLOBBERS "r2"

/* The ABI tests' steps (lab/rseq-cs.h). */
#define LAB_RSEQ_ASM_SET_IN_CS                                                           \
	"mov r3, #1\n\t"                                                                 \
	"str r3, [%[in_cs]]\n\t"
#define LAB_RSEQ_ASM_SPIN                                                                \
	"ldr r3, [%[stop]]\n\t"                                                          \
	"cmp r3, #0\n\t"                                                                 \
	"bne 2f\n\t"                                                                     \
	"subs %[limit], %[limit], #1\n\t"                                                \
	"bne 5b\n"
#define LAB_RSEQ_ASM_RESULT                                                              \
	"mov %[ret], #" LAB_STR(LAB_CS_COMMITTED) "\n\t"                                 \
	"cmp %[limit], #0\n\t"                                                           \
	"bne 9f\n\t"                                                                     \
	"mov %[ret], #" LAB_STR(LAB_CS_TIMEOUT) "\n\t"                                   \
	"b 9f\n\t"
#define LAB_RSEQ_ASM_ABORTED                                                             \
	"mov %[ret], #" LAB_STR(LAB_CS_ABORTED) "\n\t"                                   \
	"adr %[aip], 4b\n\t"                                                             \
	"bic %[aip], %[aip], #1\n\t"                                                     \
	"b 9f\n\t"

/* Registers the ABI tests' sections use besides their operands (the store's among them). */
#define LAB_RSEQ_CS_CLOBBERS "r2", "r3"

/* getpid (r7 = the number, svc #0; r0 takes the result). r7 is Thumb's frame pointer, which
 * an asm may not clobber: it is saved around the call instead. */
#define LAB_RSEQ_SYSCALL_BODY "push {r7}\n\tmov r7, #" LAB_STR(__NR_getpid) "\n\tsvc #0\n\tpop {r7}\n\t"
#define LAB_RSEQ_SYSCALL_CLOBBERS "r0"

/* The interrupted program counter in a signal handler's context. */
static inline unsigned long lab_uc_pc(void *ctx)
{
	return (unsigned long)((ucontext_t *)ctx)->uc_mcontext.arm_pc;
}

#endif
