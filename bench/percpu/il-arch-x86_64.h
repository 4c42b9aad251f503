/* SPDX-License-Identifier: MIT */
/* The interleaving check on x86-64: a thread's registers as ptrace gives them, the trap the
 * child parks at, and what the model reads from the registers. */
#ifndef LAB_EX_ARCH_X86_64_H
#define LAB_EX_ARCH_X86_64_H

#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>

#define LAB_EX_ARCH "x86_64"
#define LAB_EX_TRAP() __asm__ volatile("int3" ::: "memory")

typedef struct user_regs_struct il_regs;

#define IL_PC(r) ((r)->rip)
#define IL_SP(r) ((r)->rsp)
/* Below the stack pointer, a leaf function may keep its locals (the ABI's red zone). */
#define IL_RED_ZONE 128
/* The syscall a thread is about to make, and its arguments. */
#define IL_SYSNR(r) ((r)->rax)
#define IL_ARG0(r) ((r)->rdi)
#define IL_ARG1(r) ((r)->rsi)
#define IL_ARG2(r) ((r)->rdx)

static inline int il_regs_get(pid_t tid, il_regs *r)
{
	return ptrace(PTRACE_GETREGS, tid, NULL, r) ? -1 : 0;
}

static inline int il_regs_set(pid_t tid, const il_regs *r)
{
	return ptrace(PTRACE_SETREGS, tid, NULL, (void *)r) ? -1 : 0;
}

/* What of the registers is the thread's state: everything but the kernel's bookkeeping
 * (orig_rax) and the flags single-stepping sets (TF, RF). */
static inline void il_regs_canon(const il_regs *r, il_regs *out)
{
	*out = *r;
	out->orig_rax = 0;
	out->eflags &= ~(uint64_t)0x10100;
}

/* The vector and x87 state, saved for a thread once it has used it. */
typedef struct user_fpregs_struct il_fpregs;

static inline int il_fpregs_get(pid_t tid, il_fpregs *f)
{
	return ptrace(PTRACE_GETFPREGS, tid, NULL, f) ? -1 : 0;
}

static inline int il_fpregs_set(pid_t tid, const il_fpregs *f)
{
	return ptrace(PTRACE_SETFPREGS, tid, NULL, (void *)f) ? -1 : 0;
}

#endif
