/* SPDX-License-Identifier: MIT */
/*
 * The rseq writer, built against the kernel tree's own rseq helpers (selftests rseq.h and
 * rseq-x86.h, compiled in place): reserve is rseq_cmpeqv_storev on the current CPU's write
 * offset (compare with the offset read before, store offset + 8, committed only if the thread
 * is still on that CPU and was not preempted), commit is rseq_addv on that CPU's commit count.
 * A writer that migrated between the two commits with an atomic add on the other counter.
 */
#define _GNU_SOURCE
#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "ringbuf-buf.h"

static int setup(struct rb_thread *t, char *msg, size_t len)
{
	(void)t;
	return lab_st_rseq_register(msg, len);
}

static inline void write_rseq(struct rb_thread *t, int disturbed)
{
	struct rb_buf *b;
	intptr_t off;
	int cpu, ret;

	for (;;) {
		cpu = (int)rseq_cpu_start();
		b = &rb_bufs[cpu];
		off = RSEQ_READ_ONCE(b->offset);
		if (rb_full(b, off)) {
			rb_wait(t);
			continue;
		}
		ret = rseq_cmpeqv_storev(&b->offset, off, off + RB_REC, cpu);
		if (!ret)
			break;
		if (ret < 0)
			t->aborts++; /* else another writer on this CPU reserved first */
	}
	rb_write(b, off, t->tid, cpu, t->seq++);
	rb_between(t, disturbed);
	/* The record's stores are ordered before the commit's store (x86 TSO; the asm has a
	 * memory clobber for the compiler). */
	while (rseq_addv(&b->commit_cpu[rb_sub(off)], RB_REC, cpu)) {
		if (rseq_current_cpu_raw() != cpu) {
			__atomic_fetch_add(&b->commit_atomic[rb_sub(off)], RB_REC, __ATOMIC_RELEASE);
			t->remote++;
			break;
		}
		t->aborts++;
	}
	t->per_buf[cpu]++;
}

RB_LOOP(loop_rseq, write_rseq)

const struct rb_strategy rb_rseq = {
	"ringbuf-rseq", "rseq reserve (cmpeqv_storev) + rseq commit (addv)",
	"ringbuf-getcpu-atomic", 1, 0, 98.0, lab_st_rseq_path, setup, loop_rseq,
};
