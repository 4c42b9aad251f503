/* SPDX-License-Identifier: MIT */
/*
 * The deterministic interleaving check (interleave.h). A forked child runs the strategy in two
 * threads pinned to one CPU: the operating thread T and the competitor C. This process traces
 * both with ptrace:
 *
 *  1. T's operation is single-stepped once, undisturbed, to learn its n instructions.
 *  2. For every pass and every boundary k < n: T is stepped to instruction k, stopped there
 *     (for the signal pass a signal is delivered there; for the migration pass T is moved to
 *     the second CPU), C runs one whole operation on T's CPU, and T resumes and finishes.
 *     Before each try the child resets the per-CPU state, so every try starts alike.
 *  3. After each try the child runs the shape's check (lab_pc_check); for rseq counters and
 *     lists every step is also checked for ownership: a plain (non-atomic) instruction that
 *     changes CPU c's slot must execute inside an rseq critical section, on CPU c.
 *
 * A stop in ptrace is a real deschedule, so the kernel aborts a critical section interrupted
 * at k, as it promises for a preemption. The steps that only move T along must not abort it:
 * across each of those, a thread inside its critical section has its rseq_cs cleared, and put
 * back after the step.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "interleave.h"
#include "interleave-arch.h"
#include "il-ptrace.h"

#if LAB_IL_SUPPORTED

#ifndef PTRACE_GET_RSEQ_CONFIGURATION
#define PTRACE_GET_RSEQ_CONFIGURATION 0x420f
#endif
/* The kernel's ABI: PTRACE_GET_RSEQ_CONFIGURATION's answer, struct rseq_cs, and where
 * struct rseq keeps its rseq_cs pointer. */
struct il_rseq_conf {
	uint64_t abi;
	uint32_t size, sig, flags, pad;
};
struct il_rseq_cs {
	uint32_t version, flags;
	uint64_t start_ip, post_commit_offset, abort_ip;
};
#define IL_RSEQ_CS 8

enum { IL_OP, IL_FINI, IL_INIT };          /* what the competitor does when resumed */
enum { IL_LEARN = -1, IL_PREEMPT, IL_SIGNAL, IL_MIGRATE };

#define IL_MAX_INSN 20000      /* an operation longer than this is not single-stepped */
#define IL_MAX_AFTER 200000    /* steps after an interruption before "no end" */
#define IL_WAIT_MS 2000        /* the competitor still running after this waits for T */
#define IL_END_MS 10000        /* ... and after this, with T done, it never ends */

/* What the child and the tracer share (MAP_SHARED before the fork). */
struct il_shared {
	volatile int c_cmd;
	volatile pid_t tid_c;
	volatile int init_failed;
	char init_msg[256];
	struct lab_pc_slot *slots; /* the child's per-CPU state */
	int nslots;
	int fail;                  /* the shape's check after the last try */
	char msg[256];
	long long sum, want;       /* counter: what the check counted */
};

/* ---- the child ---- */

static struct il_shared *sh;
static const struct lab_strategy *il_c;
static struct lab_pc_run il_run;
static struct lab_pc_thread il_th[2];
static int il_cpu;

static __attribute__((noinline)) void il_trap(void)
{
	LAB_IL_TRAP();
	__asm__ volatile("" ::: "memory");
}

static int il_init(int i)
{
	char msg[256] = "";

	if (il_c->thread_init && il_c->thread_init(&il_th[i], msg, sizeof(msg))) {
		snprintf(sh->init_msg, sizeof(sh->init_msg), "thread_init: %s", msg);
		sh->init_failed = 1;
		return -1;
	}
	return 0;
}

static void il_thread_reset(int i)
{
	il_th[i].run = &il_run;
	il_th[i].tid = i;
	il_th[i].aborts = il_th[i].pushes = il_th[i].pops = 0;
	il_th[i].held = !strcmp(il_c->shape, "list") ? &lab_pc_nodes[i] : NULL;
}

static void il_handler(int sig)
{
	(void)sig;
}

static void *il_competitor_main(void *arg)
{
	(void)arg;
	il_pin(0, il_cpu);
	if (il_init(1))
		return NULL;
	sh->tid_c = (pid_t)syscall(SYS_gettid);
	for (;;) {
		il_trap();
		if (sh->c_cmd == IL_OP)
			il_c->one(&il_th[1]);
		else if (sh->c_cmd == IL_FINI)
			il_c->thread_fini(&il_th[1]);
		else
			il_init(1);
	}
	return NULL;
}

