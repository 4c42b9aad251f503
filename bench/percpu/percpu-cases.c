/* SPDX-License-Identifier: MIT */
/*
 * What every strategy runs on and is checked by: the per-CPU slots and list nodes, getcpu
 * through one pointer, the table of strategies linked in, and each shape's exactness check.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "percpu.h"
#include "lab/mt-bench.h"
#include "lab/vdso.h"

struct lab_pc_slot *lab_pc_slots;
struct lab_pc_node *lab_pc_nodes;
static int nslots_alloc, nnodes_alloc;

void *lab_pc_lines_alloc(size_t n, size_t size)
{
	void *p = n ? aligned_alloc(LAB_CACHE_LINE, n * size) : NULL;

	if (p)
		memset(p, 0, n * size);
	return p;
}

/*
 * The CPU as getcpu reports it: the vDSO's __vdso_getcpu, else glibc's sched_getcpu, resolved
 * once into one pointer that every getcpu row calls, in timed runs and in --check alike (the
 * reset resolves it, and both kinds of run start with a reset).
 */
lab_pc_getcpu_fn lab_pc_vgetcpu;

static long getcpu_glibc(unsigned *cpu, unsigned *node, void *cache)
{
	int c = sched_getcpu();

	(void)node;
	(void)cache;
	*cpu = (unsigned)c;
	return c < 0 ? -1 : 0;
}

static void getcpu_resolve(void)
{
	if (!lab_pc_vgetcpu)
		lab_pc_vgetcpu = (lab_pc_getcpu_fn)lab_vdso_sym("__vdso_getcpu");
	if (!lab_pc_vgetcpu)
		lab_pc_vgetcpu = getcpu_glibc;
}

const char *lab_pc_getcpu_path(void)
{
	getcpu_resolve();
	return lab_pc_vgetcpu == getcpu_glibc ? "glibc sched_getcpu (no vDSO getcpu)"
					      : "vDSO __vdso_getcpu";
}

int lab_pc_reset(const struct lab_strategy *c, const struct lab_pc_run *run)
{
	getcpu_resolve();
	if (run->nslots > nslots_alloc) {
		free(lab_pc_slots);
		lab_pc_slots = lab_pc_lines_alloc(run->nslots, sizeof(*lab_pc_slots));
		nslots_alloc = lab_pc_slots ? run->nslots : 0;
	}
	if (run->nthreads > nnodes_alloc) {
		free(lab_pc_nodes);
		lab_pc_nodes = lab_pc_lines_alloc(run->nthreads, sizeof(*lab_pc_nodes));
		nnodes_alloc = lab_pc_nodes ? run->nthreads : 0;
	}
	if (!nslots_alloc || !nnodes_alloc)
		return -1;
	memset(lab_pc_slots, 0, run->nslots * sizeof(*lab_pc_slots));
	memset(lab_pc_nodes, 0, run->nthreads * sizeof(*lab_pc_nodes));
	for (int i = 0; i < run->nslots; i++) {
		lab_pc_slots[i].word = LAB_PC_WORD;
		lab_pc_slots[i].ptr = &lab_pc_slots[i].word;
	}
	for (int i = 0; i < run->nthreads; i++)
		lab_pc_nodes[i].id = i;
	return c->setup ? c->setup(run) : 0;
}

/* ---- the strategies linked in ---- */

const struct lab_strategy **lab_pc_cases;
int lab_pc_ncases;

static const char *const shapes[] = { "counter", "list", "lock" };

static int known_shape(const char *shape)
{
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		if (shape && !strcmp(shape, shapes[i]))
			return 1;
	return 0;
}

int lab_pc_cases_load(char *msg, size_t len)
{
	static const struct lab_strategy *table[LAB_MT_MAX_CASES];
	int n = 0;

	for (int f = 0; lab_strategy_files[f]; f++)
		for (int i = 0; lab_strategy_files[f][i]; i++) {
			const struct lab_strategy *c = lab_strategy_files[f][i];
			const char *name = c->name ? c->name : "(no .name)";

			if (!c->name || !*c->name || !c->label) {
				snprintf(msg, len, "strategy %s: .name and .label are required", name);
				return -1;
			}
			if (!known_shape(c->shape)) {
				snprintf(msg, len, "strategy %s: unknown shape '%s' (counter, list, "
					 "lock)", name, c->shape ? c->shape : "");
				return -1;
			}
			if (!c->loop) {
				snprintf(msg, len, "strategy %s: no operation (declare it with "
					 "LAB_COUNTER, LAB_LIST or LAB_LOCK)", name);
				return -1;
			}
			for (int k = 0; k < n; k++)
				if (!strcmp(table[k]->name, c->name)) {
					snprintf(msg, len, "strategy %s: named twice", name);
					return -1;
				}
			if (n == LAB_MT_MAX_CASES) {
				snprintf(msg, len, "more than %d strategies", LAB_MT_MAX_CASES);
				return -1;
			}
			table[n++] = c;
		}
	lab_pc_cases = table;
	lab_pc_ncases = n;
	return 0;
}

