/* SPDX-License-Identifier: MIT */
/*
 * The schedule exploration (explore.h): a stateful, bounded exploration of a strategy's
 * schedules, run on the real strategy code by single-stepping its threads with ptrace.
 *
 * The model. Threads T0 and T1 start on CPU a, T2 on CPU b (il-child.c runs them). On each
 * CPU one thread is current. A schedule is a sequence of transitions:
 *  - step: the current thread of a CPU runs one instruction that touches memory another
 *    thread may touch (or reads its CPU, or is inside an rseq critical section), and then
 *    every instruction after it that touches only its own stack, thread state and TLS. Steps of
 *    the two CPUs' current threads interleave freely: the CPUs run in parallel.
 *  - preempt: a CPU switches from its current thread to another of its threads;
 *  - signal: the current thread is signalled (its handler does nothing);
 *  - migrate: the current thread moves to the other CPU, where it becomes current (the
 *    thread it displaces is preempted).
 * Each of the last three aborts a critical section the thread is in, as the kernel does:
 * checks the abort signature, clears rseq_cs, resumes at the abort handler. At most `bound`
 * of them happen in a schedule (preemption bounding, as in CHESS). A thread that finishes, or
 * waits on a futex whose word has not changed, hands its CPU on without counting.
 *
 * The exploration is depth-first over states: the threads' registers, CPUs and which is
 * current, the events left, and a hash of every byte any instruction or the kernel wrote
 * (logged from the decoded instruction, il-decode.h, so that going back is undoing the log).
 * A state seen before with as many events left is not explored again. Every store is checked
 * for ownership; every finished schedule for the shape's invariant (il-child.c).
 *
 * The real kernel must not abort a section on its own: every ptrace stop is a deschedule, so
 * across each step of a thread whose rseq_cs is set its rseq_cs is cleared, and put back after.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#include "explore.h"
#include "il-model.h"

#if LAB_EX_SUPPORTED

#ifndef PTRACE_GET_RSEQ_CONFIGURATION
#define PTRACE_GET_RSEQ_CONFIGURATION 0x420f
#endif
struct il_rseq_conf {
	uint64_t abi;
	uint32_t size, sig, flags, pad;
};
/* The kernel's ABI: struct rseq_cs, and the fields of struct rseq the model reads. */
struct il_rseq_cs {
	uint32_t version, flags;
	uint64_t start_ip, post_commit_offset, abort_ip;
};
#define IL_AREA 32          /* the bytes of struct rseq the check follows */
#define IL_CPU_ID 4
#define IL_RSEQ_CS 8

#define IL_MAX_STATES 3000000
#define IL_MAX_DEPTH 100000
#define IL_MAX_RUN 100000       /* instructions of one thread in one schedule before "no end" */
#define IL_SYSCALL_MS 2000      /* a syscall not back by then blocks */
#define IL_MAX_RUNS 8           /* at the full bound */

enum { IL_STEP, IL_SIGNAL, IL_SWITCH, IL_MIGRATE };

struct il_thr {
	il_regs regs;
	il_fpregs fp;
	int8_t cpu;          /* 0: CPU a, 1: CPU b */
	uint8_t done;
	uint8_t stored;      /* it is in a section and has stored there */
	uint8_t loadlen, spinlen;
	uint64_t loaded, loadval; /* what its last load of shared memory read, where */
	uint64_t spin, spun; /* it spins (a spin-wait hint) until the spinlen bytes at spin are
				not spun */
	uint64_t run;        /* instructions so far in this schedule */
	uint64_t abort_pc;   /* where its last abort interrupted it, 0 after a store it owns */
	uint64_t abort_at;   /* ... and that section's start (its abort handler, often in an ELF
				section of its own, has no line) */
};

/* Happens-before, for the data races between the CPUs (vector clocks, one entry a thread). */
struct il_vc {
	uint32_t c[IL_NT];
};

struct il_state {
	struct il_thr th[IL_NT];
	int8_t cur[2];
	int8_t budget;
	uint64_t memhash;
	/* not the state's identity: what the path ordered (each thread's clock, and each CPU's:
	   whatever ran on a CPU happened before what runs there next) */
	struct il_vc vc[IL_NT], cpuvc[2];
};

/* A word's accesses so far on the path: its last plain write (thread, clock), each thread's
 * last plain read, and what the last release of it (an atomic or synchronising access) knew. */
struct il_hb {
	uint64_t w;
	int8_t wt;
	uint32_t wc, rc[IL_NT];
	struct il_vc rel;
};

/* One transition of the path, for the refusal's schedule. */
struct il_rec {
	uint8_t kind, write, has, cpu_read, aborted, aborted2;
	int8_t t, cpu, other;
	uint64_t pc, addr, val;
	uint32_t size;
};

struct il_tr {
	uint8_t kind;
	int8_t t, other;
};

struct il_frame {
	struct il_state s;
	size_t undo, hbundo;
	struct il_rec rec;
	int ntr, next;
	struct il_tr tr[16];
	/* sleep sets (Godefroid): the steps not to take here, because a step independent of
	   them was taken instead, whose other order is explored elsewhere; and each thread's
	   next instruction, what a step's independence is judged by */
	uint8_t sleep, taken;
	struct il_insn first[IL_NT];
};

struct il_undo {
	uint64_t addr;
	uint32_t len;
	uint8_t old[64];
};

/* Bytes written in the first schedule, by which threads: the strategy's own per-CPU data,
 * when it does not declare it, is what both of CPU a's threads wrote and T2 did not. */
struct il_wrote {
	uint64_t addr;
	uint32_t len;
	uint8_t mask;
};

struct il_x {
	const struct lab_strategy *c;
	struct il_shared *sh;
	struct lab_ex_result *r;
	pid_t pid, tid[IL_NT];
	int ncpu, cpus[2];
	int here;                        /* the CPU the explorer runs on, -1 unpinned */
	int last_t, last_cpu;            /* the thread of the transition applied last, its CPU */
	int cpu_orders;                  /* what runs on a CPU happens before what runs there next */
	int live_cpu[IL_NT];
	il_regs live[IL_NT];
	il_fpregs live_fp[IL_NT];
	uint8_t vector[IL_NT];
	uint64_t area[IL_NT];            /* each thread's struct rseq */
	uint8_t mem[IL_NT][IL_AREA];     /* ... as it is now in the child */
	uint32_t sig;
	int own_slots;                   /* a plain store to CPU c's slot needs a section on c */
	struct il_undo *undo;
	size_t nundo, capundo;
	uint64_t *vkey;
	int8_t *vbud;
	int nocache;                     /* LAB_EX_NOCACHE: every state explored as often as reached */
	uint64_t *outc;                  /* the distinct end states of this exploration (memhash) */
	size_t outcap;
	uint8_t *vsleep;
	size_t vcap;
	struct il_frame *fr;
	int depth, capfr;
	int first;                       /* still in the first schedule */
	struct il_wrote wrote[256];
	int nwrote, ninferred;
	struct il_wrote inferred[64];
	/* the words more than one thread has touched, in any schedule so far: only an access to
	   one of them is a point where the other CPU's thread may interleave */
	struct { uint64_t w; uint8_t mask, wmask, sync, racy; } *share;
	size_t sharecap;
	/* happens-before per word along the path, and its undo log (index, the entry before) */
	struct il_hb *hb;
	size_t hbcap;
	struct { size_t j; struct il_hb old; } *hbundo;
	size_t nhbundo, caphbundo;
	int grew;
	/* code, read once per pc */
	struct { uint64_t pc; uint8_t b[16]; uint8_t n; } code[4096];
	/* the refusal */
	int failed;
	uint64_t fpc;
	char ftext[80];
};

/* ---- small things ---- */

static uint64_t il_mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t il_zob(uint64_t addr, uint8_t v)
{
	return il_mix(addr * 0x100 + v);
}

static uint64_t il_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, b + i, 8);
		h = il_mix(h ^ w);
	}
	return h;
}