/* The shape's check of one try: T's and C's one operation each. */
static void il_check(void)
{
	char msg[256] = "";

	sh->fail = lab_pc_check(il_c, &il_run, il_th, msg, sizeof(msg)) != 0;
	snprintf(sh->msg, sizeof(sh->msg), "%s", msg);
	if (!strcmp(il_c->shape, "counter")) {
		long long sum = il_c->total ? (long long)il_c->total(&il_run) : 0;

		for (int i = 0; i < il_run.nslots; i++)
			sum += lab_pc_slots[i].v;
		sh->sum = sum;
		sh->want = (long long)il_run.iters * il_run.nthreads;
	}
}

static void il_reset(void)
{
	if (lab_pc_reset(il_c, &il_run)) {
		snprintf(sh->init_msg, sizeof(sh->init_msg), "out of memory");
		sh->init_failed = 1;
		_exit(3);
	}
	il_thread_reset(0);
	il_thread_reset(1);
}

static __attribute__((noreturn)) void il_child(void)
{
	struct sigaction sa = { .sa_handler = il_handler };
	pthread_t c;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(3);
	raise(SIGSTOP);
	il_pin(0, il_cpu);
	sigaction(SIGUSR2, &sa, NULL);
	il_reset();
	sh->slots = lab_pc_slots;
	if (il_init(0) || pthread_create(&c, NULL, il_competitor_main, NULL))
		_exit(3);
	while (!sh->tid_c && !sh->init_failed)
		sched_yield();
	if (sh->init_failed)
		_exit(3);
	for (;;) {
		il_trap(); /* begin: the tracer steps the operation from here */
		il_c->one(&il_th[0]);
		il_trap(); /* end: the competitor has done its operation too */
		if (il_c->thread_fini)
			il_c->thread_fini(&il_th[0]);
		il_check();
		il_reset();
		if (il_c->thread_fini)
			il_init(0);
	}
}

/* ---- the tracer ---- */

struct il_tracer {
	const struct lab_strategy *c;
	struct lab_il_result *r;
	pid_t pid, tt, tc;
	int cpu0, cpu1, t_cpu;   /* T's CPU now */
	uint64_t rseq;           /* T's struct rseq, 0: none registered */
	int owner;               /* check ownership at every step */
	uint64_t ret, sp_after;  /* the operation returns there */
	uint64_t *trace;         /* the learned operation: pc of each instruction */
	int n;
	uint8_t *snap;           /* the slots before the step */
	size_t snaplen;
	/* the first ownership breach (kept while the invariants are checked on) */
	char owner_err[512];
	int c_done;              /* the competitor ended its operation */
	int at_pass;             /* this try's interruption: pass and pc (0: none yet) */
	uint64_t at_pc;
	char at[256];            /* where that is, in words (il_at: objdump only when needed) */
};

/* What tid is doing, from /proc: 'S' or 'D' when it sleeps in the kernel, and its CPU time in
 * ns (schedstat's, else stat's utime + stime in clock ticks). */
static char il_state(pid_t tid, uint64_t *cpu_ns, uint64_t *grain)
{
	char path[64], buf[512], *p;
	unsigned long long ns = 0, ut = 0, st = 0;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = (int)fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n > 0 ? n : 0] = 0;
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	/* after the state: ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt */
	*grain = 1000000000ull / (unsigned long long)sysconf(_SC_CLK_TCK);
	if (sscanf(p + 4, "%*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2)
		*cpu_ns = (ut + st) * *grain;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)tid);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &ns) == 1 && ns) {
			*cpu_ns = ns;
			*grain = 1;
		}
		fclose(f);
	}
	return p[2];
}

/* Wait for tid's next stop: its signal (and a ptrace event above it); -1 when it is gone;
 * 0 when ms (>= 0) passed first. With spin set, 0 also when it waits instead for a thread
 * that is stopped: it has slept in the kernel (a futex) for a millisecond, or spent
 * IL_SPIN_NS of CPU time (three clock ticks where only ticks are counted) without stopping:
 * an operation takes microseconds, so it spins. */
