/* SPDX-License-Identifier: MIT */
/* lab-nosys-rseq on arm64: the NT_ARM_SYSTEM_CALL regset set to -1 skips the call, and x0 (set
 * first: a skipped call leaves it as it is) is what it returns. */
#include <elf.h>
#include <sys/uio.h>
#include <asm/ptrace.h>

static int nosys_skip(pid_t pid)
{
	struct user_pt_regs r;
	struct iovec io = { &r, sizeof(r) };
	int nr = -1;
	struct iovec ionr = { &nr, sizeof(nr) };

	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &io))
		return -1;
	r.regs[0] = (unsigned long long)-ENOSYS;
	if (ptrace(PTRACE_SETREGSET, pid, (void *)NT_PRSTATUS, &io))
		return -1;
	return ptrace(PTRACE_SETREGSET, pid, (void *)NT_ARM_SYSTEM_CALL, &ionr) ? -1 : 0;
}
