/* SPDX-License-Identifier: MIT */
/*
 * lab-ctxsw: the cost of one context switch and of one signal delivery, the exact answer
 * beneath hackbench. lmbench lat_ctx-style: two processes pinned to one CPU pass a
 * token back and forth over two pipes, so every hop is a switch; the same pipe traffic in one
 * process (write then read, no switch) is subtracted. A signal sent to self with kill() and
 * caught by an empty handler is one delivery (and one sigreturn).
 *
 *   lab-ctxsw [--rseq keep|off|on] [--iters N] [--batches B] [--seed S]
 *
 * --rseq off unregisters glibc's rseq area (the 2018 situation), on makes sure one is
 * registered (glibc's, or our own if glibc left it off), keep leaves it as glibc did; a fork
 * child inherits the registration. The state actually run is printed and checked: "none" when
 * the kernel has no rseq (ENOSYS). --seed S (0: none) moves what an unrelated change would
 * move: S x 1000 spin iterations first (the phase of the timer tick against the batches) and
 * the stack and heap by S x 80 bytes (the layout). Under icount a boot is exact, so boots of
 * one kernel differ only through such a seed; the unit of comparison is the boot.
 * Output, one line per figure:
 *   rseq_state: none|off|on
 *   METRIC BATCH VALUE        (ns per event; under icount ns are guest instructions)
 * with METRIC pipe_roundtrip (2 switches + 2 writes + 2 reads), pipe_self (1 write + 1 read,
 * no switch), switch ((roundtrip - 2 self) / 2) and signal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef __NR_rseq
#define __NR_rseq 334
#endif
#define RSEQ_SIG 0x53053053
#define RSEQ_FLAG_UNREGISTER 1

/* glibc >= 2.35 exports where its rseq area is; weak, so an older libc links too. */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));

/* Our own area when glibc registered none: the 32-byte struct rseq of the ABI. */
static struct {
	uint32_t cpu_id_start, cpu_id;
	uint64_t rseq_cs;
	uint32_t flags, pad[3];
} __attribute__((aligned(32))) own = { .cpu_id = (uint32_t)-1 };

static long rseq_call(void *area, uint32_t len, int flags)
{
	return syscall(__NR_rseq, area, len, flags, RSEQ_SIG);
}

static void *glibc_area(void)
{
	if (&__rseq_size == NULL || __rseq_size == 0)
		return NULL;
	return (char *)__builtin_thread_pointer() + __rseq_offset;
}

