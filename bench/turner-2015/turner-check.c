// SPDX-License-Identifier: MIT
/*
 * turner-check: correctness of the 2015 restartable_sequences() interface in a guest booted
 * with the turner-2015 variant. TAP on stdout; exit 0 only if every case passed.
 *   errnos for bad arguments, one region per process (a second library gets EBUSY), the CPU
 *   pointer on every CPU, fork (inherits region and pointer) and exec (both gone), and a
 *   stress run: 6 x NCPU threads doing per-CPU counter adds and list pop/push with delays
 *   inside the sequences, yields, migrations and signals whose handler runs sequences too:
 *   exact sums, intact lists, restarts counted.
 * Options: --threads N (default 6 x NCPU), --iters N per thread (default 3000), --spins N
 *   delay inside the slow sequences (default 200), --break-region (register a region that
 *   misses the sequences: the stress run must then fail; shows the test can fail).
 * On a kernel without the system call: "1..0 # SKIP".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "turner-abi.h"

static int n, failed;
static void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	failed += !cond;
}

/* expect_errno: the call failed with want. */
static void expect_errno(long r, int want, const char *what)
{
	int e = errno;

	ok(r == -1 && e == want, "%s: %s (got %ld, %s)", what, strerrorname_np(want), r,
	   r == -1 ? strerrorname_np(e) : "no error");
}

static struct turner_slot counters[TURNER_MAX_CPUS], heads[TURNER_MAX_CPUS];
static int ncpu, cpus[TURNER_MAX_CPUS];
static long nthreads, iters = 3000, spins = 200;
static atomic_long signals_handled, restarts, resumes, sig_stop, workers_done;

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void bad_arguments(void)
{
	char *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long s = (long)turner_region_start, e = (long)turner_region_end;
	long h = (long)turner_restart;

	expect_errno(turner_syscall(SYS_RSEQ_SET_CRITICAL, 1, s, e, h), EINVAL, "flags != 0");
	expect_errno(turner_syscall(7, 0, 0, 0, 0), EINVAL, "unknown op");
	expect_errno(turner_syscall(SYS_RSEQ_SET_CRITICAL, 0, e, s, h), EINVAL,
		     "region end before start");
	expect_errno(turner_syscall(SYS_RSEQ_SET_CRITICAL, 0, s, s, h), EINVAL, "empty region");
	expect_errno(turner_syscall(SYS_RSEQ_SET_CRITICAL, 0, s, e, s + 4), EINVAL,
		     "handler inside the region");
	expect_errno(turner_syscall(SYS_RSEQ_SET_CRITICAL, 0, s, -4096L, h), EFAULT,
		     "region end beyond user space");
	expect_errno(turner_syscall(SYS_RSEQ_SET_CPU_POINTER, 0, (long)&turner_cpu + 1, 0, 0),
		     EINVAL, "unaligned CPU pointer");
	expect_errno(turner_syscall(SYS_RSEQ_SET_CPU_POINTER, 0, (long)page, 0, 0), EFAULT,
		     "read-only CPU pointer");
	munmap(page, 4096);
	expect_errno(turner_syscall(SYS_RSEQ_SET_CPU_POINTER, 0, (long)page, 0, 0), EFAULT,
		     "unmapped CPU pointer");
}

static void cpu_pointer_everywhere(void)
{
	int bad = 0;

	for (int i = 0; i < ncpu; i++) {
		unsigned int c = -1;

		if (pin(cpus[i])) {
			bad++;
			continue;
		}
		getcpu(&c, NULL);
		if (turner_cpu != (uint32_t)cpus[i] || c != (unsigned int)cpus[i]) {
			printf("#   pinned to %d: turner_cpu %u, getcpu %u\n", cpus[i], turner_cpu, c);
			bad++;
		}
	}
	ok(!bad, "the CPU pointer holds the CPU after a move to each of %d CPUs", ncpu);
}

