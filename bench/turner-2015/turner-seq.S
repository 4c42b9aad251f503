/* SPDX-License-Identifier: MIT */
/*
 * The process's one restartable region for the 2015 interface (see turner-abi.h for the
 * convention): every sequence in section turner_rseq, their table, and the restart handler,
 * which is in .text, outside the region, as the system call demands.
 */

	.section .tbss,"awT",@nobits
	.balign 8
	.globl turner_restarts, turner_resumes, turner_cpu
	.type turner_restarts, @object
	.size turner_restarts, 8
turner_restarts:
	.zero 8
	.type turner_resumes, @object
	.size turner_resumes, 8
turner_resumes:
	.zero 8
	.type turner_cpu, @object
	.size turner_cpu, 4
turner_cpu:
	.zero 4

/* SEQ name: a global function that is also its sequence's restart point. */
#define SEQ(name) .globl name; .type name, @function; name:
#define CPU_SLOT(reg32, reg64) movl %fs:turner_cpu@tpoff, reg32; shlq $6, reg64

	.section turner_rseq,"ax",@progbits
	.globl turner_region_start, turner_region_end
turner_region_start:

/* slots[cpu] += 1; the commit is one read-modify-write instruction. */
SEQ(turner_counter_inc)
	CPU_SLOT(%eax, %rax)
	incq (%rdi,%rax)
.Lcounter_inc_done:
	ret

/* slots[cpu] = slots[cpu] + 1 with spins of delay between the load and the store. */
SEQ(turner_counter_add_slow)
	CPU_SLOT(%eax, %rax)
	movq (%rdi,%rax), %rdx
	movq %rsi, %rcx
1:	testq %rcx, %rcx
	jz 2f
	pause
	decq %rcx
	jmp 1b
2:	incq %rdx
	movq %rdx, (%rdi,%rax)
.Lcounter_add_slow_done:
	ret

/* The article's push: n->next = heads[cpu]; heads[cpu] = n (the commit). */
SEQ(turner_list_push)
	CPU_SLOT(%eax, %rax)
	movq (%rdi,%rax), %rdx
	movq %rdx, (%rsi)
	movq %rsi, (%rdi,%rax)
.Llist_push_done:
	ret

/* n = heads[cpu]; if (n) heads[cpu] = n->next (the commit); return n. */
SEQ(turner_list_pop)
	CPU_SLOT(%ecx, %rcx)
	movq (%rdi,%rcx), %rax
	testq %rax, %rax
	jz 1f
	movq (%rax), %rdx
	movq %rdx, (%rdi,%rcx)
1:
.Llist_pop_done:
	ret

SEQ(turner_list_push_slow)
	CPU_SLOT(%eax, %rax)
	movq (%rdi,%rax), %r8
	movq %r8, (%rsi)
	movq %rdx, %rcx
1:	testq %rcx, %rcx
	jz 2f
	pause
	decq %rcx
	jmp 1b
2:	movq %rsi, (%rdi,%rax)
.Llist_push_slow_done:
	ret

SEQ(turner_list_pop_slow)
	CPU_SLOT(%ecx, %rcx)
	movq (%rdi,%rcx), %rax
	testq %rax, %rax
	jz 3f
	movq (%rax), %rdx
	movq %rsi, %r8
1:	testq %r8, %r8
	jz 2f
	pause
	decq %r8
	jmp 1b
2:	movq %rdx, (%rdi,%rcx)
3:
.Llist_pop_slow_done:
	ret

turner_region_end:

/* {restart point, end of commit} per sequence, in address order, then the region's end. */
	.section .rodata
	.balign 8
turner_seqtab:
	.quad turner_counter_inc, .Lcounter_inc_done
	.quad turner_counter_add_slow, .Lcounter_add_slow_done
	.quad turner_list_push, .Llist_push_done
	.quad turner_list_pop, .Llist_pop_done
	.quad turner_list_push_slow, .Llist_push_slow_done
	.quad turner_list_pop_slow, .Llist_pop_slow_done
	.quad turner_region_end, turner_region_end

/*
 * The handler. r10 holds the interrupted IP (inside the region); r11 and the flags are free:
 * no sequence keeps anything in them across a point where it can be interrupted.
 */
	.text
	.globl turner_restart
	.type turner_restart, @function
turner_restart:
	leaq turner_seqtab(%rip), %r11
1:	cmpq 16(%r11), %r10		/* the sequence holding r10: last start <= r10 */
	jb 2f
	addq $16, %r11
	jmp 1b
2:	cmpq 8(%r11), %r10
	jae 3f
	incq %fs:turner_restarts@tpoff
	jmpq *(%r11)
3:	incq %fs:turner_resumes@tpoff	/* committed already: finish the tail */
	jmpq *%r10
	.size turner_restart, .-turner_restart

/* A second library's region, which the kernel must refuse (EBUSY). */
	.section lib2_rseq,"ax",@progbits
	.globl lib2_region_start, lib2_region_end, lib2_restart
lib2_region_start:
	nop
lib2_region_end:
	.text
lib2_restart:
	ud2

	.section .note.GNU-stack,"",@progbits