/* Bring registration to want ("keep", "off", "on"); the state reached, or NULL on error. */
static const char *rseq_set(const char *want)
{
	void *g = glibc_area();
	long r;

	/* A registration with a fresh area tells the state: EBUSY registered, ENOSYS none. */
	r = rseq_call(&own, sizeof(own), 0);
	if (r == 0) {
		/* nothing was registered: we just did */
		if (!strcmp(want, "on"))
			return "on";
		if (rseq_call(&own, sizeof(own), RSEQ_FLAG_UNREGISTER)) {
			perror("lab-ctxsw: rseq unregister");
			return NULL;
		}
		return "off";
	}
	if (errno == ENOSYS)
		return !strcmp(want, "keep") || !strcmp(want, "off") ? "none" : NULL;
	/* EBUSY: this area is registered; EINVAL: another one is (glibc's) */
	if (errno != EBUSY && errno != EINVAL) {
		perror("lab-ctxsw: rseq");
		return NULL;
	}
	if (strcmp(want, "off"))
		return "on";
	/* glibc's registration: unregister it with glibc's own area and length */
	if (!g || rseq_call(g, __rseq_size < 32 ? 32 : __rseq_size, RSEQ_FLAG_UNREGISTER)) {
		perror("lab-ctxsw: unregistering glibc's rseq");
		return NULL;
	}
	return "off";
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void pin_cpu0(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(0, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		die("lab-ctxsw: sched_setaffinity");
}

/* One byte through a pipe and back, in this process: the pipe cost without a switch. */
static double pipe_self(int iters)
{
	int p[2];
	char c = 'x';
	uint64_t t0;

	if (pipe(p))
		die("lab-ctxsw: pipe");
	t0 = now_ns();
	for (int i = 0; i < iters; i++)
		if (write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1)
			die("lab-ctxsw: self pipe");
	t0 = now_ns() - t0;
	close(p[0]);
	close(p[1]);
	return (double)t0 / iters;
}

/* The token passed iters times there and back between parent and child, both on CPU 0, in
 * each of batches batches (ns per round trip into rt[]). One child for all batches, after a
 * warm-up of its own, so its fork's copy-on-write faults are never timed. */
static void pipe_roundtrip(int iters, int batches, double *rt)
{
	int a[2], b[2], st;
	char c = 'x';
	uint64_t t0;
	pid_t pid;

	if (pipe(a) || pipe(b))
		die("lab-ctxsw: pipe");
	pid = fork();
	if (pid < 0)
		die("lab-ctxsw: fork");
	if (pid == 0) {
		/* only our ends, so the parent's close is our EOF */
		close(a[1]);
		close(b[0]);
		for (;;) {
			if (read(a[0], &c, 1) != 1)
				_exit(0);
			if (write(b[1], &c, 1) != 1)
				_exit(1);
		}
	}
	close(a[0]);
	close(b[1]);
	for (int i = 0; i < 1000; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			die("lab-ctxsw: warm-up");
	for (int k = 0; k < batches; k++) {
		t0 = now_ns();
		for (int i = 0; i < iters; i++)
			if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
				die("lab-ctxsw: ping-pong");
		rt[k] = (double)(now_ns() - t0) / iters;
	}
	close(a[1]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		die("lab-ctxsw: child");
	close(b[0]);
}

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

static double signal_self(int iters)
{
	struct sigaction sa;
	pid_t me = getpid();
	uint64_t t0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (sigaction(SIGUSR1, &sa, NULL))
		die("lab-ctxsw: sigaction");
	caught = 0;
	t0 = now_ns();
	for (int i = 0; i < iters; i++)
		kill(me, SIGUSR1);
	t0 = now_ns() - t0;
	if (caught != iters) {
		fprintf(stderr, "lab-ctxsw: %d signals sent, %d caught\n", iters, (int)caught);
		exit(1);
	}
	return (double)t0 / iters;
}

static int number(const char *s, int *v)
{
	char *end;
	long x = strtol(s, &end, 10);

	if (*end || end == s || x < 1 || x > 100000000)
		return -1;
	*v = (int)x;
	return 0;
}

static int measure(const char *want, int iters, int batches);

/* The seed's perturbation, then the measurement with its stack and heap moved and the
 * kernel's state shifted: up to 6 pipes held open (other descriptors, pipe buffers and slab
 * objects for the measured pipes), up to 60 pages touched (other free pages handed out after
 * them), up to 1000 x 1000 spin iterations (the tick's phase). Each amount is a hash of the
 * seed, never the seed itself: seeds 2k-1 and 2k go to the two sides of a pair, and an amount
 * that grew with the seed would give one side more of it in every pair. */
static int seeded(const char *want, int iters, int batches, int seed)
{
	uint64_t h = (uint64_t)seed * 0x9e3779b97f4a7c15ull;
	volatile unsigned long spin = 0;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	if (!seed)
		h = 0;
	/* a VLA moves the stack of everything below; the block moves later heap chunks */
	volatile char pad[1 + (h % 512) * 80];
	void *shift = h ? malloc((size_t)(h % 512) * 80) : NULL;
	size_t pages = (size_t)((h >> 10) % 61) * 4096;
	char *touched = pages ? malloc(pages) : NULL;
	int held[2 * 7], nheld = 0, rc;
	long spins = (long)((h >> 20) % 1001) * 1000;

	for (size_t i = 0; touched && i < pages; i += 4096)
		touched[i] = 1;
	for (int i = 0; i < (int)((h >> 40) % 7) && !pipe(held + nheld); i++)
		nheld += 2;
	for (long i = 0; i < spins; i++)
		spin += i;
	pad[0] = (char)spin;
	/* the pad stays below the measurement's frames: the compiler may not drop it */
	__asm__ volatile("" : : "r"(pad) : "memory");
	rc = measure(want, iters, batches);
	while (nheld)
		close(held[--nheld]);
	free(touched);
	free(shift);
	return rc;
}

int main(int argc, char **argv)
{
	const char *want = "keep";
	int iters = 20000, batches = 5, seed = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rseq") && i + 1 < argc &&
		    (!strcmp(argv[i + 1], "keep") || !strcmp(argv[i + 1], "off") ||
		     !strcmp(argv[i + 1], "on"))) {
			want = argv[++i];
		} else if (!strcmp(argv[i], "--iters") && i + 1 < argc && !number(argv[i + 1], &iters)) {
			i++;
		} else if (!strcmp(argv[i], "--batches") && i + 1 < argc &&
			   !number(argv[i + 1], &batches)) {
			i++;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc &&
			   (!strcmp(argv[i + 1], "0") || !number(argv[i + 1], &seed)) &&
			   seed <= 1000000) {
			i++;
		} else {
			fprintf(stderr, "usage: lab-ctxsw [--rseq keep|off|on] [--iters N] [--batches B] [--seed S (0 to 1000000)]\n");
			return 2;
		}
	}
	printf("seed: %d\n", seed);
	return seeded(want, iters, batches, seed);
}

static int measure(const char *want, int iters, int batches)
{
	const char *state;

	state = rseq_set(want);
	if (!state) {
		fprintf(stderr, "lab-ctxsw: cannot bring rseq registration to '%s'\n", want);
		return 1;
	}
	pin_cpu0();
	printf("rseq_state: %s\niters: %d\n", state, iters);
	/* the round trips first, in one child; then the rest, each after an unmeasured round */
	double *rt = calloc(batches, sizeof(*rt));

	if (!rt)
		die("lab-ctxsw: calloc");
	pipe_roundtrip(iters, batches, rt);
	pipe_self(1000);
	signal_self(1000);
	for (int b = 1; b <= batches; b++) {
		double self = pipe_self(iters);

		printf("pipe_self %d %.3f\n", b, self);
		printf("pipe_roundtrip %d %.3f\n", b, rt[b - 1]);
		printf("switch %d %.3f\n", b, (rt[b - 1] - 2 * self) / 2);
		printf("signal %d %.3f\n", b, signal_self(iters));
	}
	free(rt);
	return 0;
}
