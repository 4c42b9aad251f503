/* SPDX-License-Identifier: MIT */
/*
 * x86-64 rseq critical sections indexed by a field of the rseq area read inside the section:
 * cpu_id (per-CPU data) or mm_cid (per-concurrency-ID data, librseq's mm_cid templates' idea).
 * The index cannot change before the commit: any preemption, migration or signal in between
 * sends the thread to the abort handler, which retries. Each is the lab's template
 * (lab/rseq-asm.h: its descriptor in __rseq_cs, the signature and the abort handler in
 * __rseq_failure) around the operation's own instructions.
 */
#ifndef MM_CID_CS_H
#define MM_CID_CS_H

#include <stdint.h>
#include <sys/rseq.h>

#include "lab/cacheline.h"
#include "lab/rseq-asm.h"
#include "mm-cid-area.h"

#if !defined(__x86_64__)
#error "mm-cid's critical sections are x86-64 only"
#endif

/* A section's start: its descriptor, its address stored in the area, start_ip (label 1). */
#define MC_CS_BEGIN                                                                      \
	LAB_RSEQ_ASM_DESCRIPTOR("__rseq_cs", "1f", "(2f - 1f)", "4f")                   \
	LAB_RSEQ_ASM_STORE_CS("3b")                                                     \
	"1:\n\t"
/* Its abort handler: back to the C code's label abort. */
#define MC_CS_ABORT                                                                      \
	LAB_RSEQ_ASM_ABORT_ENTRY("__rseq_failure", LAB_STR(RSEQ_SIG))                   \
	"jmp %l[abort]\n\t"                                                             \
	".popsection\n\t"
/* The slot of the index in %ecx: base + index << the line's shift. */
#define MC_SLOT_SHIFT "shlq $" LAB_STR(LAB_CACHE_LINE_SHIFT) ", %%rcx\n\t"
#define MC_CS_OFF [cs_off] "i"(offsetof(struct mc_rseq, rseq_cs))

/* Slots are lines of their own (LAB_CACHE_LINE bytes). */

struct mc_node {
	struct mc_node *next;
};

/*
 * counter[index] += 1, index = *(u32 *)(area + off), the slot LAB_CACHE_LINE bytes wide; counts
 * aborts. The commit is the one add instruction: it ran, or the section was aborted before it.
 */
static inline void mc_inc(volatile struct mc_rseq *area, unsigned long off, char *base,
			  uint64_t *aborts)
{
	for (;;) {
		__asm__ __volatile__ goto(
			MC_CS_BEGIN
			"movl (%[area], %[off], 1), %%ecx\n\t"
			MC_SLOT_SHIFT
			"addq $1, (%[base], %%rcx, 1)\n\t"
			"2:\n\t"
			MC_CS_ABORT
			:
			: [area] "r"(area), [off] "r"(off), [base] "r"(base), MC_CS_OFF
			: "memory", "cc", "rax", "rcx"
			: abort);
		return;
abort:
		(*aborts)++;
	}
}

/* Push NODE onto list[index]: node->next = head, then the commit: head = node. */
static inline void mc_push(volatile struct mc_rseq *area, unsigned long off, char *base,
			   struct mc_node *node, uint64_t *aborts)
{
	for (;;) {
		__asm__ __volatile__ goto(
			MC_CS_BEGIN
			"movl (%[area], %[off], 1), %%ecx\n\t"
			MC_SLOT_SHIFT
			"addq %[base], %%rcx\n\t"
			"movq (%%rcx), %%rax\n\t"
			"movq %%rax, (%[node])\n\t"
			"movq %[node], (%%rcx)\n\t"
			"2:\n\t"
			MC_CS_ABORT
			:
			: [area] "r"(area), [off] "r"(off), [base] "r"(base), [node] "r"(node), MC_CS_OFF
			: "memory", "cc", "rax", "rcx"
			: abort);
		return;
abort:
		(*aborts)++;
	}
}

/* Pop the head of list[index]: NULL when that list is empty. */
static inline struct mc_node *mc_pop(volatile struct mc_rseq *area, unsigned long off,
				     char *base, uint64_t *aborts)
{
	struct mc_node *head;

	for (;;) {
		__asm__ __volatile__ goto(
			MC_CS_BEGIN
			"movl (%[area], %[off], 1), %%ecx\n\t"
			MC_SLOT_SHIFT
			"addq %[base], %%rcx\n\t"
			"movq (%%rcx), %%rax\n\t"
			"testq %%rax, %%rax\n\t"
			"jz 2f\n\t"
			"movq (%%rax), %%rdx\n\t"
			"movq %%rdx, (%%rcx)\n\t"
			"2:\n\t"
			"movq %%rax, %[out]\n\t"
			MC_CS_ABORT
			: [out] "=m"(head)
			: [area] "r"(area), [off] "r"(off), [base] "r"(base), MC_CS_OFF
			: "memory", "cc", "rax", "rcx", "rdx"
			: abort);
		return head;
abort:
		(*aborts)++;
	}
}

#endif
