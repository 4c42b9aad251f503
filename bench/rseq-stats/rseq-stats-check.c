/* SPDX-License-Identifier: MIT */
/*
 * rseq-stats-check: run in a guest of the rseq-stats variant (our backport of upstream's
 * CONFIG_RSEQ_STATS, kernel/patches/rseq-stats*, or an upstream 6.19+ kernel). Checks the
 * counters in /sys/kernel/debug/rseq/stats against what this program makes the kernel do:
 *   - the file is upstream's: mode 0444, the names exit signal slowp ids cs clear fixup
 *     (fastp too on 6.19 and on the backport), and writing cannot reset it;
 *   - exit counts every return to user mode: N getppid() calls move it by at least N, while
 *     the rseq slow path (slowp) stays far below N on a pinned task; where the kernel does
 *     not count exit (arm: "exit: n/a") those checks skip, while an exit that stays 0 fails;
 *   - signals delivered inside a critical section move it to its abort handler: fixup rises by
 *     at least the aborts this program saw, signal by at least the signals delivered, and cs
 *     (descriptors evaluated) by at least fixup + clear;
 *   - a pinned run with no signals sees (close to) no fixups.
 * usage: rseq-stats-check [--require]
 * Without the stats file it skips (plan 1..0), or fails with --require. TAP on stdout; the
 * counter deltas are printed as "# forced:", "# quiet:" and "# syscalls:" diagnostics.
 * It registers its own rseq area (re-executing itself with glibc's registration off if needed).
 */
#define _GNU_SOURCE
#include "lab/rseq-test.h"

#include <sched.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>

#include "lab/rseq-cs.h"
#include "lab/tap.h"

#ifndef STATS_FILE
#define STATS_FILE "/sys/kernel/debug/rseq/stats"
#endif
#define MAX_STATS 32

