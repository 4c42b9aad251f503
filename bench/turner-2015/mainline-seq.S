/* SPDX-License-Identifier: MIT */
/*
 * The same per-CPU operations with mainline rseq(2), for the side-by-side rows: each
 * function takes the thread's struct rseq (glibc's registration) as its last argument,
 * publishes its own critical-section descriptor, and has its own abort handler preceded by
 * the signature glibc registered (RSEQ_SIG, 0x53053053 on x86).
 * struct rseq: cpu_id at 4, rseq_cs at 8. struct rseq_cs: version, flags (u32), start_ip,
 * post_commit_offset, abort_ip (u64), 32-byte aligned.
 */

	.section .tbss,"awT",@nobits
	.balign 8
	.globl mainline_aborts
	.type mainline_aborts, @object
	.size mainline_aborts, 8
mainline_aborts:
	.zero 8

/* CS name: the descriptor of sequence name (labels .Lname_start/_post/_abort). */
#define CS(name) \
	.section .data.rel.ro,"aw"; .balign 32; .L##name##_cs: \
	.long 0, 0; .quad .L##name##_start, .L##name##_post - .L##name##_start, .L##name##_abort; \
	.text
#define ABORT(name) \
	.long 0x53053053; \
.L##name##_abort: \
	incq %fs:mainline_aborts@tpoff; \
	jmp name

	.text
/* mainline_counter_inc(slots, rs): slots[rs->cpu_id] += 1 */
	.globl mainline_counter_inc
	.type mainline_counter_inc, @function
mainline_counter_inc:
	leaq .Lmainline_counter_inc_cs(%rip), %rax
	movq %rax, 8(%rsi)
.Lmainline_counter_inc_start:
	movl 4(%rsi), %eax
	shlq $6, %rax
	incq (%rdi,%rax)
.Lmainline_counter_inc_post:
	ret
	ABORT(mainline_counter_inc)
	CS(mainline_counter_inc)

/* mainline_list_push(heads, n, rs) */
	.globl mainline_list_push
	.type mainline_list_push, @function
mainline_list_push:
	leaq .Lmainline_list_push_cs(%rip), %rax
	movq %rax, 8(%rdx)
.Lmainline_list_push_start:
	movl 4(%rdx), %eax
	shlq $6, %rax
	movq (%rdi,%rax), %rcx
	movq %rcx, (%rsi)
	movq %rsi, (%rdi,%rax)
.Lmainline_list_push_post:
	ret
	ABORT(mainline_list_push)
	CS(mainline_list_push)

/* mainline_list_pop(heads, rs) */
	.globl mainline_list_pop
	.type mainline_list_pop, @function
mainline_list_pop:
	leaq .Lmainline_list_pop_cs(%rip), %rax
	movq %rax, 8(%rsi)
.Lmainline_list_pop_start:
	movl 4(%rsi), %ecx
	shlq $6, %rcx
	movq (%rdi,%rcx), %rax
	testq %rax, %rax
	jz .Lmainline_list_pop_post
	movq (%rax), %rdx
	movq %rdx, (%rdi,%rcx)
.Lmainline_list_pop_post:
	ret
	ABORT(mainline_list_pop)
	CS(mainline_list_pop)

	.section .note.GNU-stack,"",@progbits
