/* SPDX-License-Identifier: MIT */
/*
 * lab-nosys-rseq CMD [ARG...]: run CMD, and everything it forks, clones and execs, as user
 * space sees a CONFIG_RSEQ=n kernel: every rseq(2) call fails with ENOSYS and does nothing.
 * The lab's kernels have no seccomp (tinyconfig), so this is a ptrace tracer: at each system
 * call's entry stop (PTRACE_GET_SYSCALL_INFO) an rseq call has its number set to -1, which the
 * kernel skips, and its return register set to -ENOSYS (nosys-ARCH.h: the registers are the
 * architecture's). glibc's own registration at start-up is refused too, so glibc runs without
 * rseq (__rseq_size 0) as on such a kernel. Exits as CMD did (128 + signal if killed); 125 if
 * tracing fails. Labelled "RSEQ=n as user space sees it (ptrace ENOSYS)" wherever it is used:
 * it tests the user-space side of RSEQ=n, not a kernel built without rseq.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__)
#include "nosys-x86_64.h"
#elif defined(__aarch64__)
#include "nosys-arm64.h"
#elif defined(__arm__)
#include "nosys-arm.h"
#else
#error "lab-nosys-rseq: no register access for this architecture (x86_64, arm64, arm)"
#endif

/* Tracees seen so far: a new one's first stop is the SIGSTOP ptrace starts it with. */
static pid_t *seen;
static size_t nseen, cap;

static int is_new(pid_t pid)
{
	size_t i;

	for (i = 0; i < nseen; i++)
		if (seen[i] == pid)
			return 0;
	if (nseen == cap) {
		cap = cap ? 2 * cap : 64;
		seen = realloc(seen, cap * sizeof(*seen));
		if (!seen) {
			perror("lab-nosys-rseq: realloc");
			exit(125);
		}
	}
	seen[nseen++] = pid;
	return 1;
}

/* At a syscall stop: make an rseq call fail with ENOSYS before it runs. */
static void syscall_stop(pid_t pid, unsigned long *refused)
{
	struct __ptrace_syscall_info info;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) <= 0)
		return;
	if (info.op != PTRACE_SYSCALL_INFO_ENTRY || info.entry.nr != __NR_rseq)
		return;
	if (nosys_skip(pid)) {
		fprintf(stderr, "lab-nosys-rseq: cannot refuse rseq in %d: %s\n", (int)pid,
			strerror(errno));
		exit(125);
	}
	(*refused)++;
}

int main(int argc, char **argv)
{
	unsigned long refused = 0;
	int status, result = 125;
	pid_t child, pid;

	if (argc < 2) {
		fprintf(stderr, "usage: lab-nosys-rseq CMD [ARG...]\n");
		return 2;
	}
	child = fork();
	if (child < 0) {
		perror("lab-nosys-rseq: fork");
		return 125;
	}
	if (child == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL)) {
			perror("lab-nosys-rseq: PTRACE_TRACEME");
			_exit(125);
		}
		raise(SIGSTOP);
		execvp(argv[1], argv + 1);
		fprintf(stderr, "lab-nosys-rseq: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status)) {
		fprintf(stderr, "lab-nosys-rseq: the child did not stop for tracing\n");
		return 125;
	}
	is_new(child);
	if (ptrace(PTRACE_SETOPTIONS, child, NULL,
		   (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
				  PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)) ||
	    ptrace(PTRACE_SYSCALL, child, NULL, NULL)) {
		perror("lab-nosys-rseq: ptrace");
		return 125;
	}
	/* Every tracee until none is left; CMD's own status is the answer. */
	while ((pid = waitpid(-1, &status, __WALL)) > 0) {
		siginfo_t si;
		int sig = 0;

		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (pid == child)
				result = WIFEXITED(status) ? WEXITSTATUS(status)
							   : 128 + WTERMSIG(status);
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		if (WSTOPSIG(status) == (SIGTRAP | 0x80))
			syscall_stop(pid, &refused);
		else if (status >> 16)
			; /* fork, clone, exec events: nothing to pass on */
		else if (WSTOPSIG(status) == SIGSTOP && is_new(pid))
			; /* a new tracee's first stop */
		else if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) == 0)
			sig = WSTOPSIG(status); /* a signal on its way: deliver it */
		/* else a group stop (no siginfo): resume without a signal, as strace does */
		/* A tracee may be gone (killed) between its stop and this. */
		ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig);
	}
	if (getenv("LAB_NOSYS_VERBOSE"))
		fprintf(stderr, "lab-nosys-rseq: %lu rseq call(s) refused\n", refused);
	return result;
}
