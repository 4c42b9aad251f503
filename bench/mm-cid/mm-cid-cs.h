/* SPDX-License-Identifier: MIT */
/*
 * x86-64 rseq critical sections indexed by a field of the rseq area read inside the section:
 * cpu_id (per-CPU data) or mm_cid (per-concurrency-ID data, librseq's mm_cid templates' idea).
 * The index cannot change before the commit: any preemption, migration or signal in between
 * sends the thread to the abort handler, which retries. Each section's descriptor is in
 * __rseq_cs; the signature word precedes the abort handler (in __rseq_failure).
 */
#ifndef MM_CID_CS_H
#define MM_CID_CS_H

#include <stdint.h>
#include <sys/rseq.h>

#include "lab/cacheline.h"
#include "mm-cid-area.h"

#if !defined(__x86_64__)
#error "mm-cid's critical sections are x86-64 only"
#endif

#define MC_STR_(x) #x
#define MC_STR(x) MC_STR_(x)

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
			".pushsection __rseq_cs, \"aw\"\n\t"
			".balign 32\n\t"
			"3: .long 0, 0\n\t"
			".quad 1f, (2f - 1f), 4f\n\t"
			".popsection\n\t"
			"leaq 3b(%%rip), %%rax\n\t"
			"movq %%rax, 8(%[area])\n\t"
			"1: movl (%[area], %[off], 1), %%ecx\n\t"
			"shlq $7, %%rcx\n\t"
			"addq $1, (%[base], %%rcx, 1)\n\t"
			"2:\n\t"
			".pushsection __rseq_failure, \"ax\"\n\t"
			".byte 0x0f, 0xb9, 0x3d\n\t"
			".long " MC_STR(RSEQ_SIG) "\n\t"
			"4: jmp %l[abort]\n\t"
			".popsection\n\t"
			:
			: [area] "r"(area), [off] "r"(off), [base] "r"(base)
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
			".pushsection __rseq_cs, \"aw\"\n\t"
			".balign 32\n\t"
			"3: .long 0, 0\n\t"
			".quad 1f, (2f - 1f), 4f\n\t"
			".popsection\n\t"
			"leaq 3b(%%rip), %%rax\n\t"
			"movq %%rax, 8(%[area])\n\t"
			"1: movl (%[area], %[off], 1), %%ecx\n\t"
			"shlq $7, %%rcx\n\t"
			"addq %[base], %%rcx\n\t"
			"movq (%%rcx), %%rax\n\t"
			"movq %%rax, (%[node])\n\t"
			"movq %[node], (%%rcx)\n\t"
			"2:\n\t"
			".pushsection __rseq_failure, \"ax\"\n\t"
			".byte 0x0f, 0xb9, 0x3d\n\t"
			".long " MC_STR(RSEQ_SIG) "\n\t"
			"4: jmp %l[abort]\n\t"
			".popsection\n\t"
			:
			: [area] "r"(area), [off] "r"(off), [base] "r"(base), [node] "r"(node)
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
			".pushsection __rseq_cs, \"aw\"\n\t"
			".balign 32\n\t"
			"3: .long 0, 0\n\t"
			".quad 1f, (2f - 1f), 4f\n\t"
			".popsection\n\t"
			"leaq 3b(%%rip), %%rax\n\t"
			"movq %%rax, 8(%[area])\n\t"
			"1: movl (%[area], %[off], 1), %%ecx\n\t"
			"shlq $7, %%rcx\n\t"
			"addq %[base], %%rcx\n\t"
			"movq (%%rcx), %%rax\n\t"
			"testq %%rax, %%rax\n\t"
			"jz 2f\n\t"
			"movq (%%rax), %%rdx\n\t"
			"movq %%rdx, (%%rcx)\n\t"
			"2:\n\t"
			"movq %%rax, %[out]\n\t"
			".pushsection __rseq_failure, \"ax\"\n\t"
			".byte 0x0f, 0xb9, 0x3d\n\t"
			".long " MC_STR(RSEQ_SIG) "\n\t"
			"4: jmp %l[abort]\n\t"
			".popsection\n\t"
			: [out] "=m"(head)
			: [area] "r"(area), [off] "r"(off), [base] "r"(base)
			: "memory", "cc", "rax", "rcx", "rdx"
			: abort);
		return head;
abort:
		(*aborts)++;
	}
}

#endif
