/* SPDX-License-Identifier: MIT */
/*
 * arm64 rseq critical sections for the ABI tests (lab/rseq-cs.h picks this file on arm64): the
 * same functions, behaviour and descriptor layout as lab/rseq-x86_64.h, which explains them.
 * Descriptor {u32 version, u32 flags, u64 start_ip, u64 post_commit_offset, u64 abort_ip}; its
 * address goes to rseq->rseq_cs before start_ip; the word before abort_ip is the signature.
 */
#ifndef LAB_RSEQ_ARM64_H
#define LAB_RSEQ_ARM64_H

#include <stddef.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "lab/rseq-abi.h"

#if !defined(LAB_RSEQ_CS_H)
#error "include lab/rseq-cs.h, which picks this file"
#endif
#if !defined(__aarch64__)
#error "lab/rseq-arm64.h is arm64 only"
#endif

/* Labels as on x86_64: 1 start_ip, 5 spin loop, 2 post-commit ip, 4 abort ip (own section). */
#define LAB_RSEQ_CS_ASM(SIG, ABORT, BODY)                                               \
	".pushsection .data.lab_rseq_cs, \"aw\"\n\t"                                    \
	".balign 32\n"                                                                  \
	"3:\n\t"                                                                        \
	".long 0, 0\n\t"                                                                \
	".quad 1f, (2f - 1f), " ABORT "\n\t"                                            \
	".popsection\n\t"                                                               \
	"adrp x9, 3b\n\t"                                                               \
	"add x9, x9, :lo12:3b\n\t"                                                      \
	"str x9, [%[area], %[cs_off]]\n"                                                \
	"1:\n\t"                                                                        \
	"mov w10, #1\n\t"                                                               \
	"str w10, [%[in_cs]]\n\t"                                                       \
	BODY                                                                            \
	"5:\n\t"                                                                        \
	"ldr w10, [%[stop]]\n\t"                                                        \
	"cbnz w10, 2f\n\t"                                                              \
	"subs %[limit], %[limit], #1\n\t"                                               \
	"b.ne 5b\n"                                                                     \
	"2:\n\t"                                                                        \
	"mov %w[ret], #" LAB_STR(LAB_CS_COMMITTED) "\n\t"                               \
	"cbnz %[limit], 9f\n\t"                                                         \
	"mov %w[ret], #" LAB_STR(LAB_CS_TIMEOUT) "\n\t"                                 \
	"b 9f\n\t"                                                                      \
	".pushsection .text.lab_rseq_abort, \"ax\"\n\t"                                 \
	".long " SIG "\n"                                                               \
	"4:\n\t"                                                                        \
	"mov %w[ret], #" LAB_STR(LAB_CS_ABORTED) "\n\t"                                 \
	"adr %[aip], 4b\n\t"                                                            \
	"b 9f\n\t"                                                                      \
	".popsection\n"                                                                 \
	"9:\n\t"

/* Registers every critical section uses besides its operands. */
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
