/* SPDX-License-Identifier: MIT */
/*
 * The timing harness the benches share: a table of cases (one row each), each timed as a
 * fixed-count loop on a pinned thread, R repetitions interleaved across cases, in this process
 * or in a worker process that runs with glibc's rseq registration the other way round.
 */
#ifndef LAB_HARNESS_H
#define LAB_HARNESS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Keep a value live: the compiler must compute it, and cannot see it is unused. */
#define lab_sink(v) __asm__ volatile("" : : "r"(v))

/* Build a loop of n calls of an inline read function, its result sunk each time. */
#define LAB_LOOP_OF(read)                                                            \
	static __attribute__((noinline)) void loop_##read(uint64_t n)              \
	{                                                                            \
		for (uint64_t i = 0; i < n; i++) {                                   \
			int v = read();                                              \
			lab_sink(v);                                                 \
		}                                                                    \
	}

/* Which registration state of glibc's rseq a case needs in the process that runs it. */
enum lab_need {
	LAB_NEED_ANY,
	LAB_NEED_GLIBC_RSEQ_ON,  /* glibc registered rseq for the thread */
	LAB_NEED_GLIBC_RSEQ_OFF, /* glibc did not (GLIBC_TUNABLES=glibc.pthread.rseq=0) */
};

/* glibc's rseq state in a process. */
enum lab_mode { LAB_MODE_ON, LAB_MODE_OFF, LAB_MODE_ENOSYS };

struct lab_case {
	const char *name;  /* --method name and CSV method column */
	const char *label; /* the row's label in the seed-format table */
	enum lab_need need;
	/* Get ready in this process: NULL when runnable, else why not ("unsupported: ..."). */
	const char *(*prepare)(void);
	/* How this row learns the CPU here (e.g. "vDSO getcpu"); NULL: none to say. */
	const char *(*path)(void);
	int (*read)(void);           /* one read: the CPU; NULL when the case returns none */
	void (*loop)(uint64_t n);    /* n operations */
	double seed_ns;              /* the seed commit's x86-64 figure; 0: none */
	/* Put the calling thread in the state the case's loop needs (e.g. its GS base), before
	   each timed, counted or verified span (outside it); NULL: nothing to do. */
	void (*enter)(void);
	/* Under icount, timed (the loop's virtual ns) rather than counted: the case's path changes
	   with n (a library's periodic work), so the linearity check could never prove a count. */
	int icount_timed;
	/* "NAME=value" a library reads as its process starts: the case runs in a worker of its
	   own started with it, in this process's glibc rseq state; NULL: none. */
	const char *(*env)(void);
};

/* A case from its fields in order up to icount_timed (the others zero: no warning for them). */
#define LAB_CASE(name_, label_, need_, prepare_, path_, read_, loop_, seed_ns_, enter_,        \
		 icount_timed_)                                                            \
	{ .name = name_, .label = label_, .need = need_, .prepare = prepare_, .path = path_,  \
	  .read = read_, .loop = loop_, .seed_ns = seed_ns_, .enter = enter_,                 \
	  .icount_timed = icount_timed_ }

struct lab_sample {
	double ns;    /* CLOCK_MONOTONIC nanoseconds for the whole loop */
	double ticks; /* lab_ticks() delta for the whole loop */
	double pmu_cycles, pmu_instructions; /* PMU counts for the loop (lab/pmu.h); NaN: no PMU */
};

/* This process's glibc rseq state. */
enum lab_mode lab_mode_now(void);
const char *lab_mode_name(enum lab_mode m);

/* Pin the calling thread to one CPU; -1 and errno on failure. */
int lab_pin(int cpu);

uint64_t lab_now_ns(void);

/* Loop count that makes the case's loop take about target_ns (also warms it up). */
uint64_t lab_calibrate(const struct lab_case *c, uint64_t target_ns);

/* Time one loop of iters operations. */
struct lab_sample lab_measure(const struct lab_case *c, uint64_t iters);

/*
 * Check that the case reads the right CPU on every CPU of cpus (pinned to each in turn, the
 * reference being the pinned CPU and sched_getcpu()), through the same read the loop makes,
 * entered once before the first CPU, so that its state must survive the migrations and the
 * yields between reads; pins back to home. Returns the number of
 * CPUs checked, or -1 with a message in msg.
 */
int lab_verify(const struct lab_case *c, const cpu_set_t *cpus, int home, char *msg, size_t len);

/*
 * Where a case runs: here, or in a worker (this program re-executed with the other glibc
 * rseq state, driven over a pipe). The worker speaks the same operations.
 */
struct lab_exec {
	pid_t pid; /* 0: this process */
	FILE *to, *from;
	enum lab_mode mode;
};

void lab_exec_local(struct lab_exec *e);
/* Start argv0 with GLIBC_TUNABLES set to the other rseq state; -1 with a message if not. */
int lab_exec_spawn(struct lab_exec *e, enum lab_mode want, char *msg, size_t len);
/* The same with EXTRA ("NAME=value", NULL: none) in its environment too. */
int lab_exec_spawn_env(struct lab_exec *e, enum lab_mode want, const char *extra, char *msg,
		       size_t len);
void lab_exec_stop(struct lab_exec *e);

/* Each returns 0 on success; on failure -1 with why in msg. */
int lab_exec_pin(struct lab_exec *e, int cpu, char *msg, size_t len);
int lab_exec_prepare(struct lab_exec *e, const struct lab_case *cases, int idx,
		     char *path, size_t plen, char *msg, size_t len);
int lab_exec_verify(struct lab_exec *e, const struct lab_case *cases, int idx,
		    const cpu_set_t *cpus, int home, int *checked, char *msg, size_t len);
int lab_exec_calibrate(struct lab_exec *e, const struct lab_case *cases, int idx,
		       uint64_t target_ns, uint64_t *iters, char *msg, size_t len);
int lab_exec_measure(struct lab_exec *e, const struct lab_case *cases, int idx,
		     uint64_t iters, struct lab_sample *s, char *msg, size_t len);
/* Instructions per operation under QEMU icount (lab/icount.h). */
int lab_exec_icount(struct lab_exec *e, const struct lab_case *cases, int idx,
		    uint64_t iters, double *instr, char *msg, size_t len);

/* The worker's side: serve requests on stdin/stdout until EOF; returns the exit status. */
int lab_worker_serve(const struct lab_case *cases, int ncases);

#endif
