/* SPDX-License-Identifier: MIT */
/*
 * The rseq critical-section template, written once: what the kernel reads of a section and
 * where the lab puts it. A section is
 *   - its descriptor {u32 version 0, u32 flags 0, u64 start_ip, u64 post_commit_offset,
 *     u64 abort_ip} in a data section (LAB_RSEQ_ASM_DESCRIPTOR, label 3),
 *   - its address stored in the area's rseq_cs before start_ip (LAB_RSEQ_ASM_STORE_CS("3b"),
 *     with the operands [area] and [cs_off]),
 *   - start_ip at label 1, the post-commit ip at label 2,
 *   - its abort handler at label 4, in a text section of its own so that straight-line code
 *     never falls into it, right after the signature word (LAB_RSEQ_ASM_ABORT_ENTRY).
 * Each architecture's file (lab/rseq-ARCH.h, picked here by the compiler's target) gives only
 * its instructions for these steps, as librseq's per-arch "bits" do: LAB_RSEQ_ASM_U64(x) (a
 * 64-bit word in the descriptor), LAB_RSEQ_ASM_SIG(sig) (the signature before the handler),
 * LAB_RSEQ_ASM_STORE_CS(label) and its scratch registers LAB_RSEQ_ASM_STORE_CLOBBERS, and the
 * ABI tests' steps (lab/rseq-cs.h).
 */
#ifndef LAB_RSEQ_ASM_H
#define LAB_RSEQ_ASM_H

#define LAB_STR_(x) #x
#define LAB_STR(x) LAB_STR_(x)

#if defined(__x86_64__)
#include "lab/rseq-x86_64.h"
#elif defined(__aarch64__)
#include "lab/rseq-arm64.h"
#elif defined(__arm__)
#include "lab/rseq-arm.h"
#else
#error "lab/rseq-asm.h: no rseq critical sections for this architecture (x86_64, arm64, arm)"
#endif

/* The descriptor (label 3) in SECTION: start_ip, post_commit_offset, abort_ip as written. */
#define LAB_RSEQ_ASM_DESCRIPTOR(SECTION, START, POST_COMMIT_OFFSET, ABORT)               \
	".pushsection " SECTION ", \"aw\"\n\t"                                          \
	".balign 32\n"                                                                  \
	"3:\n\t"                                                                        \
	".long 0, 0\n\t"                                                                \
	LAB_RSEQ_ASM_U64(START) "\n\t"                                                  \
	LAB_RSEQ_ASM_U64(POST_COMMIT_OFFSET) "\n\t"                                     \
	LAB_RSEQ_ASM_U64(ABORT) "\n\t"                                                  \
	".popsection\n\t"

/* The abort handler's entry (label 4) in SECTION, after the signature SIG; the caller writes
 * the handler's instructions and ".popsection". */
#define LAB_RSEQ_ASM_ABORT_ENTRY(SECTION, SIG)                                           \
	".pushsection " SECTION ", \"ax\"\n\t"                                          \
	LAB_RSEQ_ASM_SIG(SIG) "\n"                                                      \
	"4:\n\t"

#endif