#define IL_SPIN_NS 5000000ull
static uint64_t il_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int il_wait_spin(pid_t tid, int ms, int spin)
{
	struct timespec ts = { 0, 50000 };
	int st, flags = __WALL | (ms >= 0 ? WNOHANG : 0), asleep = 0;
	uint64_t cpu0 = 0, cpu, grain = 1, end = il_now_ns() + (uint64_t)(ms > 0 ? ms : 0) * 1000000ull;

	if (spin)
		il_state(tid, &cpu0, &grain);
	cpu = cpu0;
	for (;;) {
		pid_t p = waitpid(tid, &st, flags);

		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0 || (p > 0 && (WIFEXITED(st) || WIFSIGNALED(st))))
			return -1;
		if (p > 0)
			return st >> 8;
		if (il_now_ns() >= end)
			return 0;
		if (spin) {
			char state = il_state(tid, &cpu, &grain);

			asleep = state == 'S' || state == 'D' ? asleep + 1 : 0;
			if (asleep >= 20 || cpu - cpu0 >= (grain > 1 ? 3 * grain : IL_SPIN_NS))
				return 0;
		}
		nanosleep(&ts, NULL);
	}
}

static uint64_t il_peek(pid_t tid, uint64_t addr)
{
	errno = 0;
	return (uint64_t)ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)addr, NULL);
}

static uint64_t il_pc(pid_t tid)
{
	struct lab_il_regs r;

	return lab_il_get(tid, &r) ? 0 : r.pc;
}

/* T's current critical section, if pc is inside one: 1 and d filled; 0 not. */
static int il_in_cs(struct il_tracer *x, uint64_t pc, uint64_t *csp, struct il_rseq_cs *d)
{
	*csp = x->rseq ? il_peek(x->tt, x->rseq + IL_RSEQ_CS) : 0;
	if (!*csp || il_mem_read(x->pid, *csp, d, sizeof(*d)))
		return 0;
	return pc - d->start_ip < d->post_commit_offset;
}

static void il_set_cpu(struct il_tracer *x, int cpu)
{
	il_pin(x->tt, cpu);
	x->t_cpu = cpu;
}

/* "op+0x1c (`mov %rax,(%rdx)`)": where pc is, from objdump on this executable (the child is
 * a fork of it); the bare address where there is no objdump, or pc is outside it (vDSO). */
static void il_where(const struct il_tracer *x, uint64_t pc, char *out, size_t len)
{
	char cmd[256], line[256], label[128] = "", insn[128] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn --start-address=0x%llx "
		 "--stop-address=0x%llx /proc/%d/exe 2>/dev/null", (unsigned long long)pc,
		 (unsigned long long)pc + 16, (int)getpid());
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		char *lt = strchr(line, '<'), *gt = lt ? strchr(lt, '>') : NULL, *tab;

		if (!*label && lt && gt && gt[1] == ':') {
			*gt = 0;
			snprintf(label, sizeof(label), "%s", lt + 1);
		} else if (*label && !*insn && (tab = strchr(line, '\t'))) {
			char *o = insn;

			/* one space where objdump pads, no trailing comment or newline */
			for (char *s = tab + 1; *s && *s != '\n' && *s != '#' &&
			     o < insn + sizeof(insn) - 1; s++)
				if (*s != ' ' && *s != '\t')
					*o++ = *s;
				else if (o > insn && o[-1] != ' ')
					*o++ = ' ';
			while (o > insn && o[-1] == ' ')
				o--;
			*o = 0;
		}
	}
	if (p)
		pclose(p);
	if (!*insn) {
		snprintf(out, len, "0x%llx", (unsigned long long)pc);
		return;
	}
	/* the strategy's own operation reads as op+OFFSET */
	char *plus = strrchr(label, '+');
	size_t stem = plus ? (size_t)(plus - label) : strlen(label);

	if (stem > 5 && !strncmp(label + stem - 5, "_one_", 5) &&
	    pc - (uint64_t)(uintptr_t)x->c->one < 0x10000)
		snprintf(out, len, "op+0x%llx (`%s`)",
			 (unsigned long long)(pc - (uint64_t)(uintptr_t)x->c->one), insn);
	else
		snprintf(out, len, "%s (`%s`)", label, insn);
}

/* Resume tid and wait (ms, -1 for ever) for its next trap, then move it past the trap: 1 at
 * the trap, 0 still running, -1 gone or stopped by another signal. */