/* ---- the checks, one per shape ---- */

static int counter_check(const struct lab_strategy *c, const struct lab_pc_run *run,
			 char *msg, size_t len)
{
	uint64_t want = run->iters * run->nthreads, sum = c->total ? c->total(run) : 0;

	for (int i = 0; i < run->nslots; i++)
		sum += lab_pc_slots[i].v;
	if (sum == want)
		return 0;
	snprintf(msg, len, "sum %llu, want %d threads x %llu = %llu", (unsigned long long)sum,
		 run->nthreads, (unsigned long long)run->iters, (unsigned long long)want);
	return -1;
}

/* Every node exactly once, in a list or held: count, duplicates and the sum of ids. */
#define IDX_MASK 0xffffffffull
static int list_check(const struct lab_pc_run *run, struct lab_pc_thread *th, char *msg,
		      size_t len)
{
	int n = run->nthreads, seen_total = 0, held = 0, dup = -1;
	uint64_t sum = 0, pushes = 0, pops = 0, ops = 0, want = (uint64_t)n * (n - 1) / 2;
	char *seen = calloc(n, 1);

#define SEE(node)                                                                 \
	do {                                                                      \
		uint32_t id_ = (node)->id;                                        \
		if (id_ >= (uint32_t)n || seen[id_]++) {                          \
			dup = (int)id_;                                           \
			goto out;                                                 \
		}                                                                 \
		seen_total++;                                                     \
		sum += id_;                                                       \
	} while (0)
	for (int i = 0; i < n; i++) {
		pushes += th[i].pushes;
		pops += th[i].pops;
		if (th[i].held) {
			SEE((struct lab_pc_node *)th[i].held);
			held++;
		}
	}
	for (int c = 0; c < run->nslots; c++) {
		/* A list is either pointer-linked (next) or index-linked (tagged, nidx). */
		for (struct lab_pc_node *p = (struct lab_pc_node *)lab_pc_slots[c].v; p;
		     p = (struct lab_pc_node *)p->next)
			SEE(p);
		for (uint32_t i = lab_pc_slots[c].tagged & IDX_MASK; i; i = lab_pc_nodes[i - 1].nidx)
			SEE(&lab_pc_nodes[i - 1]);
	}
#undef SEE
	ops = run->iters * n;
out:
	free(seen);
	if (dup >= 0) {
		snprintf(msg, len, "node %d found twice (or a bad node): a list is corrupt", dup);
		return -1;
	}
	if (seen_total != n || sum != want) {
		snprintf(msg, len, "%d of %d nodes found, id sum %llu, want %llu", seen_total, n,
			 (unsigned long long)sum, (unsigned long long)want);
		return -1;
	}
	/* Nodes start held; a push moves one into a list, a pop that found one moves it out. */
	if (pops > ops || pushes > ops || pushes - pops != (uint64_t)(seen_total - held)) {
		snprintf(msg, len, "pushes %llu - pops %llu != %d nodes in the lists",
			 (unsigned long long)pushes, (unsigned long long)pops, seen_total - held);
		return -1;
	}
	return 0;
}

static int lock_check(const struct lab_pc_run *run, char *msg, size_t len)
{
	uint64_t sum = 0, bad = 0, want = run->iters * run->nthreads;

	for (int i = 0; i < run->nslots; i++) {
		sum += lab_pc_slots[i].count;
		bad += lab_pc_slots[i].bad;
		if (lab_pc_slots[i].v) {
			snprintf(msg, len, "the lock of CPU %d is still held", i);
			return -1;
		}
		if (lab_pc_slots[i].overlaps) {
			snprintf(msg, len, "mutual exclusion broken: a thread got CPU %d's lock "
				 "while another held it (%u time%s)", i, lab_pc_slots[i].overlaps,
				 lab_pc_slots[i].overlaps == 1 ? "" : "s");
			return -1;
		}
	}
	if (sum == want && !bad)
		return 0;
	snprintf(msg, len, "%llu increments under the locks, want %llu; %llu bad compares",
		 (unsigned long long)sum, (unsigned long long)want, (unsigned long long)bad);
	return -1;
}

int lab_pc_check(const struct lab_strategy *c, const struct lab_pc_run *run,
		 struct lab_pc_thread *threads, char *msg, size_t len)
{
	if (!strcmp(c->shape, "counter"))
		return counter_check(c, run, msg, len);
	if (!strcmp(c->shape, "list"))
		return list_check(run, threads, msg, len);
	return lock_check(run, msg, len);
}
