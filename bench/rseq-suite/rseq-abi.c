/* SPDX-License-Identifier: MIT */
/*
 * rseq-abi: the registration side of the rseq ABI, as sys_rseq defines it: argument checks,
 * re-registration and unregistration rules, cpu_id/cpu_id_start upkeep on every CPU, and what
 * fork, exec and a new thread do to a registration. TAP on stdout; exit 0 only if all pass.
 * usage: rseq-abi      (it re-executes itself with glibc's own registration off)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab/rseq-test.h"
#include "lab/tap.h"

#define BAD_SIG (LAB_RSEQ_SIG ^ 1)

static __thread struct rseq area __attribute__((aligned(32))) = {
	.cpu_id = RSEQ_CPU_ID_UNINITIALIZED,
};
/* A second, well-formed area, and room for a misaligned one. */
static struct rseq other __attribute__((aligned(32)));
static char raw[2 * sizeof(struct rseq)] __attribute__((aligned(32)));

/* "0", or the error text of a failed call, for messages. */
static const char *res(int ret)
{
	return ret == 0 ? "0" : strerror(errno);
}

/* The call failed with exactly this errno. */
static int fails_with(int ret, int err)
{
	return ret == -1 && errno == err;
}

static void registration_rules(void)
{
	int ret;

	ret = lab_sys_rseq((struct rseq *)(raw + 4), sizeof(struct rseq), 0, LAB_RSEQ_SIG);
	tap_ok(fails_with(ret, EINVAL), "misaligned area -> EINVAL (%s)", res(ret));
	ret = lab_sys_rseq(&area, sizeof(area) / 2, 0, LAB_RSEQ_SIG);
	tap_ok(fails_with(ret, EINVAL), "length %zu -> EINVAL (%s)", sizeof(area) / 2, res(ret));
	ret = lab_sys_rseq(&area, sizeof(area), 2, LAB_RSEQ_SIG);
	tap_ok(fails_with(ret, EINVAL), "unknown flag 0x2 -> EINVAL (%s)", res(ret));
	ret = lab_rseq_unregister(&area);
	tap_ok(fails_with(ret, EINVAL), "unregister before any registration -> EINVAL (%s)",
	       res(ret));

	ret = lab_rseq_register(&area);
	tap_ok(ret == 0, "register a fresh area (%s)", res(ret));
	tap_ok((int)area.cpu_id == sched_getcpu() && area.cpu_id_start == area.cpu_id,
	       "cpu_id %d, cpu_id_start %u match sched_getcpu %d", (int)area.cpu_id,
	       area.cpu_id_start, sched_getcpu());
	ret = lab_rseq_register(&area);
	tap_ok(fails_with(ret, EBUSY), "same area again -> EBUSY (%s)", res(ret));
	ret = lab_sys_rseq(&area, sizeof(area), 0, BAD_SIG);
	tap_ok(fails_with(ret, EPERM), "same area, other signature -> EPERM (%s)", res(ret));
	ret = lab_rseq_register(&other);
	tap_ok(fails_with(ret, EINVAL), "different area while registered -> EINVAL (%s)", res(ret));
	ret = lab_sys_rseq(&area, sizeof(area), RSEQ_FLAG_UNREGISTER, BAD_SIG);
	tap_ok(fails_with(ret, EPERM), "unregister with another signature -> EPERM (%s)", res(ret));
	ret = lab_sys_rseq(&other, sizeof(other), RSEQ_FLAG_UNREGISTER, LAB_RSEQ_SIG);
	tap_ok(fails_with(ret, EINVAL), "unregister another area -> EINVAL (%s)", res(ret));
	ret = lab_rseq_unregister(&area);
	tap_ok(ret == 0, "unregister (%s)", res(ret));
	tap_ok((int)area.cpu_id == RSEQ_CPU_ID_UNINITIALIZED,
	       "cpu_id reads RSEQ_CPU_ID_UNINITIALIZED after unregister (%d)", (int)area.cpu_id);
	ret = lab_rseq_unregister(&area);
	tap_ok(fails_with(ret, EINVAL), "unregister twice -> EINVAL (%s)", res(ret));
	ret = lab_rseq_register(&area);
	tap_ok(ret == 0, "register again after unregister (%s)", res(ret));
}

