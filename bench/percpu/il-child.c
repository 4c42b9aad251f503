/* SPDX-License-Identifier: MIT */
/*
 * The interleaving check's child: three threads run the strategy's history under the
 * tracer (explore.c). Each is pinned to its CPU, registers rseq (thread_init), and parks at
 * a trap; the tracer then single-steps them in the order it chooses. A thread's history:
 * counter and lock, two operations; list, pop, pop, push the first, push the second (so a
 * list can come back to the head it had: ABA); then its thread_fini. The main thread runs
 * the shape's check whenever the tracer asks (at the end of a schedule) and parks again.
 */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "il-model.h"
#include "percpu.h"

#if LAB_EX_SUPPORTED

static struct il_shared *sh;
static const struct lab_strategy *il_c;
static struct lab_pc_run il_run;
static struct lab_pc_thread il_th[IL_NT];
static int il_list; /* the shape is a list (no strcmp on the stepped path: glibc's may be AVX-512) */

static __attribute__((noinline)) void il_park(void)
{
	LAB_EX_TRAP();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void il_history_end(void)
{
	for (;;)
		il_park();
}

static __attribute__((noinline)) void il_history(struct lab_pc_thread *t)
{
	if (il_list) {
		struct lab_pc_node *x = il_c->pop_one(t), *y = il_c->pop_one(t);

		if (x)
			il_c->push_one(t, x);
		if (y)
			il_c->push_one(t, y);
	} else {
		for (int k = 0; k < IL_OPS; k++)
			il_c->one(t);
	}
	if (il_c->thread_fini)
		il_c->thread_fini(t);
	il_history_end();
}

static void *il_worker(void *arg)
{
	int i = (int)(intptr_t)arg;
	char msg[256] = "";
	pthread_attr_t a;
	void *lo;
	size_t size;

	il_pin(0, sh->cpu[i]);
	il_th[i].run = &il_run;
	il_th[i].tid = i;
	if (il_c->thread_init && il_c->thread_init(&il_th[i], msg, sizeof(msg))) {
		snprintf(sh->init_msg, sizeof(sh->init_msg), "thread_init: %s", msg);
		sh->init_failed = 1;
		return NULL;
	}
	/* A list's nodes start in the lists: two each, pushed by a thread on that CPU with the
	   strategy's own push (whatever links it uses), T0 before T2. */
	if (!strcmp(il_c->shape, "list") && i != 1) {
		while (i == 2 && __atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) < 1)
			sched_yield();
		il_c->push_one(&il_th[i], &lab_pc_nodes[i == 0 ? 0 : 2]);
		il_c->push_one(&il_th[i], &lab_pc_nodes[i == 0 ? 1 : 3]);
	}
	il_th[i].aborts = 0;
	if (!pthread_getattr_np(pthread_self(), &a) && !pthread_attr_getstack(&a, &lo, &size)) {
		sh->stack_lo[i] = (uint64_t)(uintptr_t)lo;
		sh->stack_hi[i] = (uint64_t)(uintptr_t)lo + size;
	}
	sh->tid[i] = (pid_t)syscall(SYS_gettid);
	sh->thread[i] = (uint64_t)(uintptr_t)&il_th[i];
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_RELEASE);
	/* T1 waits for T0's pushes too, then every thread parks where its history starts */
	while (__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) < IL_NT)
		sched_yield();
	il_park();
	il_history(&il_th[i]);
	return NULL;
}

/* The static TLS block's size (the program header), for what is a thread's own. */
static uint64_t il_tls_size(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM);

	for (unsigned long k = 0; ph && k < n; k++)
		if (ph[k].p_type == PT_TLS)
			return ph[k].p_memsz;
	return 0;
}

/* ---- the check of one finished schedule: the shape's invariant, allocation-free ---- */