/* upstream's names, in the order the file prints them; fastp only since 6.19's fast path. */
static const char *const names[] = {
	"exit", "signal", "slowp", "fastp", "ids", "cs", "clear", "fixup",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

/* Iterations of one critical section (tens of microseconds), the signal period, run times. */
#define CS_LOOPS 50000UL
#define TIMER_USEC 1000
#define FORCED_SECONDS 1.0
#define QUIET_SECONDS 0.5
/* "Close to none": what a pinned, undisturbed run may see (the odd kernel thread wake-up). */
#define QUIET_MAX_FIXUPS 10
/* System calls of the exit check. */
#define SYSCALLS 20000

struct stats {
	int n;
	char name[MAX_STATS][40];
	unsigned long long val[MAX_STATS];
	int exit_na; /* "exit: n/a": this architecture's entry code does not count it */
};

static __thread struct rseq area __attribute__((aligned(32)));
static volatile sig_atomic_t signals;

static void on_alarm(int sig)
{
	(void)sig;
	signals++;
}

/* Read and parse the stats file: 0 on success, -1 (errno set) if it cannot be read. */
static int read_stats(struct stats *s)
{
	char line[128];
	FILE *f = fopen(STATS_FILE, "r");

	if (!f)
		return -1;
	s->n = 0;
	s->exit_na = 0;
	while (s->n < MAX_STATS && fgets(line, sizeof(line), f)) {
		char na[4];

		if (sscanf(line, " %39[^: ]: %llu", s->name[s->n], &s->val[s->n]) == 2)
			s->n++;
		else if (sscanf(line, " exit: %3s", na) == 1 && !strcmp(na, "n/a"))
			s->exit_na = 1;
	}
	fclose(f);
	return 0;
}

/* A counter's value, or -1 if the file did not have it. */
static long long get(const struct stats *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return (long long)s->val[i];
	return -1;
}

static long long delta(const struct stats *a, const struct stats *b, const char *name)
{
	return get(b, name) - get(a, name);
}

/* Write TEXT to the stats file: 0, or the errno of the failure. */
static int write_stats(const char *text)
{
	FILE *f = fopen(STATS_FILE, "w");
	int err;

	if (!f)
		return errno;
	setvbuf(f, NULL, _IONBF, 0);
	err = fputs(text, f) < 0 ? errno : 0;
	if (fclose(f) && !err)
		err = errno;
	return err;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run critical sections back to back for SECONDS; count the runs and the aborts seen. */
static void run_cs(double seconds, unsigned long *runs, unsigned long *aborts)
{
	volatile int stop = 0, in_cs = 0;
	double end = now() + seconds;

	*runs = *aborts = 0;
	while (now() < end) {
		if (lab_rseq_spin(&area, &stop, &in_cs, CS_LOOPS, NULL) == LAB_CS_ABORTED)
			(*aborts)++;
		(*runs)++;
	}
}

static void print_deltas(const char *tag, const struct stats *a, const struct stats *b)
{
	for (size_t i = 0; i < NNAMES; i++)
		if (get(a, names[i]) >= 0)
			tap_diag("%s: %s: %lld", tag, names[i], delta(a, b, names[i]));
}

int main(int argc, char **argv)
{
	int require = argc > 1 && !strcmp(argv[1], "--require");
	struct stats s0, s1, q0, q1;
	unsigned long runs, aborts, qruns, qaborts;
	struct itimerval it = { { 0, TIMER_USEC }, { 0, TIMER_USEC } }, off = { 0 };
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	long long fix, ex, sp;
	size_t missing = 0;
	struct stat st;
	cpu_set_t set;
	int cpu, err;

	lab_rseq_take_over(argv);
	lab_rseq_skip_if_absent();
	if (read_stats(&s0)) {
		if (!require) {
			printf("1..0 # SKIP no %s (kernel without CONFIG_RSEQ_STATS, or debugfs "
			       "not mounted): %s\n", STATS_FILE, strerror(errno));
			return 0;
		}
		tap_ok(0, "%s can be read (%s)", STATS_FILE, strerror(errno));
		return tap_done();
	}
	/* fastp is the only name upstream added later (6.19's fast path). */
	for (size_t i = 0; i < NNAMES; i++)
		if (get(&s0, names[i]) < 0 && strcmp(names[i], "fastp") &&
		    !(s0.exit_na && !strcmp(names[i], "exit"))) {
			tap_diag("missing counter %s", names[i]);
			missing++;
		}
	tap_ok(missing == 0, "%s has upstream's counters (%d lines parsed)", STATS_FILE, s0.n);
	if (stat(STATS_FILE, &st))
		st.st_mode = 0;
	tap_ok((st.st_mode & 07777) == 0444,
	       "the file is mode 0444 (%o)", st.st_mode & 07777);

	/* Pin first: the exit check wants no migrations, the quiet run no fixups. */
	cpu = sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	tap_ok(sched_setaffinity(0, sizeof(set), &set) == 0, "pinned to CPU %d", cpu);
	err = lab_rseq_register(&area) ? errno : 0;
	tap_ok(err == 0, "rseq registers a fresh area (%s)", err ? strerror(err) : "ok");

	/* exit: every return to user mode, rseq work or not. */
	read_stats(&s0);
	for (int i = 0; i < SYSCALLS; i++)
		syscall(SYS_getppid);
	read_stats(&s1);
	print_deltas("syscalls", &s0, &s1);
	ex = delta(&s0, &s1, "exit");
	sp = delta(&s0, &s1, "slowp");
	if (s0.exit_na)
		tap_skip("exit: n/a, not counted on this architecture",
			 "exit counts every return to user mode");
	else
		tap_ok(ex >= SYSCALLS, "exit counts every return to user mode (%lld >= %d)", ex,
		       SYSCALLS);
	tap_ok(sp < SYSCALLS / 10, "and a system call is no rseq slow-path work (slowp %lld)", sp);

	/* Forced aborts: a 1 ms interval timer whose signals land inside critical sections. */
	read_stats(&s0);
	sigaction(SIGALRM, &sa, NULL);
	signals = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	run_cs(FORCED_SECONDS, &runs, &aborts);
	setitimer(ITIMER_REAL, &off, NULL);
	read_stats(&s1);
	tap_diag("forced run: %lu critical sections, %lu aborted, %d signals", runs, aborts,
		 (int)signals);
	print_deltas("forced", &s0, &s1);
	fix = delta(&s0, &s1, "fixup");
	tap_ok(aborts > 0, "signals inside critical sections forced aborts (%lu)", aborts);
	tap_ok(fix >= (long long)aborts, "fixup rose by at least the aborts seen (%lld >= %lu)",
	       fix, aborts);
	tap_ok(delta(&s0, &s1, "signal") >= signals,
	       "signal counts every signal delivered (%lld >= %d)", delta(&s0, &s1, "signal"),
	       (int)signals);
	tap_ok(delta(&s0, &s1, "cs") >= fix + delta(&s0, &s1, "clear"),
	       "cs >= fixup + clear (%lld >= %lld + %lld)", delta(&s0, &s1, "cs"), fix,
	       delta(&s0, &s1, "clear"));
	if (s0.exit_na)
		tap_skip("exit: n/a", "exit >= signal");
	else
		tap_ok(delta(&s0, &s1, "exit") >= delta(&s0, &s1, "signal"),
		       "exit >= signal (%lld >= %lld)", delta(&s0, &s1, "exit"),
		       delta(&s0, &s1, "signal"));

	/* Quiet: pinned, no signals. */
	read_stats(&q0);
	run_cs(QUIET_SECONDS, &qruns, &qaborts);
	read_stats(&q1);
	fix = delta(&q0, &q1, "fixup");
	tap_diag("quiet run: %lu critical sections, %lu aborted", qruns, qaborts);
	print_deltas("quiet", &q0, &q1);
	tap_ok(fix >= (long long)qaborts && fix <= QUIET_MAX_FIXUPS,
	       "a quiet pinned run sees close to no fixups (%lld for %lu aborts, at most %d)",
	       fix, qaborts, QUIET_MAX_FIXUPS);
	err = lab_rseq_unregister(&area) ? errno : 0;
	tap_ok(err == 0, "rseq unregisters (%s)", err ? strerror(err) : "ok");

	/* No reset: a write fails (root passes the 0444 check; the file has no write method). */
	read_stats(&s0);
	err = write_stats("0\n");
	read_stats(&s1);
	/* Without exit, fixup (nonzero after the forced run) shows a reset. */
	{
		const char *c = s1.exit_na ? "fixup" : "exit";

		tap_ok(err != 0 && delta(&s0, &s1, c) >= 0 && get(&s1, c) > 0,
		       "writing cannot reset the counters (%s; %s %lld)",
		       err ? strerror(err) : "write accepted", c, get(&s1, c));
	}
	return tap_done();
}
