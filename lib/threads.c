/* SPDX-License-Identifier: MIT */
/* Multi-threaded timing; see lab/threads.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/harness.h"
#include "lab/threads.h"

struct run {
	const struct lab_thread_job *job;
	pthread_barrier_t ready, go;
	volatile int failed;
	char msg[256];
	pthread_mutex_t lock;
	uint64_t start, end; /* release time, latest end */
};

struct slot {
	struct run *run;
	int tid;
};

static void fail(struct run *r, const char *fmt, int tid, const char *why)
{
	pthread_mutex_lock(&r->lock);
	if (!r->failed)
		snprintf(r->msg, sizeof(r->msg), fmt, tid, why);
	r->failed = 1;
	pthread_mutex_unlock(&r->lock);
}

static void *thread_main(void *p)
{
	struct slot *s = p;
	struct run *r = s->run;
	const struct lab_thread_job *j = r->job;
	char why[200];
	uint64_t end;

	if (j->cpus && lab_pin(j->cpus[s->tid]))
		fail(r, "thread %d cannot pin: %s", s->tid, strerror(errno));
	else if (j->setup && j->setup(s->tid, j->arg, why, sizeof(why)))
		fail(r, "thread %d: %s", s->tid, why);
	/* Everyone is set up (or someone failed) before the main thread takes the start time. */
	pthread_barrier_wait(&r->ready);
	pthread_barrier_wait(&r->go);
	if (r->failed)
		return NULL;
	j->body(s->tid, j->arg);
	end = lab_now_ns();
	pthread_mutex_lock(&r->lock);
	if (end > r->end)
		r->end = end;
	pthread_mutex_unlock(&r->lock);
	if (j->teardown)
		j->teardown(s->tid, j->arg);
	return NULL;
}

double lab_threads_run(const struct lab_thread_job *job, char *msg, size_t len)
{
	int n = job->nthreads, started = 0;
	pthread_t *th = calloc(n, sizeof(*th));
	struct slot *slots = calloc(n, sizeof(*slots));
	struct run r;
	double wall = -1;

	memset(&r, 0, sizeof(r));
	r.job = job;
	pthread_mutex_init(&r.lock, NULL);
	pthread_barrier_init(&r.ready, NULL, n + 1);
	pthread_barrier_init(&r.go, NULL, n + 1);
	for (; th && slots && started < n; started++) {
		slots[started] = (struct slot){ &r, started };
		if (pthread_create(&th[started], NULL, thread_main, &slots[started]))
			break;
	}
	if (started < n) {
		/* Those started wait at the barriers, which cannot complete: not recoverable. */
		snprintf(msg, len, "cannot start thread %d of %d", started, n);
		abort();
	}
	pthread_barrier_wait(&r.ready);
	r.start = lab_now_ns();
	pthread_barrier_wait(&r.go);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (r.failed)
		snprintf(msg, len, "%s", r.msg);
	else
		wall = (double)(r.end - r.start);
	pthread_barrier_destroy(&r.ready);
	pthread_barrier_destroy(&r.go);
	pthread_mutex_destroy(&r.lock);
	free(th);
	free(slots);
	return wall;
}

int lab_cpu_list(const cpu_set_t *set, int *out, int n)
{
	int k = 0, cpus = CPU_COUNT(set);

	if (!cpus)
		return 0;
	while (k < n)
		for (int c = 0; c < CPU_SETSIZE && k < n; c++)
			if (CPU_ISSET(c, set))
				out[k++] = c;
	return k;
}
