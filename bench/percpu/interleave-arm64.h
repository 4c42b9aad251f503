/* SPDX-License-Identifier: MIT */
/* The interleaving check on arm64: registers, the trap the child stops at, the return of the
 * operation, and which stores are atomic (they may touch another CPU's slot). */
#ifndef LAB_INTERLEAVE_ARM64_H
#define LAB_INTERLEAVE_ARM64_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/user.h>

#define LAB_IL_ARCH "arm64"
#define LAB_IL_TRAP() __asm__ volatile("brk #0x1ab" ::: "memory")

struct lab_il_regs {
	uint64_t pc, sp, lr;
};

static inline int lab_il_regset(pid_t tid, struct user_regs_struct *u, int set)
{
	struct iovec io = { u, sizeof(*u) };

	return ptrace(set ? PTRACE_SETREGSET : PTRACE_GETREGSET, tid, (void *)NT_PRSTATUS, &io);
}

static inline int lab_il_get(pid_t tid, struct lab_il_regs *r)
{
	struct user_regs_struct u;

	if (lab_il_regset(tid, &u, 0))
		return -1;
	r->pc = u.pc;
	r->sp = u.sp;
	r->lr = u.regs[30];
	return 0;
}

/* brk leaves the pc on itself: step over it. */
static inline int lab_il_skip_trap(pid_t tid)
{
	struct user_regs_struct u;

	if (lab_il_regset(tid, &u, 0))
		return -1;
	u.pc += 4;
	return lab_il_regset(tid, &u, 1);
}

/* At the operation's first instruction: it returns to the link register, sp unchanged. */
static inline int lab_il_entry(pid_t tid, const struct lab_il_regs *r, uint64_t *ret,
			       uint64_t *sp_after)
{
	(void)tid;
	*ret = r->lr;
	*sp_after = r->sp;
	return 0;
}

/* 1 when the instruction is atomic: load/store exclusive or compare-and-swap (one encoding
 * group), or an LSE atomic memory operation (ldadd, swp, ...). */
static inline int lab_il_atomic(const uint8_t *b, size_t n)
{
	uint32_t insn;

	if (n < 4)
		return 0;
	insn = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return (insn & 0x3f000000) == 0x08000000 || (insn & 0x3b200c00) == 0x38200000;
}

#endif
