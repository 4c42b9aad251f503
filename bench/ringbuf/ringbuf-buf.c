/* SPDX-License-Identifier: MIT */
/*
 * The buffers, the reader, the strategies without rseq (getcpu + atomics, a buffer per
 * thread), and one checked run: the reader drains while the writers are timed, then everything
 * left is drained and the counts are reconciled from both sides.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/harness.h"
#include "lab/threads.h"
#include "lab/vdso.h"
#include "ringbuf-buf.h"

struct rb_buf *rb_bufs;
intptr_t rb_mask, rb_size, rb_subbuf;
int rb_sub_shift, rb_size_shift;
int rb_overwrite;

#define POISON 0xffffffffu

void rb_wait(struct rb_thread *t)
{
	t->waits++;
	sched_yield();
}

/* ---- getcpu + atomics ---- */

typedef long (*vgetcpu_fn)(unsigned *cpu, unsigned *node, void *cache);
static vgetcpu_fn vgetcpu;

static const char *getcpu_path(void)
{
	if (!vgetcpu)
		vgetcpu = (vgetcpu_fn)lab_vdso_sym("__vdso_getcpu");
	return vgetcpu ? "vDSO __vdso_getcpu" : "glibc sched_getcpu (no vDSO getcpu)";
}

static inline int getcpu_now(void)
{
	unsigned cpu;

	if (vgetcpu && vgetcpu(&cpu, NULL, NULL) == 0)
		return (int)cpu;
	return sched_getcpu();
}