/* Pin to each online CPU in turn: the kernel must rewrite both fields before we run there. */
static void every_cpu(void)
{
	cpu_set_t all, one;
	int cpu, n = 0, bad = 0;

	sched_getaffinity(0, sizeof(all), &all);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one)) {
			tap_diag("cannot pin to CPU %d: %s", cpu, strerror(errno));
			bad++;
			continue;
		}
		n++;
		if ((int)area.cpu_id != cpu || (int)area.cpu_id_start != cpu) {
			tap_diag("on CPU %d: cpu_id %d cpu_id_start %u", cpu, (int)area.cpu_id,
				 area.cpu_id_start);
			bad++;
		}
	}
	sched_setaffinity(0, sizeof(all), &all);
	tap_ok(!bad && n > 0, "cpu_id and cpu_id_start follow the task to each of %d CPUs", n);
}

/* Child status bits of the fork test. */
enum { CHILD_CPU_BAD = 1, CHILD_NOT_REGISTERED = 2 };

static void fork_inherits(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int bits = 0;

		sched_yield();
		if ((int)area.cpu_id < 0 || (int)area.cpu_id != sched_getcpu())
			bits |= CHILD_CPU_BAD;
		if (!fails_with(lab_rseq_register(&area), EBUSY))
			bits |= CHILD_NOT_REGISTERED;
		_exit(bits);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status)) {
		tap_ok(0, "fork: child died with status 0x%x", status);
		tap_ok(0, "fork: child inherits the registration");
		return;
	}
	tap_ok(!(WEXITSTATUS(status) & CHILD_CPU_BAD), "fork: child's cpu_id stays valid");
	tap_ok(!(WEXITSTATUS(status) & CHILD_NOT_REGISTERED),
	       "fork: child inherits the registration (same area -> EBUSY)");
}

/* In the exec'ed image: a fresh area registers (no EBUSY left over from the old image). */
static int exec_child(void)
{
	if ((int)area.cpu_id != RSEQ_CPU_ID_UNINITIALIZED)
		return 3;
	if (lab_rseq_register(&area))
		return errno == EBUSY ? 1 : 2;
	return (int)area.cpu_id == sched_getcpu() ? 0 : 4;
}

static void exec_clears(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execl("/proc/self/exe", "rseq-abi", "exec-child", (char *)NULL);
		_exit(5);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "exec clears the registration: the new image registers (status 0x%x%s)", status,
	       WIFEXITED(status) && WEXITSTATUS(status) == 1 ? ", EBUSY" : "");
}

static int thread_result[3];

static void *thread_main(void *arg)
{
	(void)arg;
	sched_yield();
	thread_result[0] = (int)area.cpu_id == RSEQ_CPU_ID_UNINITIALIZED;
	/* A thread that inherited a registration would get EINVAL for a different area. */
	thread_result[1] = lab_rseq_register(&area) == 0;
	thread_result[2] = (int)area.cpu_id == sched_getcpu();
	lab_rseq_unregister(&area);
	return NULL;
}

static void thread_starts_unregistered(void)
{
	pthread_t t;

	pthread_create(&t, NULL, thread_main, NULL);
	pthread_join(t, NULL);
	tap_ok(thread_result[0], "new thread: its area is untouched (cpu_id -1)");
	tap_ok(thread_result[1], "new thread starts unregistered: it registers its own area");
	tap_ok(thread_result[2], "new thread: cpu_id is set once it registers");
}

int main(int argc, char **argv)
{
	lab_rseq_take_over(argv);
	if (argc > 1 && !strcmp(argv[1], "exec-child"))
		return exec_child();
	lab_rseq_skip_if_absent();

	registration_rules();
	every_cpu();
	fork_inherits();
	exec_clears();
	thread_starts_unregistered();
	return tap_done();
}
