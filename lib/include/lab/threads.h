/* SPDX-License-Identifier: MIT */
/*
 * Multi-threaded timing for the harness: N threads, each pinned (or not) and set up by the
 * bench, released together from a barrier, each running its share of a fixed-count loop. The
 * time is from the release to the last thread's end.
 */
#ifndef LAB_THREADS_H
#define LAB_THREADS_H

#include <sched.h>
#include <stdint.h>

struct lab_thread_job {
	int nthreads;
	const int *cpus;     /* thread i is pinned to cpus[i]; NULL: not pinned */
	void *arg;           /* passed to the hooks */
	/* In each thread before the barrier: 0, or -1 with why in msg (the run then fails). */
	int (*setup)(int tid, void *arg, char *msg, size_t len);
	void (*body)(int tid, void *arg);     /* the timed part */
	void (*teardown)(int tid, void *arg); /* after the timed part; may be NULL */
};

/*
 * Run the job; returns the wall nanoseconds from the release to the last body's end, or -1
 * with why in msg (a thread could not start, pin or set up).
 */
double lab_threads_run(const struct lab_thread_job *job, char *msg, size_t len);

/* CPUs of set in order, as many as fit in out (round-robin repeats them); returns the count. */
int lab_cpu_list(const cpu_set_t *set, int *out, int n);

#endif