static int il_to_trap(pid_t tid, int ms)
{
	int s;

	if (ptrace(PTRACE_CONT, tid, NULL, NULL))
		return -1;
	s = il_wait(tid, ms);
	if (s == 0)
		return 0;
	if (s < 0 || (s & 0xff) != SIGTRAP || lab_il_skip_trap(tid))
		return -1;
	return 1;
}

/* The competitor, once it parked after il_to_trap returned 0: wait for it (ms). */
static int il_parked(pid_t tid, int ms)
{
	int s = il_wait(tid, ms);

	if (s == 0)
		return 0;
	return s < 0 || (s & 0xff) != SIGTRAP || lab_il_skip_trap(tid) ? -1 : 1;
}

/* Where this try interrupted T, in words ("" when it has not). */
static const char *il_at(struct il_tracer *x)
{
	if (x->at_pc && !*x->at)
		il_where(x, x->at_pc, x->at, sizeof(x->at));
	return x->at;
}

/* One single step of T, with sig delivered if not 0: the stop's signal (SIGTRAP), -1 gone. */
static int il_step(struct il_tracer *x, int sig)
{
	x->r->steps++;
	int s;

	if (ptrace(PTRACE_SINGLESTEP, x->tt, NULL, (void *)(uintptr_t)sig))
		return -1;
	s = il_wait(x->tt, -1);
	return s < 0 ? -1 : s & 0xff;
}

/* After a step from pc: did a plain instruction change a slot it does not own? The first such
 * breach is kept in x->owner_err (with the interruption's where, "" when none). */
static void il_owner_check(struct il_tracer *x, uint64_t pc, int in_cs)
{
	char context[320] = "";

	uint8_t now[x->snaplen ? x->snaplen : 1], insn[16];
	size_t line = sizeof(struct lab_pc_slot);

	if (!x->owner || il_mem_read(x->pid, (uint64_t)(uintptr_t)sh->slots, now, x->snaplen))
		return;
	for (size_t j = 0; j < x->snaplen / line; j++) {
		char where[256];

		if (!memcmp(now + j * line, x->snap + j * line, line))
			continue;
		if (il_mem_read(x->pid, pc, insn, sizeof(insn)) == 0 &&
		    lab_il_atomic(insn, sizeof(insn)))
			continue;
		if (*x->owner_err)
			break;
		if (in_cs && (int)j == x->t_cpu)
			continue;
		il_where(x, pc, where, sizeof(where));
		if (x->at_pc)
			snprintf(context, sizeof(context), " (after being %s at %s)",
				 x->at_pass == IL_PREEMPT ? "preempted" : x->at_pass == IL_SIGNAL
				 ? "signalled" : "moved", il_at(x));
		if (!in_cs)
			snprintf(x->owner_err, sizeof(x->owner_err), "ownership: CPU %zu's slot changed "
				 "by a plain store at %s, outside any rseq critical section%s", j,
				 where, context);
		else
			snprintf(x->owner_err, sizeof(x->owner_err), "ownership: CPU %zu's slot changed "
				 "by a commit at %s that ran on CPU %d%s", j, where, x->t_cpu,
				 context);
	}
	memcpy(x->snap, now, x->snaplen);
}

/* One step of T as if nothing interrupted it (see the top of the file). */
static int il_quiet_step(struct il_tracer *x)
{
	struct il_rseq_cs d;
	uint64_t cs, pc = il_pc(x->tt);
	int in = il_in_cs(x, pc, &cs, &d), s;

	if (in && ptrace(PTRACE_POKEDATA, x->tt, (void *)(uintptr_t)(x->rseq + IL_RSEQ_CS), NULL))
		return -1;
	s = il_step(x, 0);
	if (s == SIGTRAP && in && !il_peek(x->tt, x->rseq + IL_RSEQ_CS))
		ptrace(PTRACE_POKEDATA, x->tt, (void *)(uintptr_t)(x->rseq + IL_RSEQ_CS),
		       (void *)(uintptr_t)cs);
	if (s == SIGTRAP)
		il_owner_check(x, pc, in);
	return s;
}

/* Resume the competitor for one command: 1 when it parked again, 0 when it waits for T
 * (il_wait_spin), -1 gone or crashed. */
