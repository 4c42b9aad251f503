/* SPDX-License-Identifier: MIT */
/*
 * lab-ringbuf: a tracer's per-CPU ring buffer (the seed's LTTng-UST row). Each buffer is NSUB
 * sub-buffers of SUBBUF bytes; a writer reserves 8 bytes by advancing the free-running write
 * offset, writes a 32-bit header and a 32-bit payload, and commits by adding 8 to the
 * sub-buffer's commit count; a reader thread takes a sub-buffer once its commit count says
 * every record in it is complete, checks every record, and hands the space back (consumed).
 * A writer that finds the buffer full waits for the reader (no record is ever dropped).
 * Timed runs use the flight-recorder (overwrite) mode instead: no reader runs, so the figure is
 * the writer's path alone; afterwards the counts are reconciled and the newest buffer's worth
 * of records in every buffer is checked.
 */
#ifndef LAB_RINGBUF_BUF_H
#define LAB_RINGBUF_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "lab/cacheline.h"
#include "lab/disturb.h"

#define RB_REC 8       /* header + payload */
#define RB_MAX_SUB 64

/*
 * Commit counts are cumulative over wraps: sub-buffer s is complete for wrap w when
 * commit_cpu[s] + commit_atomic[s] == (w + 1) * SUBBUF. Two counters because an rseq add is a
 * plain load/add/store that only its CPU's threads may do; a writer that migrated between
 * reserve and commit adds atomically to the other one (an rseq add and a remote atomic add
 * on the same word could lose an update).
 */
struct rb_buf {
	intptr_t offset __attribute__((aligned(LAB_CACHE_LINE)));   /* bytes reserved, ever */
	intptr_t consumed __attribute__((aligned(LAB_CACHE_LINE))); /* bytes handed back by the reader */
	intptr_t commit_cpu[RB_MAX_SUB] __attribute__((aligned(LAB_CACHE_LINE)));
	intptr_t commit_atomic[RB_MAX_SUB] __attribute__((aligned(LAB_CACHE_LINE)));
	uint32_t *data;
	uint64_t read; /* records the reader took from this buffer */
} __attribute__((aligned(LAB_CACHE_LINE)));

struct rb_run {
	int nthreads;
	uint64_t iters;     /* events per thread */
	int nbufs;          /* per-CPU: highest CPU + 1; per-thread: nthreads */
	intptr_t subbuf;    /* bytes, a power of two */
	int nsub;           /* a power of two */
	int check;          /* --check: exactly-once bitmap, poisoned sub-buffers */
	int overwrite;      /* flight-recorder mode for timing: no reader during the run */
	struct lab_disturb dis;
};

/* Each writer's state on its own cache line(s): writers on two CPUs never share one. */
struct rb_thread {
	const struct rb_run *run;
	struct lab_disturb_thread dt;
	int tid;
	uint32_t seq;            /* next event's payload */
	uint64_t aborts, remote, waits, signals;
	uint64_t *per_buf;       /* records this thread put in each buffer (run->nbufs), its own
				  * cache lines */
} __attribute__((aligned(LAB_CACHE_LINE)));

/* Shared between the strategy files. */
extern struct rb_buf *rb_bufs;
extern intptr_t rb_mask, rb_size; /* size = subbuf * nsub, mask = size - 1 */
extern intptr_t rb_subbuf;
extern int rb_sub_shift, rb_size_shift; /* log2 subbuf, log2 size: sizes are powers of two */
extern int rb_overwrite;

/* The sub-buffer an offset falls in: a shift and a mask, as a tracer does, not two divisions. */
static inline int rb_sub(intptr_t off)
{
	return (int)((off >> rb_sub_shift) & (rb_mask >> rb_sub_shift));
}

static inline int rb_pow2(intptr_t v)
{
	return v > 0 && !(v & (v - 1));
}

/* How many times the buffer has wrapped by offset off. */
static inline intptr_t rb_wraps(intptr_t off)
{
	return off >> rb_size_shift;
}

/* Header: check byte (24..31), thread (12..23), buffer the writer chose (0..11). */
static inline uint32_t rb_check_byte(uint32_t tid, uint32_t cpu, uint32_t seq)
{
	uint32_t h = seq * 0x9e3779b1u ^ tid * 0x85ebca6bu ^ cpu * 0xc2b2ae35u;

	return (h ^ h >> 16 ^ h >> 24) & 0xff;
}

static inline uint32_t rb_header(uint32_t tid, uint32_t cpu, uint32_t seq)
{
	return rb_check_byte(tid, cpu, seq) << 24 | (tid & 0xfff) << 12 | (cpu & 0xfff);
}

/* Write the record at a reserved offset: header then payload, two 32-bit stores. */
static inline void rb_write(struct rb_buf *b, intptr_t off, uint32_t tid, uint32_t cpu,
			    uint32_t seq)
{
	volatile uint32_t *p = b->data + ((off & rb_mask) >> 2);

	p[0] = rb_header(tid, cpu, seq);
	p[1] = seq;
}

/* The buffer is full from off on: wait for the reader. */
static inline int rb_full(struct rb_buf *b, intptr_t off)
{
	return !rb_overwrite && off - __atomic_load_n(&b->consumed, __ATOMIC_ACQUIRE) >= rb_size;
}

void rb_wait(struct rb_thread *t);

struct rb_strategy {
	const char *name, *label, *versus;
	int rseq, per_thread;
	double seed_ns;
	const char *(*path)(void);
	int (*thread_setup)(struct rb_thread *t, char *msg, size_t len);
	void (*loop)(struct rb_thread *t, uint64_t n);
};

extern const struct rb_strategy rb_getcpu_atomic, rb_rseq, rb_per_thread;

/* The loop every strategy uses: n events, a disturbance check only when asked. */
/* op(t, disturbed) writes one event; disturbed is a constant, so the timed loop has none of
 * the between-reserve-and-commit disturbance (rb_between). */
#define RB_LOOP(name, op)                                                  \
	static void name(struct rb_thread *t, uint64_t n)                  \
	{                                                                  \
		if (!t->run->dis.what) {                                   \
			for (uint64_t i = 0; i < n; i++)                   \
				op(t, 0);                                  \
			return;                                            \
		}                                                          \
		for (uint64_t i = 0; i < n; i++) {                         \
			op(t, 1);                                          \
			lab_disturb_tick(&t->dt);                          \
		}                                                          \
	}

/* Disturbed runs: every 7th event the thread yields or migrates between its reserve and its
 * commit, so that commits from another CPU (the rseq writer's fallback) really happen. */
static inline void rb_between(struct rb_thread *t, int disturbed)
{
	if (disturbed && t->seq % 7 == 0 && (t->run->dis.what & (LAB_DIS_YIELD | LAB_DIS_MIGRATE)))
		lab_disturb_now(&t->dt);
}


/* One run: buffers reset, reader started, writers timed, everything drained and checked. */
struct rb_outcome {
	double wall_ns;
	uint64_t aborts, remote, waits, signals, read;
	char error[256];
};
int rb_run(const struct rb_strategy *s, const struct rb_run *run, const int *pin_cpus,
	   struct rb_outcome *out);

#endif