/* Reserve by cmpxchg on the CPU's write offset, commit by an atomic add. */
static inline void write_getcpu(struct rb_thread *t, int disturbed)
{
	int cpu = getcpu_now();
	struct rb_buf *b = &rb_bufs[cpu];
	intptr_t off = __atomic_load_n(&b->offset, __ATOMIC_RELAXED);

	for (;;) {
		if (rb_full(b, off)) {
			rb_wait(t);
			off = __atomic_load_n(&b->offset, __ATOMIC_RELAXED);
			continue;
		}
		if (__atomic_compare_exchange_n(&b->offset, &off, off + RB_REC, 0, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			break;
	}
	rb_write(b, off, t->tid, cpu, t->seq++);
	rb_between(t, disturbed);
	__atomic_fetch_add(&b->commit_atomic[rb_sub(off)], RB_REC, __ATOMIC_RELEASE);
	t->per_buf[cpu]++;
}

RB_LOOP(loop_getcpu, write_getcpu)

/* ---- a buffer per thread: plain stores, the no-sharing lower bound ---- */

static inline void write_own(struct rb_thread *t, int disturbed)
{
	struct rb_buf *b = &rb_bufs[t->tid];
	intptr_t off = b->offset, *c;

	while (rb_full(b, off))
		rb_wait(t);
	b->offset = off + RB_REC;
	rb_write(b, off, t->tid, t->tid, t->seq++);
	rb_between(t, disturbed);
	c = &b->commit_cpu[rb_sub(off)];
	__atomic_store_n(c, *c + RB_REC, __ATOMIC_RELEASE);
	t->per_buf[t->tid]++;
}

RB_LOOP(loop_own, write_own)

static const char *own_path(void)
{
	return "thread-local buffer, plain stores";
}

const struct rb_strategy rb_getcpu_atomic = {
	"ringbuf-getcpu-atomic", "getcpu + cmpxchg reserve + atomic commit", NULL, 0, 0, 117.4,
	getcpu_path, NULL, loop_getcpu,
};
const struct rb_strategy rb_per_thread = {
	"ringbuf-per-thread", "per-thread buffer (no sharing)", "ringbuf-getcpu-atomic", 0, 1, 0,
	own_path, NULL, loop_own,
};

/* ---- the reader ---- */

struct reader {
	const struct rb_run *run;
	volatile int stop;
	int failed;
	char error[256];
	uint64_t *tid_count, *tid_sum; /* records and payload sum per writer thread */
	uint8_t *seen;                  /* --check: one bit per (thread, event) */
	uint64_t *moved;                /* per buffer: when the reader last took from it */
};

#define FAIL(r, ...)                                                          \
	do {                                                                  \
		if (!(r)->failed)                                             \
			snprintf((r)->error, sizeof((r)->error), __VA_ARGS__); \
		(r)->failed = 1;                                              \
	} while (0)

/* Check the len bytes of records at c in buffer i; on a bad record note it and go on, so
 * that writers waiting for space are never stranded. */
static void take(struct reader *r, int i, intptr_t c, intptr_t len)
{
	const struct rb_run *run = r->run;
	struct rb_buf *b = &rb_bufs[i];

	for (intptr_t k = 0; k < len / RB_REC; k++) {
		uint32_t *p = b->data + (((c + k * RB_REC) & rb_mask) >> 2); /* it may wrap */
		uint32_t hdr = p[0], seq = p[1], tid = hdr >> 12 & 0xfff, cpu = hdr & 0xfff;

		if (hdr == POISON || seq == POISON)
			FAIL(r, "buffer %d offset %ld: committed but never written (poison %08x %08x)",
			     i, (long)(c + k * RB_REC), hdr, seq);
		else if (hdr >> 24 != rb_check_byte(tid, cpu, seq))
			FAIL(r, "buffer %d offset %ld: torn record (header %08x, payload %08x)", i,
			     (long)(c + k * RB_REC), hdr, seq);
		else if ((int)cpu != i)
			FAIL(r, "buffer %d holds a record for buffer %u (thread %u, event %u)", i, cpu,
			     tid, seq);
		else if ((int)tid >= run->nthreads || seq >= run->iters)
			FAIL(r, "buffer %d: record of thread %u event %u is out of range", i, tid, seq);
		else {
			uint64_t bit = tid * run->iters + seq;

			r->tid_count[tid]++;
			r->tid_sum[tid] += seq;
			if (r->seen && (r->seen[bit >> 3] & 1u << (bit & 7)))
				FAIL(r, "thread %u event %u read twice", tid, seq);
			if (r->seen)
				r->seen[bit >> 3] |= 1u << (bit & 7);
		}
		if (run->check)
			p[0] = p[1] = POISON;
	}
	b->read += len / RB_REC;
}

static intptr_t committed(struct rb_buf *b, int s)
{
	return __atomic_load_n(&b->commit_cpu[s], __ATOMIC_ACQUIRE) +
	       __atomic_load_n(&b->commit_atomic[s], __ATOMIC_ACQUIRE);
}

/* One pass: every complete sub-buffer is taken and handed back. Returns how many. */
static int pass(struct reader *r)
{
	int progress = 0;

	for (int i = 0; i < r->run->nbufs; i++) {
		struct rb_buf *b = &rb_bufs[i];

		for (;;) {
			intptr_t c = b->consumed, want = (rb_wraps(c) + 1) * rb_subbuf;
			int s = rb_sub(c);
			intptr_t got = committed(b, s);

			if (got > want)
				FAIL(r, "buffer %d sub-buffer %d: commit count %ld ahead of %ld", i, s,
				     (long)got, (long)want);
			if (got != want)
				break;
			take(r, i, c, rb_subbuf);
			__atomic_store_n(&b->consumed, c + rb_subbuf, __ATOMIC_RELEASE);
			progress++;
			r->moved[i] = lab_now_ns();
		}
	}
	return progress;
}

/* A full buffer whose oldest sub-buffer has not completed for this long lost a commit:
 * fail, and skip that sub-buffer so that the waiting writers can finish (no hang). */
#define STALL_NS (10 * 1000000000ull)

static void unstall(struct reader *r, uint64_t now)
{
	for (int i = 0; i < r->run->nbufs; i++) {
		struct rb_buf *b = &rb_bufs[i];
		intptr_t c = b->consumed;

		if (__atomic_load_n(&b->offset, __ATOMIC_RELAXED) - c < rb_size ||
		    (!r->failed && now - r->moved[i] < STALL_NS))
			continue;
		FAIL(r, "buffer %d stalled: sub-buffer at %ld never completed (commit count %ld of "
		     "%ld), a commit was lost", i, (long)c,
		     (long)committed(b, rb_sub(c)), (long)((rb_wraps(c) + 1) * rb_subbuf));
		__atomic_store_n(&b->consumed, c + rb_subbuf, __ATOMIC_RELEASE);
		r->moved[i] = now;
	}
}

static void *reader_main(void *p)
{
	struct reader *r = p;

	for (int i = 0; i < r->run->nbufs; i++)
		r->moved[i] = lab_now_ns();
	while (!r->stop) {
		if (pass(r))
			continue;
		unstall(r, lab_now_ns());
		sched_yield();
	}
	return NULL;
}

/* After the writers: the complete sub-buffers, then each buffer's partial one. */
static void drain(struct reader *r)
{
	while (pass(r))
		;
	for (int i = 0; i < r->run->nbufs; i++) {
		struct rb_buf *b = &rb_bufs[i];
		intptr_t c = b->consumed, left = b->offset - c;
		int s = rb_sub(c);

		if (left < 0 || left >= rb_subbuf) {
			FAIL(r, "buffer %d: %ld bytes reserved but not consumed", i, (long)left);
			continue;
		}
		if (committed(b, s) != rb_wraps(c) * rb_subbuf + left)
			FAIL(r, "buffer %d: commit count %ld for %ld reserved bytes", i,
			     (long)committed(b, s), (long)(rb_wraps(c) * rb_subbuf + left));
		take(r, i, c, left);
		b->consumed = c + left;
	}
}

/* Flight-recorder mode, after the writers: every commit count adds up to what was reserved,
 * and the newest records (a buffer's worth) are intact and in their writer's buffer. */
static void check_overwritten(struct reader *r)
{
	for (int i = 0; i < r->run->nbufs; i++) {
		struct rb_buf *b = &rb_bufs[i];
		intptr_t sum = 0, from = b->offset > rb_size ? b->offset - rb_size : 0;

		for (int s = 0; s < r->run->nsub; s++)
			sum += committed(b, s);
		if (sum != b->offset)
			FAIL(r, "buffer %d: %ld bytes committed, %ld reserved", i, (long)sum,
			     (long)b->offset);
		take(r, i, from, b->offset - from);
		b->read = b->offset / RB_REC;
	}
}

/* Every event of every thread read once, in the buffer its writer chose. */
static void reconcile(struct reader *r, struct rb_thread *th)
{
	const struct rb_run *run = r->run;
	uint64_t n = run->iters, want_sum = n * (n - 1) / 2, total = 0;

	for (int t = 0; t < run->nthreads && !run->overwrite; t++)
		if (r->tid_count[t] != n || r->tid_sum[t] != want_sum)
			FAIL(r, "thread %d: %llu events read (payload sum %llu), want %llu (%llu)", t,
			     (unsigned long long)r->tid_count[t], (unsigned long long)r->tid_sum[t],
			     (unsigned long long)n, (unsigned long long)want_sum);
	for (int i = 0; i < run->nbufs; i++) {
		uint64_t wrote = 0;

		for (int t = 0; t < run->nthreads; t++)
			wrote += th[t].per_buf[i];
		if (wrote != rb_bufs[i].read || rb_bufs[i].offset != (intptr_t)(wrote * RB_REC))
			FAIL(r, "buffer %d: writers put %llu records, reader took %llu, offset %ld", i,
			     (unsigned long long)wrote, (unsigned long long)rb_bufs[i].read,
			     (long)rb_bufs[i].offset);
		total += rb_bufs[i].read;
	}
	if (total != n * run->nthreads)
		FAIL(r, "%llu records read, want %d threads x %llu", (unsigned long long)total,
		     run->nthreads, (unsigned long long)n);
}

/* ---- one run ---- */

struct job {
	const struct rb_strategy *s;
	const struct rb_run *run;
	struct rb_thread *th;
};

static int setup(int tid, void *p, char *msg, size_t len)
{
	struct job *j = p;
	struct rb_thread *t = &j->th[tid];

	t->run = j->run;
	t->tid = tid;
	if (j->s->thread_setup && j->s->thread_setup(t, msg, len))
		return -1;
	return lab_disturb_start(&t->dt, &j->run->dis, tid, msg, len);
}

static void body(int tid, void *p)
{
	struct job *j = p;

	j->s->loop(&j->th[tid], j->run->iters);
}

static void teardown(int tid, void *p)
{
	struct job *j = p;

	j->th[tid].signals = lab_disturb_stop();
}

static int buffers_reset(const struct rb_run *run)
{
	size_t data = (size_t)run->nbufs * rb_size;

	rb_bufs = aligned_alloc(LAB_CACHE_LINE, run->nbufs * sizeof(*rb_bufs));
	if (!rb_bufs)
		return -1;
	memset(rb_bufs, 0, run->nbufs * sizeof(*rb_bufs));
	rb_bufs[0].data = aligned_alloc(LAB_CACHE_LINE, data);
	if (!rb_bufs[0].data)
		return -1;
	/* Touched before the timing; poisoned when checking, so an unwritten record shows. */
	memset(rb_bufs[0].data, run->check ? 0xff : 0, data);
	for (int i = 1; i < run->nbufs; i++)
		rb_bufs[i].data = rb_bufs[0].data + (size_t)i * rb_size / 4;
	return 0;
}

int rb_run(const struct rb_strategy *s, const struct rb_run *run, const int *pin_cpus,
	   struct rb_outcome *out)
{
	int n = run->nthreads;
	struct rb_thread *th = aligned_alloc(LAB_CACHE_LINE, n * sizeof(*th));
	/* Each thread's counts on whole cache lines of their own. */
	size_t per_buf = ((size_t)run->nbufs * sizeof(uint64_t) + LAB_CACHE_LINE - 1) & ~(size_t)(LAB_CACHE_LINE - 1);
	struct reader r = { .run = run };
	struct job j = { s, run, th };
	struct lab_thread_job job = { n, pin_cpus, &j, setup, body, teardown };
	pthread_t rt;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (th)
		memset(th, 0, n * sizeof(*th));
	if (!rb_pow2(run->subbuf) || !rb_pow2(run->nsub)) {
		snprintf(out->error, sizeof(out->error), "sub-buffer size %ld and count %d must be "
			 "powers of two", (long)run->subbuf, run->nsub);
		free(th);
		return -1;
	}
	rb_subbuf = run->subbuf;
	rb_size = run->subbuf * run->nsub;
	rb_mask = rb_size - 1;
	rb_sub_shift = __builtin_ctzl((unsigned long)run->subbuf);
	rb_size_shift = __builtin_ctzl((unsigned long)rb_size);
	rb_overwrite = run->overwrite;
	r.tid_count = calloc(n, sizeof(uint64_t));
	r.tid_sum = calloc(n, sizeof(uint64_t));
	r.moved = calloc(run->nbufs, sizeof(uint64_t));
	if (run->check)
		r.seen = calloc((n * run->iters + 7) / 8, 1);
	if (!th || !r.tid_count || !r.tid_sum || !r.moved || (run->check && !r.seen) || buffers_reset(run)) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		goto done;
	}
	for (int i = 0; i < n; i++)
		if (!(th[i].per_buf = aligned_alloc(LAB_CACHE_LINE, per_buf))) {
			snprintf(out->error, sizeof(out->error), "out of memory");
			goto done;
		} else {
			memset(th[i].per_buf, 0, per_buf);
		}
	if (!run->overwrite && pthread_create(&rt, NULL, reader_main, &r)) {
		snprintf(out->error, sizeof(out->error), "cannot start the reader");
		goto done;
	}
	out->wall_ns = lab_threads_run(&job, out->error, sizeof(out->error));
	r.stop = 1;
	if (!run->overwrite)
		pthread_join(rt, NULL);
	if (out->wall_ns < 0)
		goto done;
	if (run->overwrite)
		check_overwritten(&r);
	else
		drain(&r);
	reconcile(&r, th);
	for (int i = 0; i < n; i++) {
		out->aborts += th[i].aborts;
		out->remote += th[i].remote;
		out->waits += th[i].waits;
		out->signals += th[i].signals;
	}
	for (int i = 0; i < run->nbufs; i++)
		out->read += rb_bufs[i].read;
	if (r.failed) {
		snprintf(out->error, sizeof(out->error), "%s", r.error);
		goto done;
	}
	ret = 0;
done:
	for (int i = 0; th && i < n; i++)
		free(th[i].per_buf);
	if (rb_bufs)
		free(rb_bufs[0].data);
	free(rb_bufs);
	rb_bufs = NULL;
	free(th);
	free(r.tid_count);
	free(r.tid_sum);
	free(r.moved);
	free(r.seen);
	return ret;
}