static int il_competitor(struct il_tracer *x, int cmd, int ms)
{
	int s;

	sh->c_cmd = cmd;
	if (ptrace(PTRACE_CONT, x->tc, NULL, NULL))
		return -1;
	s = il_wait_spin(x->tc, ms, cmd == IL_OP && ms == IL_WAIT_MS);
	if (s == 0)
		return 0;
	return s < 0 || (s & 0xff) != SIGTRAP || lab_il_skip_trap(x->tc) ? -1 : 1;
}

static int il_fail(struct il_tracer *x, int status, const char *fmt, const char *a,
		   const char *b)
{
	if (!x->r->status) {
		x->r->status = status;
		snprintf(x->r->error, sizeof(x->r->error), fmt, a, b);
	}
	return -1;
}

/* The shape's verdict on the last try, in words, with where T was interrupted. */
static void il_verdict(struct il_tracer *x, int pass, const char *at, int in_cs, int aborted)
{
	char what[760], event[96];
	const char *where = !in_cs ? "outside any rseq critical section"
			    : aborted ? "inside an rseq critical section, which aborted"
				      : "inside an rseq critical section, which did not abort";

	if (pass == IL_PREEMPT)
		snprintf(event, sizeof(event), "preempted");
	else if (pass == IL_SIGNAL)
		snprintf(event, sizeof(event), "a signal delivered");
	else
		snprintf(event, sizeof(event), "moved to CPU %d", x->cpu1);
	if (!strcmp(x->c->shape, "counter") && sh->sum < sh->want)
		snprintf(what, sizeof(what), "lost update: %s at %s, %s; the competitor's "
			 "increment on that CPU was overwritten (sum %lld, want %lld)", event, at,
			 where, sh->sum, sh->want);
	else if (!strcmp(x->c->shape, "counter") && sh->sum > sh->want)
		snprintf(what, sizeof(what), "counted twice: %s at %s, %s; an increment landed "
			 "twice (sum %lld, want %lld)", event, at, where, sh->sum, sh->want);
	else
		snprintf(what, sizeof(what), "%s: %s at %s, %s", sh->msg, event, at, where);
	il_fail(x, 1, "%s%s", what, "");
}

/* One try: T's operation from the begin trap to the end trap, interrupted at boundary k in
 * pass (IL_LEARN: not interrupted, the instructions recorded); C's operation in it (or after
 * it, when learning); then the child's check. 0, or -1 with r->status set. */
