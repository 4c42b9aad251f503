/* SPDX-License-Identifier: MIT */
/* lab-nosys-rseq on 32-bit ARM: PTRACE_SET_SYSCALL -1 skips the call, and r0 (set first: a
 * skipped call leaves it as it is) is what it returns. */
#include <sys/user.h>

static int nosys_skip(pid_t pid)
{
	struct user_regs r;

	if (ptrace(PTRACE_GETREGS, pid, NULL, &r))
		return -1;
	r.uregs[0] = (unsigned long)-ENOSYS;
	if (ptrace(PTRACE_SETREGS, pid, NULL, &r))
		return -1;
	return ptrace(PTRACE_SET_SYSCALL, pid, NULL, (void *)-1L) ? -1 : 0;
}