static int il_fail(struct il_x *x, int status, uint64_t pc, const char *text, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int il_fail(struct il_x *x, int status, uint64_t pc, const char *text, const char *fmt, ...)
{
	va_list ap;

	if (x->failed)
		return -1;
	x->failed = 1;
	x->r->status = status;
	x->fpc = pc;
	snprintf(x->ftext, sizeof(x->ftext), "%s", text ? text : "");
	va_start(ap, fmt);
	vsnprintf(x->r->error, sizeof(x->r->error), fmt, ap);
	va_end(ap);
	return -1;
}

static const uint8_t *il_code(struct il_x *x, uint64_t pc, size_t *n)
{
	__typeof__(x->code[0]) *e = &x->code[(pc ^ (pc >> 10)) % 4096];

	if (e->pc != pc || !e->n) {
		e->pc = pc;
		e->n = 0;
		for (size_t k = 16; k >= 1 && !e->n; k /= 2)
			if (!il_mem_read(x->pid, pc, e->b, k))
				e->n = (uint8_t)k;
	}
	*n = e->n;
	return e->b;
}

static int il_decode_at(struct il_x *x, const il_regs *r, struct il_insn *in)
{
	size_t n;
	const uint8_t *b = il_code(x, IL_PC(r), &n);

	if (!n || il_decode(IL_PC(r), b, n, r, in))
		return -1;
	/* a futex wake changes nothing the model follows (a waiter runs again once its word
	   changes, il_blocked): it is a step of the thread's own, not a point */
	if (in->syscall && IL_SYSNR(r) == SYS_futex &&
	    ((IL_ARG1(r) & FUTEX_CMD_MASK) == FUTEX_WAKE ||
	     (IL_ARG1(r) & FUTEX_CMD_MASK) == FUTEX_WAKE_BITSET))
		in->syscall = 0;
	return 0;
}

/* A struct rseq_cs of the child (they are constant: read once each). */
static int il_desc(struct il_x *x, uint64_t p, struct il_rseq_cs *d)
{
	static struct { uint64_t p; struct il_rseq_cs d; } cache[64];
	__typeof__(cache[0]) *e = &cache[(p >> 5) % 64];

	if (e->p != p) {
		if (il_mem_read(x->pid, p, &e->d, sizeof(e->d)))
			return -1;
		e->p = p;
	}
	*d = e->d;
	return 0;
}

/* Thread i's critical section if pc is inside it: 1 and d filled. */
static int il_cs(struct il_x *x, int i, uint64_t pc, struct il_rseq_cs *d)
{
	uint64_t p;

	memcpy(&p, x->mem[i] + IL_RSEQ_CS, 8);
	if (!p || il_desc(x, p, d))
		return 0;
	return pc - d->start_ip < d->post_commit_offset;
}

static int il_in_area(struct il_x *x, uint64_t a, uint32_t len, int *who)
{
	for (int i = 0; i < IL_NT; i++)
		if (a < x->area[i] + IL_AREA && a + len > x->area[i]) {
			*who = i;
			return 1;
		}
	return 0;
}

/* What only thread i touches: its stack, its lab_pc_thread, its TLS (not its struct rseq). */
static int il_private(struct il_x *x, int i, const il_regs *r, uint64_t a)
{
	uint64_t fs = r->fs_base;
	int who;

	if (il_in_area(x, a, 1, &who))
		return 0;
	if (a >= x->sh->stack_lo[i] && a < x->sh->stack_hi[i])
		return 1;
	if (a >= x->sh->thread[i] && a < x->sh->thread[i] + sizeof(struct lab_pc_thread))
		return 1;
	return a >= fs - x->sh->tls_size - 64 && a < fs + 4096;
}

/* Whose data a byte is: the CPU (real number) that owns it, or -1. */
static int il_owner(struct il_x *x, uint64_t a)
{
	const struct lab_pc_percpu *p = &x->sh->percpu;

	/* under a lock, the lock protects the data: no CPU owns it */
	if (!strcmp(x->c->shape, "lock"))
		return -1;
	if (x->own_slots && a >= x->sh->slots &&
	    a < x->sh->slots + (uint64_t)x->sh->nslots * sizeof(struct lab_pc_slot))
		return (int)((a - x->sh->slots) / sizeof(struct lab_pc_slot));
	if (p->base && p->stride && a >= (uint64_t)(uintptr_t)p->base) {
		uint64_t off = a - (uint64_t)(uintptr_t)p->base;

		if (off / p->stride < (uint64_t)p->count && off % p->stride < p->size)
			return (int)(off / p->stride);
	}
	for (int k = 0; k < x->ninferred; k++)
		if (a - x->inferred[k].addr < x->inferred[k].len)
			return x->cpus[0];
	return -1;
}

/* ---- what is shared ---- */

static __typeof__(((struct il_x *)0)->share) il_share_slot(struct il_x *x, uint64_t w, int insert)
{
	size_t m = x->sharecap - 1, j = il_mix(w) & m;

	for (;; j = (j + 1) & m) {
		if (x->share[j].w == w + 1)
			return &x->share[j];
		if (!x->share[j].w) {
			if (!insert)
				return NULL;
			x->share[j].w = w + 1;
			return &x->share[j];
		}
	}
}

/* A word is shared when two threads touch it and one of them writes it. */
#define IL_SHARED(e) (((e)->mask & ((e)->mask - 1)) && (e)->wmask)

static void il_share_note(struct il_x *x, int i, uint64_t a, uint32_t len, int write)
{
	for (uint64_t w = a >> 3; w <= (a + len - 1) >> 3; w++) {
		__typeof__(x->share) e = il_share_slot(x, w, 1);
		int was = IL_SHARED(e);

		e->mask |= (uint8_t)(1 << i);
		if (write)
			e->wmask |= (uint8_t)(1 << i);
		/* a new point: every shared word is one for an rseq strategy's events, else only a
		   synchronising or racy one */
		if (!was && IL_SHARED(e) && (x->cpu_orders || e->sync || e->racy))
			x->grew = 1;
	}
}

/* Whether a..a+len is shared (every: by any access; else only where the CPUs' order matters:
 * a word some access synchronises on, or one a data race was found on). */
static int il_shared(struct il_x *x, uint64_t a, uint32_t len, int every)
{
	for (uint64_t w = a >> 3; w <= (a + len - 1) >> 3; w++) {
		__typeof__(x->share) e = il_share_slot(x, w, 0);

		if (e && IL_SHARED(e) && (every || e->sync || e->racy))
			return 1;
	}
	return 0;
}

/* ---- happens-before: data races between the CPUs ----
 *
 * Between the CPUs the exploration interleaves only at synchronising accesses (atomic
 * instructions, any access to a word one of them touched, futex calls) and at words a data
 * race was found on: a program without data races behaves the same under every order of its
 * plain accesses between synchronisations. The race check runs on every explored path (vector
 * clocks: a CPU orders what runs on it; a release orders what acquires the same word); a word
 * found racy is a point from then on, and the exploration runs again. For an rseq strategy, a
 * CPU orders what runs on it (a section is atomic on its CPU only through the aborts), and
 * events still fall at every shared access; a strategy without rseq is ordered by its
 * synchronisation alone, so a race on one CPU is found too, and events fall only where the
 * other CPU's steps may come between (as CHESS preempts only at synchronisation). */

static void il_vc_join(struct il_vc *a, const struct il_vc *b)
{
	for (int t = 0; t < IL_NT; t++)
		if (b->c[t] > a->c[t])
			a->c[t] = b->c[t];
}

static struct il_hb *il_hb_slot(struct il_x *x, uint64_t w)
{
	size_t m = x->hbcap - 1, j = il_mix(w) & m;

	for (;; j = (j + 1) & m)
		if (x->hb[j].w == w + 1 || !x->hb[j].w)
			return &x->hb[j];
}

/* The entry about to change, logged for going back. */
static int il_hb_log(struct il_x *x, struct il_hb *h)
{
	if (x->nhbundo == x->caphbundo) {
		x->caphbundo = x->caphbundo ? 2 * x->caphbundo : 4096;
		x->hbundo = realloc(x->hbundo, x->caphbundo * sizeof(*x->hbundo));
		if (!x->hbundo)
			return -1;
	}
	x->hbundo[x->nhbundo].j = (size_t)(h - x->hb);
	x->hbundo[x->nhbundo++].old = *h;
	return 0;
}

static void il_hb_undo_to(struct il_x *x, size_t mark)
{
	while (x->nhbundo > mark) {
		x->nhbundo--;
		x->hb[x->hbundo[x->nhbundo].j] = x->hbundo[x->nhbundo].old;
	}
}

static void il_racy(struct il_x *x, uint64_t w)
{
	__typeof__(x->share) e = il_share_slot(x, w, 1);

	if (!e->racy) {
		e->racy = 1;
		x->grew |= IL_SHARED(e);
	}
}

/* Thread i's access to a..a+len (after the step; sync: an atomic instruction or a futex). */
static int il_hb_access(struct il_x *x, struct il_state *s, int i, uint64_t a, uint32_t len,
			int write, int sync)
{
	struct il_vc *me = &s->vc[i];

	for (uint64_t w = a >> 3; w <= (a + len - 1) >> 3; w++) {
		__typeof__(x->share) e = il_share_slot(x, w, 1);
		struct il_hb *h = il_hb_slot(x, w);

		if (il_hb_log(x, h))
			return -1;
		if (!h->w) {
			memset(h, 0, sizeof(*h));
			h->w = w + 1;
			h->wt = -1;
		}
		if (sync && !e->sync) {
			e->sync = 1;
			x->grew |= IL_SHARED(e);
		}
		if (e->sync) {
			/* acquire and release */
			il_vc_join(me, &h->rel);
			h->rel = *me;
			continue;
		}
		if (h->wt >= 0 && h->wt != i && h->wc > me->c[h->wt])
			il_racy(x, w);
		if (write)
			for (int t = 0; t < IL_NT; t++)
				if (t != i && h->rc[t] > me->c[t])
					il_racy(x, w);
		if (write) {
			h->wt = (int8_t)i;
			h->wc = me->c[i];
		} else {
			h->rc[i] = me->c[i];
		}
	}
	return 0;
}

/* ---- the child's state: memory writes, logged ---- */

/* What the kernel rewrites as it pleases (struct rseq's node_id, mm_cid): not the state. */
static int il_unhashed(struct il_x *x, uint64_t a)
{
	int who;

	return il_in_area(x, a, 1, &who) && a - x->area[who] >= 16;
}

static int il_log(struct il_x *x, struct il_state *s, uint64_t addr, const uint8_t *old,
		  const uint8_t *now, uint32_t len)
{
	for (uint32_t off = 0; off < len; off += 64) {
		uint32_t n = len - off < 64 ? len - off : 64;
		struct il_undo *u;

		if (!memcmp(old + off, now + off, n))
			continue;
		if (x->nundo == x->capundo) {
			x->capundo = x->capundo ? 2 * x->capundo : 4096;
			x->undo = realloc(x->undo, x->capundo * sizeof(*x->undo));
			if (!x->undo)
				return -1;
		}
		u = &x->undo[x->nundo++];
		u->addr = addr + off;
		u->len = n;
		memcpy(u->old, old + off, n);
		for (uint32_t k = 0; k < n; k++)
			if (old[off + k] != now[off + k] && !il_unhashed(x, addr + off + k))
				s->memhash ^= il_zob(addr + off + k, old[off + k]) ^
					      il_zob(addr + off + k, now[off + k]);
	}
	return 0;
}

/* Write len bytes into the child, logged; the struct rseq copies follow. */
static int il_poke(struct il_x *x, struct il_state *s, uint64_t addr, const void *buf, uint32_t len)
{
	uint8_t old[64];
	int who;

	if (len > 64 || il_mem_read(x->pid, addr, old, len) || il_mem_write(x->pid, addr, buf, len))
		return -1;
	if (il_in_area(x, addr, len, &who))
		memcpy(x->mem[who] + (addr - x->area[who]), buf, len);
	return il_log(x, s, addr, old, buf, len);
}

static void il_undo_to(struct il_x *x, size_t mark)
{
	while (x->nundo > mark) {
		struct il_undo *u = &x->undo[--x->nundo];
		int who;

		il_mem_write(x->pid, u->addr, u->old, u->len);
		if (il_in_area(x, u->addr, u->len, &who)) {
			for (uint32_t k = 0; k < u->len; k++)
				if (u->addr + k - x->area[who] < IL_AREA)
					x->mem[who][u->addr + k - x->area[who]] = u->old[k];
		}
	}
}

/* The child's thread i as the state says: registers, vector state, CPU. */
static int il_make_live(struct il_x *x, struct il_state *s, int i)
{
	struct il_thr *th = &s->th[i];
	int cpu = x->cpus[th->cpu];

	if (memcmp(&x->live[i], &th->regs, sizeof(th->regs))) {
		if (il_regs_set(x->tid[i], &th->regs))
			return -1;
		x->live[i] = th->regs;
	}
	if (x->vector[i] && memcmp(&x->live_fp[i], &th->fp, sizeof(th->fp))) {
		if (il_fpregs_set(x->tid[i], &th->fp))
			return -1;
		x->live_fp[i] = th->fp;
	}
	if (x->live_cpu[i] != cpu) {
		il_pin(x->tid[i], cpu);
		x->live_cpu[i] = cpu;
	}
	/* the explorer waits for each single step: on the stepped thread's CPU the wake-up is
	   local (half the time per step, measured) */
	if (x->here != cpu) {
		il_pin(0, cpu);
		x->here = cpu;
	}
	return 0;
}

/* ---- the rules ---- */

static void il_name(struct il_x *x, uint64_t a, char *out, size_t len);

/* Whether the code in [from, to) has a store (to memory not thread i's own), read straight
 * through (a section is straight-line code up to its commit). */
static int il_stores_in(struct il_x *x, int i, uint64_t from, uint64_t to)
{
	for (uint64_t p = from; p < to;) {
		size_t n;
		const uint8_t *b = il_code(x, p, &n);
		struct il_insn nx;
		il_regs r = x->live[i];

		IL_PC(&r) = p;
		if (!n || il_decode(p, b, n, &r, &nx) || !nx.len)
			return 0;
		for (int k = 0; k < nx.nacc; k++)
			if (nx.acc[k].write && !il_private(x, i, &r, nx.acc[k].addr))
				return 1;
		p += nx.len;
	}
	return 0;
}

/* A store by thread i at pc (in its section d or not) changed bytes at a: may it? */
static int il_ownership(struct il_x *x, int i, uint64_t pc, const struct il_insn *in,
			int in_cs, const struct il_rseq_cs *d, uint64_t cs_ptr, uint64_t a, uint32_t len)
{
	int cpu = x->live_cpu[i], o = -1;
	char what[96];

	for (uint32_t k = 0; k < len && o < 0; k++)
		o = il_owner(x, a + k);
	if (o < 0 || in->atomic)
		return 0;
	il_name(x, a, what, sizeof(what));
	if (!in_cs) {
		struct il_rseq_cs e;

		/* the store right where the section's range ends, of a section with no store of
		   its own: the table is one short (else the store is the caller's, after the
		   section returned) */
		if (cs_ptr && !il_desc(x, cs_ptr, &e) && pc == e.start_ip + e.post_commit_offset &&
		    !il_stores_in(x, i, e.start_ip, pc))
			return il_fail(x, 1, pc, in->text, "post-commit range misses the commit: the "
				       "section [0x%llx, 0x%llx) ends before this store to CPU %d's %s, "
				       "so it runs outside the section and nothing aborts it",
				       (unsigned long long)e.start_ip,
				       (unsigned long long)(e.start_ip + e.post_commit_offset), o, what);
		if (!x->c->rseq)
			return 0;
		return il_fail(x, 1, pc, in->text, "ownership: a plain store to CPU %d's %s outside "
			       "any rseq critical section (T%d on CPU %d)", o, what, i, cpu);
	}
	if (cpu != o)
		return il_fail(x, 1, pc, in->text, "ownership: CPU %d's %s written by a section that "
			       "ran on CPU %d (T%d): the CPU it was given is not the one it runs on, "
			       "and CPU %d's own threads write it meanwhile", o, what, cpu, i, o);
	if (pc + in->len != d->start_ip + d->post_commit_offset) {
		/* another store before the section's end: this one is early; none: a late commit */
		uint64_t end = d->start_ip + d->post_commit_offset;

		if (il_stores_in(x, i, pc + in->len, end))
			return il_fail(x, 1, pc, in->text, "early store: CPU %d's %s is written inside "
				       "the section before its commit; a preemption between them aborts "
				       "a section whose first store has landed, and the retry stores again",
				       o, what);
		return il_fail(x, 1, pc, in->text, "the commit is not the section's last instruction: "
			       "%llu byte(s) of code follow it inside [0x%llx, 0x%llx); a preemption there "
			       "aborts a section that has committed, and the retry commits again",
			       (unsigned long long)(end - pc - in->len),
			       (unsigned long long)d->start_ip, (unsigned long long)end);
	}
	return 0;
}

/* The kernel's abort of thread i's section, at an event: 1 aborted, 0 not in one, -1 refused. */
static int il_abort(struct il_x *x, struct il_state *s, int i)
{
	struct il_thr *th = &s->th[i];
	struct il_rseq_cs d;
	uint64_t pc = IL_PC(&th->regs), zero = 0;
	uint32_t sig;

	if (!il_cs(x, i, pc, &d))
		return 0;
	if (d.version != 0 || d.abort_ip - d.start_ip < d.post_commit_offset)
		return il_fail(x, 1, pc, "", "invalid rseq_cs: version %u, abort handler 0x%llx inside "
			       "the section [0x%llx, 0x%llx): the kernel kills the thread (SIGSEGV) at "
			       "its first abort", d.version, (unsigned long long)d.abort_ip,
			       (unsigned long long)d.start_ip,
			       (unsigned long long)(d.start_ip + d.post_commit_offset));
	if (il_mem_read(x->pid, d.abort_ip - 4, &sig, 4) || sig != x->sig)
		return il_fail(x, 1, d.start_ip, "", "abort signature 0x%08x before the abort handler "
			       "(0x%llx) is not the one the thread registered (0x%08x): the kernel kills "
			       "the thread (SIGSEGV) at the section's first abort", sig,
			       (unsigned long long)d.abort_ip, x->sig);
	if (il_poke(x, s, x->area[i] + IL_RSEQ_CS, &zero, 8))
		return -1;
	th->abort_pc = pc;
	th->abort_at = d.start_ip;
	IL_PC(&th->regs) = d.abort_ip;
	x->r->aborts++;
	return 1;
}

/* Thread i waits on a futex whose word has not changed, or spins on a word that has not: it
 * cannot run. (A spin loop's iterations between a load and its spin-wait hint change nothing
 * another thread sees: running them again until the word changes adds states, not schedules.) */
static int il_blocked(struct il_x *x, struct il_state *s, int i)
{
	struct il_insn in;
	const il_regs *r = &s->th[i].regs;
	uint32_t w;

	if (s->th[i].spin) {
		uint64_t v = 0;

		return !il_mem_read(x->pid, s->th[i].spin, &v, s->th[i].spinlen) && v == s->th[i].spun;
	}
	if (s->th[i].done || il_decode_at(x, r, &in) || !in.syscall || IL_SYSNR(r) != SYS_futex)
		return 0;
	if ((IL_ARG1(r) & FUTEX_CMD_MASK) != FUTEX_WAIT &&
	    (IL_ARG1(r) & FUTEX_CMD_MASK) != FUTEX_WAIT_BITSET)
		return 0;
	return !il_mem_read(x->pid, IL_ARG0(r), &w, 4) && w == (uint32_t)IL_ARG2(r);
}

/* ---- one instruction ---- */

static void il_wrote_note(struct il_x *x, int i, uint64_t a, uint32_t len)
{
	for (int k = 0; k < x->nwrote; k++)
		if (x->wrote[k].addr == a && x->wrote[k].len == len) {
			x->wrote[k].mask |= (uint8_t)(1 << i);
			return;
		}
	if (x->nwrote < (int)(sizeof(x->wrote) / sizeof(x->wrote[0])))
		x->wrote[x->nwrote++] = (struct il_wrote){ a, len, (uint8_t)(1 << i) };
}

/* Thread i runs one instruction: 0, or -1 (refused or failed: x->failed). rec (if not NULL)
 * gets the instruction's first access another thread may see. */
static int il_one(struct il_x *x, struct il_state *s, int i, struct il_rec *rec)
{
	struct il_thr *th = &s->th[i];
	struct il_insn in;
	struct il_rseq_cs d;
	uint64_t pc = IL_PC(&th->regs), cs_ptr, zero = 0, addr[IL_MAX_ACC + 1], futex;
	uint8_t old[IL_MAX_ACC][64], now[IL_MAX_ACC][64], area[IL_AREA];
	void *bufs[IL_MAX_ACC + 1];
	size_t lens[IL_MAX_ACC + 1];
	int n = 0, in_cs, st, who, wrote_cs = 0, clear, idx[IL_MAX_ACC];

	if (il_make_live(x, s, i))
		return il_fail(x, 2, pc, "", "cannot set T%d's registers (ptrace: %s)", i, strerror(errno));
	if (il_decode_at(x, &th->regs, &in))
		return il_fail(x, 2, pc, in.text, "cannot decode the instruction at 0x%llx (%s)",
			       (unsigned long long)pc, in.text);
	if (in.vector && !x->vector[i]) {
		x->vector[i] = 1;
		if (il_fpregs_get(x->tid[i], &th->fp))
			return il_fail(x, 2, pc, in.text, "cannot read T%d's vector registers", i);
		x->live_fp[i] = th->fp;
	}
	memcpy(&cs_ptr, x->mem[i] + IL_RSEQ_CS, 8);
	futex = in.syscall && IL_SYSNR(&th->regs) == SYS_futex ? IL_ARG0(&th->regs) : 0;
	in_cs = il_cs(x, i, pc, &d);
	if (!in_cs)
		th->stored = 0;
	th->spin = 0;
	/* every operand is compared around the step, not only those the decoder says it writes:
	   what changed is logged (Capstone 4 marks some read-modify-writes as reads) */
	for (int k = 0; k < in.nacc; k++) {
		idx[k] = -1;
		if (!in.acc[k].write && in.acc[k].size > 64)
			continue;
		if (in.acc[k].size > 64)
			return il_fail(x, 2, pc, in.text, "a store of %u bytes at once, which the check "
				       "does not follow", in.acc[k].size);
		if (il_in_area(x, in.acc[k].addr, in.acc[k].size, &who)) {
			wrote_cs |= who == i && in.acc[k].write &&
				    in.acc[k].addr < x->area[i] + IL_RSEQ_CS + 8 &&
				    in.acc[k].addr + in.acc[k].size > x->area[i] + IL_RSEQ_CS;
			continue;
		}
		idx[k] = n;
		addr[n] = in.acc[k].addr;
		bufs[n] = old[n];
		lens[n] = in.acc[k].size;
		n++;
	}
	if (n && il_mem_readv(x->pid, addr, bufs, lens, n))
		return il_fail(x, 1, pc, in.text, "a store to unmapped memory (0x%llx)",
			       (unsigned long long)addr[0]);
	if (rec) {
		rec->has = 0;
		rec->cpu_read = in.cpu_read;
		for (int k = 0; k < in.nacc && !rec->has; k++)
			if (!il_private(x, i, &th->regs, in.acc[k].addr)) {
				rec->has = 1;
				rec->addr = in.acc[k].addr;
				rec->size = in.acc[k].size;
				rec->write = in.acc[k].write && !in.acc[k].read ? 1 : in.acc[k].write ? 2 : 0;
				rec->val = 0;
				if (il_in_area(x, rec->addr, 4, &who) && rec->addr == x->area[who] + IL_CPU_ID)
					rec->val = (uint64_t)(unsigned)x->live_cpu[i];
			}
	}
	/* across this step, the kernel must not abort the section (see the top of the file), nor
	   one the step enters (a branch back into it, a section's first instruction): while a
	   section is registered, rseq_cs is cleared across every step */
	clear = cs_ptr != 0;
	if (clear && il_mem_write(x->pid, x->area[i] + IL_RSEQ_CS, &zero, 8))
		return il_fail(x, 2, pc, in.text, "cannot write T%d's rseq_cs", i);
	if (ptrace(PTRACE_SINGLESTEP, x->tid[i], NULL, NULL))
		return il_fail(x, 2, pc, in.text, "cannot step T%d (ptrace: %s)", i, strerror(errno));
	st = il_wait(x->tid[i], in.syscall ? IL_SYSCALL_MS : -1);
	x->r->steps++;
	if (st == 0)
		return il_fail(x, 2, pc, in.text, "T%d blocks in syscall %llu, which the check does "
			       "not model", i, (unsigned long long)IL_SYSNR(&th->regs));
	if (st < 0 || (st & 0xff) != SIGTRAP) {
		uint32_t sig = 0;
		int s_ = st < 0 ? 0 : st & 0xff;

		/* a bad signature: the kernel refuses the section (even once it has ended) */
		if (s_ == SIGSEGV && cs_ptr && !il_mem_read(x->pid, cs_ptr, &d, sizeof(d)) &&
		    !il_mem_read(x->pid, d.abort_ip - 4, &sig, 4) && sig != x->sig)
			return il_fail(x, 1, d.start_ip, "", "abort signature 0x%08x before the abort "
				       "handler is not the one the thread registered (0x%08x): the "
				       "kernel killed the thread (SIGSEGV) at a preemption", sig, x->sig);
		return il_fail(x, 1, pc, in.text, "crashed (%s%s) in T%d", s_ ? "SIG" : "exit",
			       s_ ? (sigabbrev_np(s_) ? sigabbrev_np(s_) : "?") : "", i);
	}
	if (il_regs_get(x->tid[i], &th->regs))
		return il_fail(x, 2, pc, in.text, "cannot read T%d's registers", i);
	x->live[i] = th->regs;
	if (x->vector[i]) {
		il_fpregs_get(x->tid[i], &th->fp);
		x->live_fp[i] = th->fp;
	}
	addr[n] = x->area[i];
	for (int k = 0; k < n; k++)
		bufs[k] = now[k];
	bufs[n] = area;
	lens[n] = IL_AREA;
	if (il_mem_readv(x->pid, addr, bufs, lens, n + 1))
		return il_fail(x, 2, pc, in.text, "cannot read the child's memory");
	if (clear && !wrote_cs && !memcmp(area + IL_RSEQ_CS, &zero, 8)) {
		il_mem_write(x->pid, x->area[i] + IL_RSEQ_CS, &cs_ptr, 8);
		memcpy(area + IL_RSEQ_CS, &cs_ptr, 8);
	}
	if (x->cpu_orders)
		il_vc_join(&s->vc[i], &s->cpuvc[th->cpu]);
	if (futex && il_hb_access(x, s, i, futex, 4, 1, 1))
		return il_fail(x, 2, pc, in.text, "out of memory");
	for (int k = 0; k < in.nacc; k++) {
		if (il_in_area(x, in.acc[k].addr, in.acc[k].size, &who) ||
		    il_private(x, i, &th->regs, in.acc[k].addr))
			continue;
		il_share_note(x, i, in.acc[k].addr, in.acc[k].size, in.acc[k].write);
		if (il_hb_access(x, s, i, in.acc[k].addr, in.acc[k].size, in.acc[k].write, in.atomic))
			return il_fail(x, 2, pc, in.text, "out of memory");
	}
	s->vc[i].c[i]++;
	s->cpuvc[th->cpu] = s->vc[i];
	/* the value a load read, for a spin-wait hint after it */
	for (int k = 0; k < in.nacc; k++)
		if ((in.acc[k].read || !in.acc[k].write) && in.acc[k].size <= 8 && idx[k] >= 0 &&
		    !il_private(x, i, &th->regs, in.acc[k].addr)) {
			th->loaded = in.acc[k].addr;
			th->loadlen = (uint8_t)in.acc[k].size;
			th->loadval = 0;
			memcpy(&th->loadval, now[idx[k]], in.acc[k].size);
		}
	if (in.spin_hint && th->loaded) {
		th->spin = th->loaded;
		th->spinlen = th->loadlen;
		th->spun = th->loadval;
	}
	for (int k = 0; k < n; k++) {
		if (!memcmp(old[k], now[k], lens[k]))
			continue;
		th->stored |= in_cs && !il_private(x, i, &th->regs, addr[k]);
		if (il_log(x, s, addr[k], old[k], now[k], (uint32_t)lens[k]))
			return il_fail(x, 2, pc, in.text, "out of memory");
		if (x->first && !il_private(x, i, &th->regs, addr[k]))
			il_wrote_note(x, i, addr[k], (uint32_t)lens[k]);
		if (il_owner(x, addr[k]) >= 0)
			th->abort_pc = 0;
		if (il_ownership(x, i, pc, &in, in_cs, &d, cs_ptr, addr[k], (uint32_t)lens[k]))
			return -1;
	}
	if (memcmp(area, x->mem[i], IL_AREA)) {
		if (il_log(x, s, x->area[i], x->mem[i], area, IL_AREA))
			return il_fail(x, 2, pc, in.text, "out of memory");
		memcpy(x->mem[i], area, IL_AREA);
	}
	if (++th->run > IL_MAX_RUN)
		return il_fail(x, 1, pc, in.text, "no end: T%d ran %d instructions in one schedule "
			       "(a retry that never succeeds?)", i, IL_MAX_RUN);
	return 0;
}

/* Before an instruction of thread i that touches a shared word (il_shared: where the other
 * CPU's step may come between; every: where a preemption may), or a syscall. */
static int il_interleave_point(struct il_x *x, struct il_state *s, int i, int every)
{
	struct il_thr *th = &s->th[i];
	struct il_insn in;
	int who;

	if (th->done || il_decode_at(x, &th->regs, &in) || in.syscall)
		return 1;
	for (int k = 0; k < in.nacc; k++)
		if (!il_in_area(x, in.acc[k].addr, in.acc[k].size, &who) &&
		    !il_private(x, i, &th->regs, in.acc[k].addr) &&
		    (il_shared(x, in.acc[k].addr, in.acc[k].size, every) ||
		     (in.atomic && il_shared(x, in.acc[k].addr, in.acc[k].size, 1))))
			return 1;
	return 0;
}

/* Whether an event may fall on thread i here. Inside a section before its first store, every
 * place is the same as the section's start: the abort discards loads only, which no other
 * thread saw (an abort handler that reads what the section loaded is not modelled). */
static int il_event_here(struct il_x *x, struct il_state *s, int i)
{
	struct il_rseq_cs d;
	uint64_t pc = IL_PC(&s->th[i].regs);

	return !il_cs(x, i, pc, &d) || pc == d.start_ip || s->th[i].stored;
}

/* Where a step of thread i ends: at an interleaving point; and, while events are left and
 * one may fall here (il_event_here), where it may fall differently: at a section's start,
 * before a CPU read or an access to its struct rseq. (Right after an instruction is the
 * same place as right before the next point: only the thread's own state lies between.) */
static int il_point(struct il_x *x, struct il_state *s, int i)
{
	struct il_thr *th = &s->th[i];
	struct il_insn in;
	struct il_rseq_cs d;

	if (IL_PC(&th->regs) == (uint64_t)(uintptr_t)il_history_end) {
		th->done = 1;
		return 1;
	}
	if (th->spin)
		return 1;
	if (s->budget > 0 && il_event_here(x, s, i)) {
		int who;

		if (il_cs(x, i, IL_PC(&th->regs), &d) && IL_PC(&th->regs) == d.start_ip)
			return 1;
		if (il_decode_at(x, &th->regs, &in) || in.cpu_read)
			return 1;
		for (int k = 0; k < in.nacc; k++)
			if (il_in_area(x, in.acc[k].addr, in.acc[k].size, &who))
				return 1;
		if (il_interleave_point(x, s, i, x->cpu_orders))
			return 1;
	}
	return il_interleave_point(x, s, i, 0);
}

/* ---- the exploration ---- */

/* A state seen with as many events left and no step asleep that is awake now needs no second
 * exploration: 0. Else 1, the entry updated. */
static int il_visit(struct il_x *x, uint64_t key, int budget, uint8_t sleep)
{
	size_t m = x->vcap - 1, j = key & m;

	if (x->nocache)
		return 1;
	for (;; j = (j + 1) & m) {
		if (!x->vkey[j]) {
			x->vkey[j] = key | 1;
			x->vbud[j] = (int8_t)budget;
			x->vsleep[j] = sleep;
			return 1;
		}
		if (x->vkey[j] == (key | 1)) {
			if (x->vbud[j] >= budget && !(x->vsleep[j] & ~sleep))
				return 0;
			if (budget > x->vbud[j]) {
				x->vbud[j] = (int8_t)budget;
				x->vsleep[j] = sleep;
			} else if (budget == x->vbud[j]) {
				x->vsleep[j] &= sleep;
			}
			return 1;
		}
	}
}

/* Steps of two threads commute when their first instructions touch no byte in common that
 * one of them writes (the rest of a step touches only its thread's own memory). */
static int il_independent(const struct il_insn *a, const struct il_insn *b)
{
	if (a->syscall || b->syscall)
		return 0;
	for (int k = 0; k < a->nacc; k++)
		for (int l = 0; l < b->nacc; l++)
			if ((a->acc[k].write || b->acc[l].write) &&
			    a->acc[k].addr < b->acc[l].addr + b->acc[l].size &&
			    b->acc[l].addr < a->acc[k].addr + a->acc[k].size)
				return 0;
	return 1;
}

static uint64_t il_key(struct il_x *x, const struct il_state *s)
{
	uint64_t h = s->memhash ^ il_mix((uint64_t)(uint8_t)s->cur[0] << 8 | (uint8_t)s->cur[1]);

	for (int i = 0; i < IL_NT; i++) {
		il_regs r;

		il_regs_canon(&s->th[i].regs, &r);
		h = il_mix(h ^ s->th[i].spin ^ il_mix(s->th[i].spun));
		h = il_hash_bytes(h ^ (uint64_t)(s->th[i].cpu * 4 + s->th[i].stored * 2 + s->th[i].done),
				  &r, sizeof(r));
		if (x->vector[i])
			h = il_hash_bytes(h, &s->th[i].fp, sizeof(s->th[i].fp));
	}
	return h;
}

/* The free hand-overs: a CPU whose current thread is done or waits gets another of its own. */
static void il_normalize(struct il_x *x, struct il_state *s)
{
	for (int c = 0; c < x->ncpu; c++) {
		int i = s->cur[c];

		if (i >= 0 && !s->th[i].done && !il_blocked(x, s, i))
			continue;
		for (int j = 0; j < IL_NT; j++)
			if (j != i && s->th[j].cpu == c && !s->th[j].done && !il_blocked(x, s, j)) {
				s->cur[c] = (int8_t)j;
				break;
			}
		if (s->cur[c] >= 0 && s->th[s->cur[c]].done)
			s->cur[c] = -1;
	}
}

static int il_enabled(struct il_x *x, struct il_state *s, struct il_tr *tr)
{
	int n = 0;

	for (int c = 0; c < x->ncpu; c++) {
		int i = s->cur[c];

		if (i < 0 || s->th[i].done || il_blocked(x, s, i))
			continue;
		/* a step that touches nothing shared commutes with the other CPU's: it alone */
		if (!il_interleave_point(x, s, i, 0)) {
			tr[0] = (struct il_tr){ IL_STEP, (int8_t)i, -1 };
			n = 1;
			break;
		}
		tr[n++] = (struct il_tr){ IL_STEP, (int8_t)i, -1 };
	}
	if (s->budget <= 0)
		return n;
	for (int c = 0; c < x->ncpu; c++) {
		int i = s->cur[c];
		struct il_rseq_cs d;

		if (i < 0 || s->th[i].done || il_blocked(x, s, i) || !il_event_here(x, s, i))
			continue;
		if (il_cs(x, i, IL_PC(&s->th[i].regs), &d))
			tr[n++] = (struct il_tr){ IL_SIGNAL, (int8_t)i, -1 };
		/* not to a thread that waits: the CPU would come straight back (a signal aborts
		   the section as that would) */
		for (int j = 0; j < IL_NT; j++)
			if (j != i && s->th[j].cpu == c && !s->th[j].done && !il_blocked(x, s, j))
				tr[n++] = (struct il_tr){ IL_SWITCH, (int8_t)i, (int8_t)j };
		if (x->ncpu == 2)
			tr[n++] = (struct il_tr){ IL_MIGRATE, (int8_t)i, -1 };
	}
	return n;
}

/* Apply tr to s (the child is in state s): 0, or -1 (x->failed). */
static int il_apply(struct il_x *x, struct il_state *s, const struct il_tr *tr, struct il_rec *rec)
{
	struct il_thr *th = &s->th[tr->t];
	int i = tr->t, a;

	memset(rec, 0, sizeof(*rec));
	rec->kind = tr->kind;
	rec->t = (int8_t)i;
	rec->cpu = (int8_t)th->cpu;
	x->last_t = i;
	x->last_cpu = x->cpus[th->cpu];
	rec->other = tr->other;
	rec->pc = IL_PC(&th->regs);
	x->r->transitions++;
	if (tr->kind == IL_STEP) {
		if (il_one(x, s, i, rec))
			return -1;
		while (!il_point(x, s, i))
			if (il_one(x, s, i, NULL))
				return -1;
		return 0;
	}
	s->budget--;
	if ((a = il_abort(x, s, i)) < 0)
		return -1;
	rec->aborted = (uint8_t)a;
	if (tr->kind == IL_SWITCH) {
		s->cur[th->cpu] = tr->other;
	} else if (tr->kind == IL_MIGRATE) {
		int from = th->cpu, to = 1 - from, k = s->cur[to];

		th->cpu = (int8_t)to;
		s->cur[from] = -1;
		if (k >= 0 && !s->th[k].done) {
			if ((a = il_abort(x, s, k)) < 0)
				return -1;
			rec->aborted2 = (uint8_t)a;
			rec->other = (int8_t)k;
		}
		s->cur[to] = (int8_t)i;
	}
	return 0;
}

/* A finished schedule's end state, counted once: a pruned state leads only to end states its
 * first exploration reached, so the count with the state cache is the count without it. */
static void il_outcome(struct il_x *x, uint64_t h)
{
	size_t m = x->outcap - 1, j = il_mix(h) & m;

	if (x->r->outcomes * 2 >= x->outcap)
		return;
	for (;; j = (j + 1) & m) {
		if (x->outc[j] == (h | 1))
			return;
		if (!x->outc[j]) {
			x->outc[j] = h | 1;
			x->r->outcomes++;
			return;
		}
	}
}

/* A finished schedule: the child's main thread runs the shape's check. */
static int il_leaf(struct il_x *x)
{
	if (ptrace(PTRACE_CONT, x->pid, NULL, NULL) || (il_wait(x->pid, 10000) & 0xff) != SIGTRAP)
		return il_fail(x, 1, 0, "", "crashed in the shape's check or the strategy's total");
	x->r->schedules++;
	il_outcome(x, x->fr[x->depth - 1].s.memhash);
	if (x->first) {
		/* the first schedule ran each thread alone: infer what CPU a's threads own */
		x->first = 0;
		for (int k = 0; k < x->nwrote && x->ninferred < 64; k++)
			if (x->wrote[k].mask == 3 && x->ncpu == 2 && x->c->rseq &&
			    strcmp(x->c->shape, "lock") && !x->c->percpu &&
			    (x->wrote[k].addr < x->sh->slots ||
			     x->wrote[k].addr >= x->sh->slots + (uint64_t)x->sh->nslots *
			     sizeof(struct lab_pc_slot)) &&
			    (x->wrote[k].addr < x->sh->nodes ||
			     x->wrote[k].addr >= x->sh->nodes + IL_NODES * sizeof(struct lab_pc_node)))
				x->inferred[x->ninferred++] = x->wrote[k];
	}
	if (x->sh->fail) {
		/* a counter's every operation stores: one that aborted and did not is the culprit */
		for (int i = 0; i < IL_NT && !strcmp(x->c->shape, "counter"); i++)
			if (x->fr[x->depth - 1].s.th[i].abort_pc) {
				struct il_thr *th = &x->fr[x->depth - 1].s.th[i];

				return il_fail(x, 1, th->abort_at, "", "an abort without a retry: T%d's "
					       "section aborted (at 0x%llx) and its operation went on "
					       "without storing again; %s", i,
					       (unsigned long long)th->abort_pc, x->sh->msg);
			}
		return il_fail(x, 1, 0, "", "%s%s", x->sh->msg,
			       x->r->schedules == 1 ? ", with no interruption at all" : "");
	}
	return 0;
}

static int il_push(struct il_x *x, const struct il_state *s, const struct il_rec *rec,
		   uint8_t sleep)
{
	struct il_frame *f;

	if (x->depth >= IL_MAX_DEPTH)
		return il_fail(x, 1, 0, "", "no end: a schedule of over %d steps", IL_MAX_DEPTH);
	if (x->depth == x->capfr) {
		x->capfr = x->capfr ? 2 * x->capfr : 256;
		x->fr = realloc(x->fr, (size_t)x->capfr * sizeof(*x->fr));
		if (!x->fr)
			return il_fail(x, 2, 0, "", "out of memory");
	}
	f = &x->fr[x->depth++];
	f->s = *s;
	f->undo = x->nundo;
	f->hbundo = x->nhbundo;
	f->rec = *rec;
	f->next = -1;
	f->ntr = 0;
	f->sleep = sleep;
	f->taken = 0;
	return 0;
}

static void il_explore(struct il_x *x, const struct il_state *root)
{
	struct il_rec none = { .kind = 255 };

	if (il_push(x, root, &none, 0))
		return;
	while (x->depth > 0 && !x->failed) {
		struct il_frame *f = &x->fr[x->depth - 1];
		struct il_state s;
		struct il_rec rec;
		struct il_tr *t;
		uint8_t sleep = 0;
		int all = 1;

		if (f->next < 0) {
			il_normalize(x, &f->s);
			for (int i = 0; i < IL_NT; i++)
				all &= f->s.th[i].done;
			if (all) {
				il_leaf(x);
				x->depth--;
				continue;
			}
			if (!il_visit(x, il_key(x, &f->s), f->s.budget, f->sleep)) {
				x->depth--;
				continue;
			}
			if (++x->r->states > IL_MAX_STATES) {
				il_fail(x, 1, 0, "", "not checked within its bound: over %d states",
					IL_MAX_STATES);
				break;
			}
			f->ntr = il_enabled(x, &f->s, f->tr);
			f->next = 0;
			if (!f->ntr) {
				il_fail(x, 1, 0, "", "deadlock: every thread left waits, on a futex or spinning on a word no "
					"other thread will change");
				break;
			}
			for (int k = 0; k < f->ntr; k++)
				if (f->tr[k].kind == IL_STEP &&
				    il_decode_at(x, &f->s.th[f->tr[k].t].regs, &f->first[f->tr[k].t]))
					f->first[f->tr[k].t].syscall = 1; /* undecodable: dependent */
		}
		/* the next transition not asleep */
		while (f->next < f->ntr && f->tr[f->next].kind == IL_STEP &&
		       ((f->sleep | f->taken) >> f->tr[f->next].t & 1) && (f->sleep >> f->tr[f->next].t & 1))
			f->next++;
		if (f->next >= f->ntr) {
			x->depth--;
			continue;
		}
		t = &f->tr[f->next++];
		if (t->kind == IL_STEP) {
			uint8_t asleep = f->sleep | f->taken;

			for (int j = 0; j < IL_NT; j++)
				if ((asleep >> j & 1) && j != t->t &&
				    il_independent(&f->first[t->t], &f->first[j]))
					sleep |= (uint8_t)(1 << j);
			f->taken |= (uint8_t)(1 << t->t);
		}
		il_undo_to(x, f->undo);
		il_hb_undo_to(x, f->hbundo);
		s = f->s;
		if (il_apply(x, &s, t, &rec))
			break;
		il_push(x, &s, &rec, sleep);
	}
}

/* ---- the schedule, in words ---- */

static void il_name(struct il_x *x, uint64_t a, char *out, size_t len)
{
	static const char *const fields[] = { "v", "tagged", "ptr", "word", "count", "bad", "holder" };
	static const int offs[] = { 0, 8, 16, 24, 32, 40, 48 };
	const struct lab_pc_percpu *p = &x->sh->percpu;
	int who;

	if (a >= x->sh->slots && a < x->sh->slots + (uint64_t)x->sh->nslots * sizeof(struct lab_pc_slot)) {
		uint64_t off = (a - x->sh->slots) % sizeof(struct lab_pc_slot);
		int f = 0;

		for (int k = 0; k < 7; k++)
			if ((int)off >= offs[k])
				f = k;
		snprintf(out, len, "slot[%d].%s", (int)((a - x->sh->slots) / sizeof(struct lab_pc_slot)),
			 fields[f]);
	} else if (a >= x->sh->nodes && a < x->sh->nodes + IL_NODES * sizeof(struct lab_pc_node)) {
		snprintf(out, len, "node[%d]", (int)((a - x->sh->nodes) / sizeof(struct lab_pc_node)));
	} else if (il_in_area(x, a, 1, &who)) {
		uint64_t off = a - x->area[who];

		snprintf(out, len, "%s", off < 4 ? "cpu_id_start" : off < 8 ? "cpu_id" : off < 16 ?
			 "rseq_cs" : off < 24 ? "rseq flags/node_id" : "mm_cid");
	} else if (p->base && p->stride && a >= (uint64_t)(uintptr_t)p->base &&
		   (a - (uint64_t)(uintptr_t)p->base) / p->stride < (uint64_t)p->count) {
		uint64_t off = a - (uint64_t)(uintptr_t)p->base;

		snprintf(out, len, "own data[%d]+%llu", (int)(off / p->stride),
			 (unsigned long long)(off % p->stride));
	} else {
		snprintf(out, len, "data at 0x%llx", (unsigned long long)a);
	}
}

static void il_schedule(struct il_x *x)
{
	char (*items)[200] = malloc((size_t)x->depth * sizeof(*items)), *o = x->r->schedule;
	uint8_t *event = calloc((size_t)x->depth, 1);
	int n = 0, gap = 0;
	size_t left = sizeof(x->r->schedule);

	if (!items || !event) {
		free(items);
		free(event);
		return;
	}

	for (int d = 1; d < x->depth; d++) {
		const struct il_rec *r = &x->fr[d].rec;
		char what[96], *it;
		int cpu = x->cpus[r->cpu];

		it = items[n];
		event[n] = r->kind != IL_STEP;
		if (r->kind == IL_STEP) {
			if (!r->has && !r->cpu_read)
				continue;
			if (!r->has) {
				snprintf(it, sizeof(items[0]), "T%d cpu%d: reads its CPU", r->t, cpu);
			} else {
				il_name(x, r->addr, what, sizeof(what));
				if (!strcmp(what, "cpu_id"))
					snprintf(it, sizeof(items[0]), "T%d cpu%d: read cpu_id=%d", r->t, cpu,
						 (int)r->val);
				else
					snprintf(it, sizeof(items[0]), "T%d cpu%d: %s %s", r->t, cpu,
						 r->write == 1 ? "store" : r->write ? "update" : "load", what);
			}
		} else if (r->kind == IL_SIGNAL) {
			snprintf(it, sizeof(items[0]), "T%d signalled%s", r->t,
				 r->aborted ? " (its section aborts)" : "");
		} else if (r->kind == IL_SWITCH) {
			snprintf(it, sizeof(items[0]), "T%d preempted%s, T%d runs on cpu%d", r->t,
				 r->aborted ? " (its section aborts)" : "", r->other, cpu);
		} else {
			snprintf(it, sizeof(items[0]), "T%d migrated to cpu%d%s", r->t,
				 x->cpus[1 - r->cpu], r->aborted ? " (its section aborts)" : "");
			if (r->other >= 0) {
				size_t u = strlen(it);

				snprintf(it + u, sizeof(items[0]) - u, ", T%d preempted there%s", r->other,
					 r->aborted2 ? " (its section aborts)" : "");
			}
		}
		n++;
	}
	/* nothing another thread could see before the break: say who ran */
	if (!n && x->last_t >= 0)
		snprintf(x->r->schedule, sizeof(x->r->schedule), "T%d cpu%d, with no event and no other "
			 "thread's access before it", x->last_t, x->last_cpu);
	/* every event, and the last ten steps: what led to the break */
	for (int k = 0; k < n && left > 1; k++) {
		int w;

		if (!event[k] && k < n - 10) {
			gap = 1;
			continue;
		}
		w = snprintf(o, left, "%s%s%s", o > x->r->schedule ? "; " : "", gap ? "...; " : "",
			     items[k]);
		gap = 0;
		if (w < 0 || (size_t)w >= left)
			break;
		o += w;
		left -= (size_t)w;
	}
	free(items);
	free(event);
}

/* ---- start and end ---- */

static int il_start(struct il_x *x, struct il_state *root)
{
	int s, parked = 0;
	unsigned long msg;

	x->pid = fork();
	if (x->pid < 0)
		return il_fail(x, 2, 0, "", "fork: %s", strerror(errno));
	if (!x->pid)
		il_child_main(x->sh, x->c);
	if ((il_wait(x->pid, -1) & 0xff) != SIGSTOP ||
	    ptrace(PTRACE_SETOPTIONS, x->pid, NULL,
		   (void *)(PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL)) ||
	    ptrace(PTRACE_CONT, x->pid, NULL, NULL))
		return il_fail(x, 2, 0, "", "cannot trace the child (ptrace: %s)", strerror(errno));
	/* three clone events, each new thread's first stop, then every thread at its trap */
	for (int i = 0; i < IL_NT; i++) {
		s = il_wait(x->pid, -1);
		if (s < 0 || s >> 8 != PTRACE_EVENT_CLONE ||
		    ptrace(PTRACE_GETEVENTMSG, x->pid, NULL, &msg))
			return il_fail(x, 2, 0, "", "the child did not start its threads%s%s",
				       x->sh->init_failed ? ": " : "", x->sh->init_msg);
		x->tid[i] = (pid_t)msg;
		if (il_wait(x->tid[i], -1) < 0 || ptrace(PTRACE_CONT, x->tid[i], NULL, NULL) ||
		    ptrace(PTRACE_CONT, x->pid, NULL, NULL))
			return il_fail(x, 2, 0, "", "a thread of the child did not start");
	}
	while (parked < IL_NT + 1) {
		int st;
		pid_t p = waitpid(-1, &st, __WALL);

		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0 || WIFEXITED(st) || WIFSIGNALED(st))
			return il_fail(x, 2, 0, "", "the child did not reach its histories%s%s",
				       x->sh->init_failed ? ": " : "", x->sh->init_msg);
		if (WSTOPSIG(st) == SIGTRAP && !(st >> 16)) {
			parked++;
			continue;
		}
		/* anything else (a scheduler signal, a stop) passes through */
		ptrace(PTRACE_CONT, p, NULL, (void *)(uintptr_t)(WSTOPSIG(st) == SIGSTOP ? 0 : WSTOPSIG(st)));
	}
	memset(root, 0, sizeof(*root));
	/* the clone order need not be the threads' order: each thread wrote its tid */
	for (int i = 0; i < IL_NT; i++)
		x->tid[i] = x->sh->tid[i];
	for (int i = 0; i < IL_NT; i++) {
		struct il_rseq_conf conf = { 0 };

		if (il_regs_get(x->tid[i], &root->th[i].regs))
			return il_fail(x, 2, 0, "", "cannot read T%d's registers", i);
		x->live[i] = root->th[i].regs;
		root->th[i].cpu = (int8_t)(i == 2 && x->ncpu == 2);
		x->live_cpu[i] = x->cpus[root->th[i].cpu];
		if (ptrace(PTRACE_GET_RSEQ_CONFIGURATION, x->tid[i], (void *)sizeof(conf), &conf) <= 0 ||
		    !conf.abi)
			return il_fail(x, 2, 0, "", "T%d has no rseq area (PTRACE_GET_RSEQ_CONFIGURATION)", i);
		x->area[i] = conf.abi;
		x->sig = conf.sig;
		if (il_mem_read(x->pid, x->area[i], x->mem[i], IL_AREA))
			return il_fail(x, 2, 0, "", "cannot read T%d's rseq area", i);
	}
	root->cur[0] = 0;
	root->cur[1] = x->ncpu == 2 ? 2 : -1;
	return 0;
}