static int il_try(struct il_tracer *x, int pass, int k)
{
	struct lab_il_regs regs;
	int i = 0, in_cs_at = 0, aborted = 0, waiting = 0, s;
	uint64_t cs;
	struct il_rseq_cs d;

	x->c_done = 0;
	x->at_pc = 0;
	*x->at = 0;
	x->at_pass = pass;
	if (x->owner && il_mem_read(x->pid, (uint64_t)(uintptr_t)sh->slots, x->snap, x->snaplen))
		return il_fail(x, 2, "cannot read the child's slots%s%s", "", "");
	/* from the begin trap to the operation's first instruction */
	for (int pre = 0; il_pc(x->tt) != (uint64_t)(uintptr_t)x->c->one; pre++)
		if (pre > 200 || il_quiet_step(x) != SIGTRAP)
			return il_fail(x, 2, "the operation did not start%s%s", "", "");
	if (lab_il_get(x->tt, &regs) || lab_il_entry(x->tt, &regs, &x->ret, &x->sp_after))
		return il_fail(x, 2, "cannot read the registers%s%s", "", "");
	for (;;) {
		if (lab_il_get(x->tt, &regs))
			return il_fail(x, 2, "cannot read the registers%s%s", "", "");
		if (regs.pc == x->ret && regs.sp == x->sp_after)
			break;
		if (pass == IL_LEARN) {
			if (i >= IL_MAX_INSN)
				return il_fail(x, 2, "the operation runs over %s instructions%s",
					       "20000", "");
			x->trace[i] = regs.pc;
		} else if (i <= k && regs.pc != x->trace[i]) {
			return il_fail(x, 2, "the operation took another path on a second run "
				       "(its instructions depend on more than the reset state)%s%s",
				       "", "");
		}
		if (pass != IL_LEARN && i == k) {
			in_cs_at = il_in_cs(x, regs.pc, &cs, &d);
			x->at_pc = regs.pc;
			if (pass == IL_SIGNAL) {
				/* delivered now; the step stops at the handler's first instruction */
				if (il_step(x, SIGUSR2) != SIGTRAP)
					return il_fail(x, 2, "the signal was not delivered%s%s", "", "");
				aborted = in_cs_at && !il_peek(x->tt, x->rseq + IL_RSEQ_CS);
			} else if (pass == IL_MIGRATE) {
				il_set_cpu(x, x->cpu1);
			}
			s = il_competitor(x, IL_OP, IL_WAIT_MS);
			if (s < 0)
				return il_fail(x, 1, "the competitor crashed (interrupted at %s)%s",
					       il_at(x), "");
			/* what T changes from here on is measured from what C left */
			if (x->owner && il_mem_read(x->pid, (uint64_t)(uintptr_t)sh->slots, x->snap,
						x->snaplen))
				return il_fail(x, 2, "cannot read the child's slots%s%s", "", "");
			x->c_done = s;
			waiting = !s;
			if (pass != IL_SIGNAL) {
				/* the return from the stop: where the kernel aborts the section */
				if (il_step(x, 0) != SIGTRAP)
					return il_fail(x, 1, "crashed after being interrupted at %s%s",
						       il_at(x), "");
				aborted = in_cs_at && !il_peek(x->tt, x->rseq + IL_RSEQ_CS);
				il_owner_check(x, regs.pc, in_cs_at);
			}
			x->r->interleavings++;
			x->r->aborts += aborted;
			if (waiting) {
				/* C waits for what T holds: let T run to its end at full speed */
				x->r->waits++;
				break;
			}
			i++;
			continue;
		}
		s = il_quiet_step(x);
		if (s != SIGTRAP) {
			char sig[64];

			snprintf(sig, sizeof(sig), "%s%s", s < 0 ? "exit" : "SIG",
				 s < 0 ? "" : sigabbrev_np(s) ? sigabbrev_np(s) : "?");
			return il_fail(x, 1, x->at_pc ? "crashed (%s) after being interrupted at %s"
				       : "crashed (%s) in its operation%s", sig, il_at(x));
		}
		if (++i > x->n + IL_MAX_AFTER && pass != IL_LEARN)
			return il_fail(x, 1, "no end within 200000 instructions after being "
				       "interrupted at %s (a retry that never succeeds?)%s", il_at(x), "");
	}
	/* to the end trap; C's operation, when it has not had one */
	if (il_to_trap(x->tt, -1) != 1)
		return il_fail(x, 1, x->at_pc ? "crashed after being interrupted at %s%s"
			       : "crashed in its operation%s%s", il_at(x), "");
	if (pass == IL_LEARN)
		x->n = i;
	if (!x->c_done) {
		s = waiting ? il_parked(x->tc, IL_END_MS) : il_competitor(x, IL_OP, IL_END_MS);
		if (s <= 0)
			return il_fail(x, 1, "deadlock: the competitor's operation never ended "
				       "(interrupted at %s)%s", x->at_pc ? il_at(x) : "no boundary", "");
	}
	if (pass == IL_MIGRATE)
		il_set_cpu(x, x->cpu0);
	/* fini, check, reset (and init again when fini ran) */
	if (x->c->thread_fini && il_competitor(x, IL_FINI, IL_END_MS) != 1)
		return il_fail(x, 1, "the competitor's thread_fini did not end%s%s", "", "");
	if (il_to_trap(x->tt, -1) != 1)
		return il_fail(x, 1, "crashed in its check or thread_fini%s%s", "", "");
	if (x->c->thread_fini && il_competitor(x, IL_INIT, IL_END_MS) != 1)
		return il_fail(x, 1, "the competitor's thread_init did not end%s%s", "", "");
	if (sh->init_failed)
		return il_fail(x, 2, "%s%s", sh->init_msg, "");
	if (sh->fail) {
		if (pass == IL_LEARN)
			return il_fail(x, 1, "%s, with no interruption at all%s", sh->msg, "");
		il_verdict(x, pass, il_at(x), in_cs_at, aborted);
		return -1;
	}
	return 0;
}

