/* SPDX-License-Identifier: MIT */
/*
 * rseq-cs: the restart side of the rseq ABI (rseq_ip_fixup). A critical section spins until a
 * flag is set; whoever sets the flag can only do so while the section is interrupted, so a
 * section that sees the flag and commits was resumed where it must have been aborted.
 *   - a signal delivered inside it: the handler already sees the abort handler's address
 *     as its return address, and the section aborts;
 *   - a preemption (second thread pinned to the same CPU) and a migration: it aborts;
 *   - an abort handler without the registered signature, and an abort_ip inside the
 *     section: the process gets SIGSEGV (in a child).
 * TAP on stdout; exit 0 only if all pass.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab/rseq-test.h"
#include "lab/rseq-cs.h"
#include "lab/tap.h"

/* Spin limit: long enough for several scheduler ticks even under TCG; the flag ends it early. */
#define SPIN_LIMIT 4000000000UL
/* Tries before a test gives up on getting the interruption it wants without a stray abort. */
#define TRIES 20

typedef int (*cs_fn)(struct rseq *, volatile int *, volatile int *, unsigned long,
		     unsigned long *);

static __thread struct rseq area __attribute__((aligned(32))) = {
	.cpu_id = RSEQ_CPU_ID_UNINITIALIZED,
};
static volatile int stop, in_cs;
static volatile unsigned long handler_rip;
/* stop and handler_rip as they were when the section ended, before the helper is released. */
static int stop_at_end, cpu_at_end;
static unsigned long rip_at_end;
static pthread_t main_thread;
static int ncpus;

static const char *cs_name(int r)
{
	return r == LAB_CS_COMMITTED ? "committed" : r == LAB_CS_ABORTED ? "aborted" : "timed out";
}

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	handler_rip = lab_uc_pc(ctx);
	stop = 1;
}

static void pin(pthread_t t, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(t, sizeof(set), &set);
}

/* Helpers: wait (yielding) until the section has started, then interrupt it their way. */
static void *signaller(void *arg)
{
	(void)arg;
	while (!in_cs)
		sched_yield();
	pthread_kill(main_thread, SIGUSR1);
	return NULL;
}

static void *same_cpu_setter(void *arg)
{
	(void)arg;
	/* Pinned beside the section: running at all means the section was preempted. */
	while (!in_cs)
		sched_yield();
	stop = 1;
	return NULL;
}

/* The section resumes on the new CPU before stop is set: without an abort it spins on. */
static void *migrator(void *arg)
{
	cpu_set_t set;
	int to = *(int *)arg;

	while (!in_cs)
		sched_yield();
	CPU_ZERO(&set);
	CPU_SET(to, &set);
	/* Returns once the running section has been moved to the other CPU. */
	pthread_setaffinity_np(main_thread, sizeof(set), &set);
	stop = 1;
	return NULL;
}

/* One section run against one helper thread; the helper is started after the flags reset. */
static int run_once(cs_fn cs, void *(*helper)(void *), void *arg, int helper_cpu,
		    unsigned long *aip)
{
	pthread_t t;
	int r;

	stop = 0;
	in_cs = 0;
	handler_rip = 0;
	pthread_create(&t, NULL, helper, arg);
	if (helper_cpu >= 0)
		pin(t, helper_cpu);
	r = cs(&area, &stop, &in_cs, SPIN_LIMIT, aip);
	stop_at_end = stop;
	cpu_at_end = (int)area.cpu_id;
	rip_at_end = handler_rip;
	in_cs = 1; /* releases a helper still waiting after a stray early abort */
	pthread_join(t, NULL);
	return r;
}

static void signal_aborts(void)
{
	unsigned long aip = 0;
	int r = -1, i;

	for (i = 0; i < TRIES; i++) {
		r = run_once(lab_rseq_spin, signaller, NULL, -1, &aip);
		if (!(r == LAB_CS_ABORTED && !stop_at_end))
			break; /* not a stray abort before the signal came */
	}
	tap_ok(r == LAB_CS_ABORTED && stop_at_end,
	       "signal inside the section: it aborts (%s, try %d)", cs_name(r), i + 1);
	tap_ok(r == LAB_CS_ABORTED && rip_at_end == aip,
	       "signal handler's return address is the abort handler (%#lx, abort_ip %#lx)",
	       rip_at_end, aip);
}

static void preemption_aborts(void)
{
	int r = -1, i;

	pin(main_thread, 0);
	for (i = 0; i < TRIES; i++) {
		r = run_once(lab_rseq_spin, same_cpu_setter, NULL, 0, NULL);
		if (r != LAB_CS_ABORTED || stop_at_end)
			break;
	}
	tap_ok(r == LAB_CS_ABORTED && stop_at_end,
	       "preempted by a thread on the same CPU: the section aborts (%s, try %d)",
	       cs_name(r), i + 1);
}

static void migration_aborts(void)
{
	int r = -1, i, to = 1;

	if (ncpus < 2) {
		tap_skip("one CPU", "migrated during the section: it aborts");
		return;
	}
	for (i = 0; i < TRIES; i++) {
		pin(main_thread, 0);
		r = run_once(lab_rseq_spin, migrator, &to, 1, NULL);
		/* An abort still on CPU 0 came before the migration: try again. */
		if (r != LAB_CS_ABORTED || cpu_at_end == 1)
			break;
	}
	tap_ok(r == LAB_CS_ABORTED && cpu_at_end == 1,
	       "migrated to CPU 1 during the section: it aborts (%s, try %d, cpu_id %d)",
	       cs_name(r), i + 1, cpu_at_end);
}

/* A section the kernel must refuse to resume: run it in a child and expect SIGSEGV. */
static void dies_with_sigsegv(cs_fn cs, const char *what)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		alarm(60);
		main_thread = pthread_self();
		run_once(cs, signaller, NULL, -1, NULL);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "%s -> SIGSEGV (%s %d)", what,
	       WIFSIGNALED(status) ? "signal" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	int ret;

	(void)argc;
	lab_rseq_take_over(argv);
	lab_rseq_skip_if_absent();

	main_thread = pthread_self();
	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);

	ret = lab_rseq_register(&area);
	if (!tap_ok(ret == 0, "register (%s)", ret ? strerror(errno) : "0"))
		return tap_done();
	stop = 1;
	ret = lab_rseq_spin(&area, &stop, &in_cs, SPIN_LIMIT, NULL);
	tap_ok(ret == LAB_CS_COMMITTED, "an uninterrupted section commits (%s)", cs_name(ret));

	signal_aborts();
	preemption_aborts();
	migration_aborts();
	dies_with_sigsegv(lab_rseq_spin_badsig, "abort handler without the registered signature");
	dies_with_sigsegv(lab_rseq_spin_abort_in_cs, "abort_ip inside the critical section");
	return tap_done();
}