/* fork: the child has the region (a new one is refused) and a live pointer. */
static void fork_and_exec(const char *self)
{
	int st;
	pid_t p = fork();

	if (p == 0) {
		unsigned int c0 = 0;
		int r = 0, target;

		errno = 0;
		if (turner_register_region() != -1 || errno != EBUSY)
			r |= 1;
		/* Poke the variable, then move: only the kernel can set it right again. */
		getcpu(&c0, NULL);
		target = cpus[0] == (int)c0 && ncpu > 1 ? cpus[1] : cpus[0];
		if (target != (int)c0)
			turner_cpu = 999;
		pin(target);
		if (turner_cpu != (uint32_t)target)
			r |= 2;
		_exit(r);
	}
	waitpid(p, &st, 0);
	ok(WIFEXITED(st) && !(WEXITSTATUS(st) & 1), "a fork child inherits the region (EBUSY)");
	ok(WIFEXITED(st) && !(WEXITSTATUS(st) & 2), "and its CPU pointer stays live (rewritten after a move)");

	p = fork();
	if (p == 0) {
		execl(self, self, "--after-exec", (char *)NULL);
		_exit(127);
	}
	waitpid(p, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "after exec the new image can set a region");
}

static struct turner_node *nodes;
static long nnodes;

/* Set once this thread's CPU pointer is registered: until then the kernel restarts none of
 * its sequences (the interface's rule), so a handler running one could lose an update. */
static __thread volatile sig_atomic_t registered;

static void on_signal(int sig)
{
	(void)sig;
	if (!registered)
		return;
	/* A sequence on the same data as the one this may have interrupted. */
	turner_counter_add_slow(counters, 0);
	atomic_fetch_add(&signals_handled, 1);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	unsigned int seed = id * 7919 + 1;

	if (turner_register_thread()) {
		perror("SET_CPU_POINTER");
		atomic_fetch_add(&workers_done, 1);
		return (void *)1;
	}
	registered = 1;
	for (long i = 0; i < iters; i++) {
		struct turner_node *nd;

		turner_counter_add_slow(counters, spins);
		nd = turner_list_pop_slow(heads, spins / 4);
		if (nd)
			turner_list_push_slow(heads, nd, spins / 4);
		switch (rand_r(&seed) % 16) {
		case 0:
			sched_yield();
			break;
		case 1:
			pin(cpus[rand_r(&seed) % ncpu]);
			break;
		case 2: {
			cpu_set_t all;

			CPU_ZERO(&all);
			for (int c = 0; c < ncpu; c++)
				CPU_SET(cpus[c], &all);
			sched_setaffinity(0, sizeof(all), &all);
			break;
		}
		}
	}
	atomic_fetch_add(&restarts, turner_restarts);
	atomic_fetch_add(&resumes, turner_resumes);
	atomic_fetch_add(&workers_done, 1);
	return NULL;
}

static pthread_t *tids;

static void *signaller(void *arg)
{
	unsigned int seed = 42;
	long sent = 0;

	(void)arg;
	while (!atomic_load(&sig_stop)) {
		if (pthread_kill(tids[rand_r(&seed) % nthreads], SIGUSR1) == 0)
			sent++;
		usleep(200);
	}
	return (void *)sent;
}