/* Fork the child, trace both threads to their first traps. 0, or -1 with r set. */
static int il_start(struct il_tracer *x)
{
	int s;
	struct il_rseq_conf conf;
	unsigned long msg;

	x->pid = fork();
	if (x->pid < 0)
		return il_fail(x, 2, "fork: %s%s", strerror(errno), "");
	if (!x->pid)
		il_child();
	x->tt = x->pid;
	if ((il_wait(x->tt, -1) & 0xff) != SIGSTOP ||
	    ptrace(PTRACE_SETOPTIONS, x->tt, NULL,
		   (void *)(PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL)) ||
	    ptrace(PTRACE_CONT, x->tt, NULL, NULL))
		return il_fail(x, 2, "cannot trace the child (ptrace: %s)%s", strerror(errno), "");
	/* T stops at the clone event, then at its begin trap; C at its start, then its trap */
	s = il_wait(x->tt, -1);
	if (s < 0 || s >> 8 != PTRACE_EVENT_CLONE ||
	    ptrace(PTRACE_GETEVENTMSG, x->tt, NULL, &msg))
		return il_fail(x, 2, "the child did not start its competitor%s%s",
			       sh->init_failed ? ": " : "", sh->init_msg);
	x->tc = (pid_t)msg;
	if (il_wait(x->tc, -1) < 0 || ptrace(PTRACE_CONT, x->tc, NULL, NULL) ||
	    ptrace(PTRACE_CONT, x->tt, NULL, NULL))
		return il_fail(x, 2, "the competitor did not start%s%s", "", "");
	if (il_parked(x->tc, -1) != 1 || il_parked(x->tt, -1) != 1)
		return il_fail(x, 2, "the child did not reach its first operation%s%s",
			       sh->init_failed ? ": " : "", sh->init_msg);
	memset(&conf, 0, sizeof(conf));
	/* its answer is the size it wrote */
	if (ptrace(PTRACE_GET_RSEQ_CONFIGURATION, x->tt, (void *)sizeof(conf), &conf) > 0)
		x->rseq = conf.abi;
	return 0;
}

void lab_pc_interleave(const struct lab_strategy *c, int cpu0, int cpu1,
		       struct lab_il_result *r)
{
	struct il_tracer x = { .c = c, .r = r, .cpu0 = cpu0, .cpu1 = cpu1, .t_cpu = cpu0 };
	struct timespec t0, t1;
	int npass = cpu1 >= 0 ? 3 : 2;

	memset(r, 0, sizeof(*r));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r->passes = npass;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	x.trace = calloc(IL_MAX_INSN + 1, sizeof(*x.trace));
	if (sh == MAP_FAILED || !x.trace) {
		r->status = 2;
		snprintf(r->error, sizeof(r->error), "out of memory");
		free(x.trace);
		return;
	}
	il_c = c;
	il_cpu = cpu0;
	il_run = (struct lab_pc_run){ .nthreads = 2, .iters = 1,
				      .nslots = (cpu0 > cpu1 ? cpu0 : cpu1) + 1 };
	sh->nslots = il_run.nslots;
	fflush(NULL);
	/* counters and lists that use rseq own their CPU's slot; a lock is exclusion enough */
	x.owner = c->rseq && strcmp(c->shape, "lock");
	x.snaplen = (size_t)il_run.nslots * sizeof(struct lab_pc_slot);
	x.snap = malloc(x.snaplen);
	if (il_start(&x) == 0 && il_try(&x, IL_LEARN, -1) == 0) {
		r->ninsn = x.n;
		for (int p = 0; p < npass && !r->status; p++)
			for (int k = 0; k < x.n && !r->status; k++)
				il_try(&x, p, k);
		if (!r->status && *x.owner_err) {
			r->status = 1;
			snprintf(r->error, sizeof(r->error), "%s", x.owner_err);
		}
	}
	if (x.pid > 0) {
		/* a traced thread is reaped by its tracer, the leader last */
		kill(x.pid, SIGKILL);
		while (x.tc > 0 && waitpid(x.tc, NULL, __WALL) < 0 && errno == EINTR)
			;
		while (waitpid(x.pid, NULL, __WALL) < 0 && errno == EINTR)
			;
	}
	free(x.trace);
	free(x.snap);
	munmap(sh, sizeof(*sh));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
}

#else /* no per-arch part: say so */

void lab_pc_interleave(const struct lab_strategy *c, int cpu0, int cpu1,
		       struct lab_il_result *r)
{
	(void)c;
	(void)cpu0;
	(void)cpu1;
	memset(r, 0, sizeof(*r));
	r->status = 2;
	snprintf(r->error, sizeof(r->error), "no interleaving check on %s", LAB_IL_ARCH);
}

#endif
