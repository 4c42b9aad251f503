/* SPDX-License-Identifier: MIT */
/*
 * rseq-syscall-cs: a system call made inside an rseq critical section. A CONFIG_DEBUG_RSEQ
 * kernel checks every syscall return and kills the process with SIGSEGV; any other kernel
 * lets it run on. The section runs in a child; the argument says which outcome to expect.
 * usage: rseq-syscall-cs killed|survives      (TAP on stdout)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab/rseq-test.h"
#include "lab/rseq-cs.h"
#include "lab/tap.h"

static __thread struct rseq area __attribute__((aligned(32)));
static volatile int stop = 1, in_cs;

int main(int argc, char **argv)
{
	int status, killed, want_killed;
	pid_t pid;

	if (argc != 2 || (strcmp(argv[1], "killed") && strcmp(argv[1], "survives"))) {
		fprintf(stderr, "usage: rseq-syscall-cs killed|survives\n");
		return 2;
	}
	want_killed = !strcmp(argv[1], "killed");
	lab_rseq_take_over(argv);
	lab_rseq_skip_if_absent();

	pid = fork();
	if (pid == 0) {
		if (lab_rseq_register(&area))
			_exit(3);
		/* stop is already set: the section makes its syscall and leaves. */
		lab_rseq_syscall_in_cs(&area, &stop, &in_cs, 1, NULL);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
	if (want_killed)
		tap_ok(killed, "syscall inside a critical section -> SIGSEGV (DEBUG_RSEQ) (status 0x%x)",
		       status);
	else
		tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		       "syscall inside a critical section is let through (no DEBUG_RSEQ) (status 0x%x)",
		       status);
	return tap_done();
}