static void stress(void)
{
	uint64_t sum = 0;
	long seen = 0, dup = 0, errs = 0;
	pthread_t sig;
	void *ret;

	/* The nodes start spread over the CPUs' lists, pushed by one pinned thread. */
	nnodes = 8 * ncpu;
	nodes = calloc(nnodes, sizeof(*nodes));
	for (long i = 0; i < nnodes; i++) {
		nodes[i].owner = i;
		pin(cpus[i % ncpu]);
		turner_list_push(heads, &nodes[i]);
	}
	signal(SIGUSR1, on_signal);
	tids = calloc(nthreads, sizeof(*tids));
	for (long i = 0; i < nthreads; i++)
		pthread_create(&tids[i], NULL, worker, (void *)i);
	pthread_create(&sig, NULL, signaller, NULL);
	/* Joined threads must not be signalled: their descriptors are freed. */
	while (atomic_load(&workers_done) < nthreads)
		usleep(1000);
	atomic_store(&sig_stop, 1);
	pthread_join(sig, &ret);
	for (long i = 0; i < nthreads; i++) {
		void *wret;

		pthread_join(tids[i], &wret);
		errs += wret != NULL;
	}
	ok(!errs, "%ld threads registered their CPU pointers", nthreads);

	for (int c = 0; c < TURNER_MAX_CPUS; c++)
		sum += counters[c].v;
	/* The main thread's own pushes above did not touch the counters. */
	uint64_t want = (uint64_t)nthreads * iters + atomic_load(&signals_handled);
	ok(sum == want, "counter sum exact: %llu = %ld threads x %ld + %ld signal handlers",
	   (unsigned long long)sum, nthreads, iters, atomic_load(&signals_handled));
	if (sum != want)
		printf("#   lost %lld updates\n", (long long)(want - sum));

	for (int c = 0; c < TURNER_MAX_CPUS; c++) {
		long len = 0;

		for (struct turner_node *p = (void *)heads[c].v; p && len <= nnodes; p = p->next) {
			len++;
			if (p < nodes || p >= nodes + nnodes || p->seen++)
				dup++;
			else
				seen++;
		}
	}
	ok(seen == nnodes && !dup, "lists intact: %ld of %ld nodes, each once (%ld bad)",
	   seen, nnodes, dup);
	ok(atomic_load(&restarts) > 0, "sequences were restarted: %ld restarts, %ld tail resumes, "
	   "%ld signals handled", atomic_load(&restarts), atomic_load(&resumes),
	   atomic_load(&signals_handled));
}

int main(int argc, char **argv)
{
	cpu_set_t set;
	int brk = 0;
	long r;

	if (argc == 2 && !strcmp(argv[1], "--after-exec")) {
		/* A fresh image: its region is unset, so this must succeed. */
		return turner_register_region() ? 1 : 0;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--break-region")) {
			brk = 1;
		} else if (i + 1 < argc && !strcmp(argv[i], "--threads")) {
			nthreads = atol(argv[++i]);
		} else if (i + 1 < argc && !strcmp(argv[i], "--iters")) {
			iters = atol(argv[++i]);
		} else if (i + 1 < argc && !strcmp(argv[i], "--spins")) {
			spins = atol(argv[++i]);
		} else {
			fprintf(stderr, "turner-check: bad option '%s'\n", argv[i]);
			return 2;
		}
	}
	sched_getaffinity(0, sizeof(set), &set);
	for (int c = 0; c < CPU_SETSIZE && ncpu < TURNER_MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			cpus[ncpu++] = c;
	if (!nthreads)
		nthreads = 6 * ncpu;
	if (nthreads < 1 || iters < 1 || spins < 0) {
		fprintf(stderr, "turner-check: --threads and --iters must be >= 1, --spins >= 0\n");
		return 2;
	}

	r = turner_syscall(SYS_RSEQ_SET_CPU_POINTER, 0, 0, 0, 0);
	if (r == -1 && errno == ENOSYS) {
		printf("1..0 # SKIP restartable_sequences (syscall %d): ENOSYS\n", TURNER_NR);
		return 0;
	}
	printf("# %d CPUs, %ld threads x %ld iterations, %ld spins\n", ncpu, nthreads, iters, spins);
	bad_arguments();

	if (brk)	/* a region that holds none of the sequences: nothing restarts */
		r = turner_syscall(SYS_RSEQ_SET_CRITICAL, 0, (long)lib2_region_start,
				   (long)lib2_region_end, (long)lib2_restart);
	else
		r = turner_register_region();
	ok(r == 0, "SET_CRITICAL [turner_region_start, turner_region_end) (%ld bytes)",
	   (long)(turner_region_end - turner_region_start));
	expect_errno(turner_syscall(SYS_RSEQ_SET_CRITICAL, 0, (long)lib2_region_start,
				    (long)lib2_region_end, (long)lib2_restart), EBUSY,
		     "a second library's region is refused");
	expect_errno(turner_register_region(), EBUSY, "so is the same region again");

	turner_cpu = 12345;
	r = turner_register_thread();
	ok(r == 0 && turner_cpu < (uint32_t)CPU_SETSIZE, "SET_CPU_POINTER writes the CPU at once (%u)",
	   turner_cpu);
	cpu_pointer_everywhere();
	fork_and_exec("/proc/self/exe");
	stress();
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
