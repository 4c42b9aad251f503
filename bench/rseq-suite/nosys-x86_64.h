/* SPDX-License-Identifier: MIT */
/* lab-nosys-rseq on x86_64: orig_rax -1 skips the call, rax is what it returns. */
#include <sys/user.h>

static int nosys_skip(pid_t pid)
{
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, pid, NULL, &r))
		return -1;
	r.orig_rax = -1;
	r.rax = -ENOSYS;
	return ptrace(PTRACE_SETREGS, pid, NULL, &r) ? -1 : 0;
}
