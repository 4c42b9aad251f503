/* SPDX-License-Identifier: MIT */
/* One run of a case: threads set up, released, timed, then the exactness check. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "percpu-run.h"
#include "lab/threads.h"

struct job_arg {
	const struct lab_strategy *c;
	const struct lab_pc_run *run;
	struct lab_pc_thread *th;
	uint64_t *signals;
};

static int setup(int tid, void *p, char *msg, size_t len)
{
	struct job_arg *a = p;
	struct lab_pc_thread *t = &a->th[tid];

	memset(t, 0, sizeof(*t));
	t->run = a->run;
	t->tid = tid;
	if (!strcmp(a->c->shape, "list"))
		t->held = &lab_pc_nodes[tid]; /* every list thread starts holding its node */
	if (a->c->thread_init && a->c->thread_init(t, msg, len))
		return -1;
	return lab_disturb_start(&t->dt, &a->run->dis, tid, msg, len);
}

static void body(int tid, void *p)
{
	struct job_arg *a = p;

	a->c->loop(&a->th[tid], a->run->iters);
}

static void teardown(int tid, void *p)
{
	struct job_arg *a = p;

	a->signals[tid] = lab_disturb_stop();
	if (a->c->thread_fini)
		a->c->thread_fini(&a->th[tid]);
}

FILE *lab_pc_layout_out;

/* Where each thread's written-per-op memory is, for a test to check that none shares a line. */
static void print_layout(FILE *f, const struct lab_strategy *c, const struct lab_pc_run *run,
			 const struct lab_pc_thread *th)
{
	for (int i = 0; i < run->nthreads; i++)
		fprintf(f, "# layout %s: thread %d state %p size %zu node %p size %zu\n", c->name, i,
			(const void *)&th[i], sizeof(th[i]), (void *)&lab_pc_nodes[i],
			sizeof(lab_pc_nodes[i]));
	for (int i = 0; i < run->nslots; i++)
		fprintf(f, "# layout %s: slot %d %p size %zu\n", c->name, i, (void *)&lab_pc_slots[i],
			sizeof(lab_pc_slots[i]));
}

int lab_pc_run_case(const struct lab_strategy *c, const struct lab_pc_run *run, int pin,
		    struct lab_pc_outcome *out)
{
	int n = run->nthreads, *cpus = calloc(n, sizeof(int));
	struct lab_pc_thread *th = lab_pc_lines_alloc(n, sizeof(*th));
	uint64_t *sig = calloc(n, sizeof(*sig));
	struct job_arg a = { c, run, th, sig };
	struct lab_thread_job job = { n, NULL, &a, setup, body, teardown };
	struct lab_kstats k0, k1;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!cpus || !th || !sig || lab_pc_reset(c, run)) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		goto done;
	}
	for (int i = 0; i < n; i++)
		cpus[i] = run->dis.cpus[i % run->dis.ncpus];
	if (lab_pc_layout_out)
		print_layout(lab_pc_layout_out, c, run, th);
	job.cpus = pin ? cpus : NULL;
	lab_kstats_read(&k0);
	out->wall_ns = lab_threads_run(&job, out->error, sizeof(out->error));
	lab_kstats_read(&k1);
	if (out->wall_ns < 0)
		goto done;
	out->has_kstats = lab_kstats_add_delta(out->kstats, &k0, &k1) == 0;
	out->ops = run->iters * n;
	for (int i = 0; i < n; i++) {
		out->aborts += th[i].aborts;
		out->signals += sig[i];
	}
	if (lab_pc_check(c, run, th, out->error, sizeof(out->error)))
		goto done;
	ret = 0;
done:
	free(cpus);
	free(th);
	free(sig);
	return ret;
}