static void il_stop(struct il_x *x)
{
	if (x->pid <= 0)
		return;
	kill(x->pid, SIGKILL);
	for (int i = 0; i < IL_NT; i++)
		while (x->tid[i] > 0 && waitpid(x->tid[i], NULL, __WALL) < 0 && errno == EINTR)
			;
	while (waitpid(x->pid, NULL, __WALL) < 0 && errno == EINTR)
		;
	x->pid = 0;
	memset(x->tid, 0, sizeof(x->tid));
	memset(x->sh, 0, sizeof(*x->sh));
}

void lab_pc_explore(const struct lab_strategy *c, int cpu0, int cpu1, int bound,
		       struct lab_ex_result *r)
{
	struct il_x *x = calloc(1, sizeof(*x));
	struct il_state root;
	struct timespec t0, t1;
	cpu_set_t mask;

	memset(r, 0, sizeof(*r));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* the child is forked again for each exploration and must find its heap where the last
	   one did (the shared words are addresses): no malloc threshold that moves */
	mallopt(M_MMAP_THRESHOLD, 64 * 1024);
	r->bound = bound;
	r->threads = IL_NT;
	r->cpus = cpu1 >= 0 ? 2 : 1;
	if (!x) {
		r->status = 2;
		snprintf(r->error, sizeof(r->error), "out of memory");
		return;
	}
	x->c = c;
	x->r = r;
	x->ncpu = r->cpus;
	x->cpus[0] = cpu0;
	x->cpus[1] = cpu1 >= 0 ? cpu1 : cpu0;
	x->own_slots = c->rseq && strcmp(c->shape, "lock");
	x->first = 1;
	x->here = -1;
	x->last_t = -1;
	x->cpu_orders = c->rseq;
	sched_getaffinity(0, sizeof(mask), &mask);
	x->vcap = 1u << 22;
	x->vkey = calloc(x->vcap, sizeof(*x->vkey));
	x->vbud = calloc(x->vcap, sizeof(*x->vbud));
	x->vsleep = calloc(x->vcap, sizeof(*x->vsleep));
	x->outcap = 1u << 20;
	x->outc = calloc(x->outcap, sizeof(*x->outc));
	x->nocache = getenv("LAB_EX_NOCACHE") && *getenv("LAB_EX_NOCACHE") == '1';
	x->sharecap = 1u << 16;
	x->share = calloc(x->sharecap, sizeof(*x->share));
	x->hbcap = 1u << 16;
	x->hb = calloc(x->hbcap, sizeof(*x->hb));
	x->sh = mmap(NULL, sizeof(*x->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (x->sh == MAP_FAILED || !x->vkey || !x->vbud || !x->vsleep || !x->outc || !x->share || !x->hb) {
		r->status = 2;
		snprintf(r->error, sizeof(r->error), "out of memory");
	} else {
		fflush(NULL);
		/* Explore until no word became shared that was not when the exploration began
		   (a fixpoint: the points are right for every schedule explored), first with no
		   event, then one, up to the bound: the cheap bounds find most of the points, so
		   that the full bound is seldom explored twice. */
		int b = 0;

		for (;;) {
			r->runs++;
			x->grew = 0;
			x->sh->nslots = (cpu0 > cpu1 ? cpu0 : cpu1) + 1;
			for (int i = 0; i < IL_NT; i++)
				x->sh->cpu[i] = i == 2 && cpu1 >= 0 ? cpu1 : cpu0;
			if (!il_start(x, &root)) {
				/* the lab's slots and nodes are there to be shared */
				for (int k = 0; k < x->sh->nslots; k++)
					for (int l = 0; l < IL_NT; l++)
						il_share_note(x, l, x->sh->slots + k * sizeof(struct lab_pc_slot),
							      sizeof(struct lab_pc_slot), 1);
				for (int k = 0; k < IL_NODES; k++)
					for (int l = 0; l < IL_NT; l++)
						il_share_note(x, l, x->sh->nodes + k * sizeof(struct lab_pc_node),
							      sizeof(struct lab_pc_node), 1);
				x->grew = 0;
				root.budget = (int8_t)b;
				for (int i = 0; i < IL_NT; i++)
					root.vc[i].c[i] = 1;
				il_explore(x, &root);
			}
			if (getenv("IL_DEBUG")) {
				int nsh = 0;

				for (size_t k = 0; k < x->sharecap; k++)
					if (x->share[k].w && IL_SHARED(&x->share[k])) {
						nsh++;
						fprintf(stderr, "  shared 0x%llx mask %x%s%s\n",
							(unsigned long long)(x->share[k].w - 1) * 8, x->share[k].mask,
							x->share[k].sync ? " sync" : "",
							x->share[k].racy ? " racy" : "");
					}
				fprintf(stderr, "run %d: states %llu, shared words %d, grew %d\n", r->runs,
					(unsigned long long)r->states, nsh, x->grew);
			}
			if (x->failed || r->runs == IL_MAX_RUNS + bound || (!x->grew && b == bound))
				break;
			if (!x->grew)
				b++;
			il_stop(x);
			memset(x->vkey, 0, x->vcap * sizeof(*x->vkey));
			memset(x->outc, 0, x->outcap * sizeof(*x->outc));
			r->outcomes = 0;
			memset(x->hb, 0, x->hbcap * sizeof(*x->hb));
			x->depth = 0;
			x->nundo = 0;
			x->nhbundo = 0;
		}
		if (x->failed && r->status == 1) {
			char where[400] = "", msg[sizeof(r->error) + sizeof(where) + 8];

			if (x->fpc) {
				size_t n;
				const uint8_t *b = il_code(x, x->fpc, &n);
				struct il_insn in;

				if (!*x->ftext && n && !il_decode(x->fpc, b, n, &x->live[0], &in))
					snprintf(x->ftext, sizeof(x->ftext), "%s", in.text);
				il_where(x->fpc, x->ftext, where, sizeof(where));
			} else {
				/* an invariant broken at a schedule's end: no one instruction did it;
				   the operation's declaration, and the schedule below */
				char decl[360];

				il_where((uint64_t)(uintptr_t)(!strcmp(c->shape, "list") ? (void *)c->pop_one
							      : (void *)c->one), "", decl, sizeof(decl));
				snprintf(where, sizeof(where), "%s (its operation)", decl);
			}
			snprintf(msg, sizeof(msg), "%s%s%s", r->error, *where ? " at " : "", where);
			snprintf(r->error, sizeof(r->error), "%.1000s", msg);
			il_schedule(x);
		}
	}
	il_stop(x);
	if (x->here >= 0)
		sched_setaffinity(0, sizeof(mask), &mask);
	if (x->sh != MAP_FAILED && x->sh)
		munmap(x->sh, sizeof(*x->sh));
	free(x->vkey);
	free(x->outc);
	free(x->vbud);
	free(x->vsleep);
	free(x->share);
	free(x->hb);
	free(x->hbundo);
	free(x->undo);
	free(x->fr);
	free(x);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
}

#else /* no per-arch part: say so */

void lab_pc_explore(const struct lab_strategy *c, int cpu0, int cpu1, int bound,
		       struct lab_ex_result *r)
{
	(void)c;
	(void)cpu0;
	(void)cpu1;
	memset(r, 0, sizeof(*r));
	r->bound = bound;
	r->status = 2;
	snprintf(r->error, sizeof(r->error), "no interleaving check on %s", LAB_EX_ARCH);
}

#endif