#define IL_IDX_MASK 0xffffffffull
static int il_check_list(char *msg, size_t len)
{
	int seen[IL_NODES] = { 0 }, found = 0;

	for (int c = 0; c < il_run.nslots; c++) {
		int guard = 0;

		for (struct lab_pc_node *p = (struct lab_pc_node *)lab_pc_slots[c].v; p;
		     p = (struct lab_pc_node *)p->next) {
			int id = (int)(p - lab_pc_nodes);

			if (id < 0 || id >= IL_NODES || ++guard > IL_NODES || seen[id]++) {
				snprintf(msg, len, "a node is in the lists twice (CPU %d's list "
					 "comes back to node %d): the lists are corrupt", c, id);
				return -1;
			}
			found++;
		}
		guard = 0;
		for (uint32_t i = lab_pc_slots[c].tagged & IL_IDX_MASK; i; i = lab_pc_nodes[i - 1].nidx) {
			if (i > IL_NODES || ++guard > IL_NODES || seen[i - 1]++) {
				snprintf(msg, len, "a node is in the lists twice (CPU %d's list): "
					 "the lists are corrupt", c);
				return -1;
			}
			found++;
		}
	}
	if (found != IL_NODES) {
		snprintf(msg, len, "%d of %d nodes in the lists after every thread pushed back what it "
			 "popped: %s", found, IL_NODES, found < IL_NODES ? "a node was lost" : "");
		return -1;
	}
	return 0;
}

static int il_check_counter(char *msg, size_t len)
{
	long long sum = il_c->total ? (long long)il_c->total(&il_run) : 0, want = IL_NT * IL_OPS;

	for (int i = 0; i < il_run.nslots; i++)
		sum += lab_pc_slots[i].v;
	if (sum == want)
		return 0;
	snprintf(msg, len, "%s (sum %lld, want %lld)", sum < want ? "lost update: an increment "
		 "was overwritten or never made" : "counted twice: an increment landed twice", sum,
		 want);
	return -1;
}

static int il_check_lock(char *msg, size_t len)
{
	unsigned long long sum = 0, bad = 0;

	for (int i = 0; i < il_run.nslots; i++) {
		if (lab_pc_slots[i].overlaps) {
			snprintf(msg, len, "mutual exclusion broken: a thread got CPU %d's lock while "
				 "another held it", i);
			return -1;
		}
		if (lab_pc_slots[i].v) {
			snprintf(msg, len, "the lock of CPU %d is still held after every unlock", i);
			return -1;
		}
		sum += lab_pc_slots[i].count;
		bad += lab_pc_slots[i].bad;
	}
	if (sum == IL_NT * IL_OPS && !bad)
		return 0;
	snprintf(msg, len, "%llu increments under the locks, want %d; %llu bad compares", sum,
		 IL_NT * IL_OPS, bad);
	return -1;
}

static void il_check(void)
{
	char msg[256] = "";
	int fail;

	if (!strcmp(il_c->shape, "counter"))
		fail = il_check_counter(msg, sizeof(msg));
	else if (!strcmp(il_c->shape, "list"))
		fail = il_check_list(msg, sizeof(msg));
	else
		fail = il_check_lock(msg, sizeof(msg));
	sh->fail = fail != 0;
	memcpy(sh->msg, msg, sizeof(msg));
}

void il_child_main(struct il_shared *shared, const struct lab_strategy *c)
{
	pthread_t w[IL_NT];

	sh = shared;
	il_c = c;
	il_list = !strcmp(c->shape, "list");
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(3);
	raise(SIGSTOP);
	il_run = (struct lab_pc_run){ .nthreads = IL_NODES, .iters = IL_OPS, .nslots = sh->nslots };
	if (lab_pc_reset(c, &il_run)) {
		snprintf(sh->init_msg, sizeof(sh->init_msg), "out of memory");
		sh->init_failed = 1;
		_exit(3);
	}
	il_run.nthreads = IL_NT;
	sh->slots = (uint64_t)(uintptr_t)lab_pc_slots;
	sh->nodes = (uint64_t)(uintptr_t)lab_pc_nodes;
	sh->tls_size = il_tls_size();
	if (c->percpu)
		sh->percpu = c->percpu(&il_run);
	for (int i = 0; i < IL_NT; i++)
		if (pthread_create(&w[i], NULL, il_worker, (void *)(intptr_t)i))
			_exit(3);
	while (__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) < IL_NT && !sh->init_failed)
		sched_yield();
	if (sh->init_failed)
		_exit(3);
	for (;;) {
		il_park();
		il_check();
	}
}

#endif
