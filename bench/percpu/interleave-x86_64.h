/* SPDX-License-Identifier: MIT */
/* The interleaving check on x86-64: registers, the trap the child stops at, the return of the
 * operation, and which stores are atomic (they may touch another CPU's slot). */
#ifndef LAB_INTERLEAVE_X86_64_H
#define LAB_INTERLEAVE_X86_64_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>

#define LAB_IL_ARCH "x86_64"
#define LAB_IL_TRAP() __asm__ volatile("int3" ::: "memory")

struct lab_il_regs {
	uint64_t pc, sp;
};

static inline int lab_il_get(pid_t tid, struct lab_il_regs *r)
{
	struct user_regs_struct u;

	if (ptrace(PTRACE_GETREGS, tid, NULL, &u))
		return -1;
	r->pc = u.rip;
	r->sp = u.rsp;
	return 0;
}

/* int3 leaves the pc after itself: nothing to skip. */
static inline int lab_il_skip_trap(pid_t tid)
{
	(void)tid;
	return 0;
}

/* At the operation's first instruction: the address it returns to, and the stack pointer
 * once it has returned (the call pushed the return address). */
static inline int lab_il_entry(pid_t tid, const struct lab_il_regs *r, uint64_t *ret,
			       uint64_t *sp_after)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)r->sp, NULL);
	if (errno)
		return -1;
	*ret = (uint64_t)v;
	*sp_after = r->sp + 8;
	return 0;
}

/* 1 when the instruction starting at b is atomic: lock-prefixed, or xchg with memory (locked
 * without the prefix). Legacy prefixes come first, then REX, then the opcode. */
static inline int lab_il_atomic(const uint8_t *b, size_t n)
{
	size_t i = 0;

	for (; i < n; i++) {
		if (b[i] == 0xf0)
			return 1;
		if (b[i] != 0x66 && b[i] != 0x67 && b[i] != 0xf2 && b[i] != 0xf3 &&
		    b[i] != 0x2e && b[i] != 0x36 && b[i] != 0x3e && b[i] != 0x26 &&
		    b[i] != 0x64 && b[i] != 0x65)
			break;
	}
	if (i < n && (b[i] & 0xf0) == 0x40)
		i++;
	return i + 1 < n && (b[i] == 0x86 || b[i] == 0x87) && (b[i + 1] >> 6) != 3;
}

#endif
