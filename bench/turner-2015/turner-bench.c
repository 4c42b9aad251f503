// SPDX-License-Identifier: MIT
/*
 * turner-bench: the 2015 interface beside mainline rseq and getcpu+atomic, one thread pinned
 * to one CPU. Three tables, the lab's CPU-read, per-CPU counter and per-CPU list rows:
 *   cpu-read  read the CPU from the 2015 CPU pointer / from rseq's cpu_id / vDSO getcpu,
 *             and the empty loop (what every per-op figure includes);
 *   counter   per-CPU counter increment: 2015 sequence / rseq critical section / getcpu +
 *             lock add;
 *   list      the article's per-CPU list push, with a pop to keep the list short: 2015
 *             sequences / rseq critical sections / getcpu + lock cmpxchg.
 * CSV on stdout: table,method,abi,iters,reps,per_op_median,per_op_min,status,check
 * per_op is CLOCK_MONOTONIC ns per operation: under QEMU icount an instruction count, under
 * TCG emulator time; the caller knows which and labels it. status: ok, or why a row has no
 * figure (the 2015 syscall or rseq missing, or its count refused). Options: --iters N
 * (default 1000000), --reps N (default 7), --cpu N (default: the first allowed CPU),
 * --icount 1: under QEMU icount, each figure from the shortest of LAB_ICOUNT_TRIES loops of
 * n/2, n and 2n operations on the TSC (n short enough to miss the timer tick, lab/icount.h),
 * exact only when the three are linear: check says "linear", or why the figure was refused
 * (a long loop sees ticks: the median of long loops is not an instruction count).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/rseq.h>
#include <time.h>
#include "lab/arch.h"
#include "lab/icount.h"
#include "turner-abi.h"

struct rseq_area {		/* the fields of struct rseq the sequences use */
	uint32_t cpu_id_start, cpu_id;
	uint64_t rseq_cs;
};
void mainline_counter_inc(struct turner_slot *s, struct rseq_area *rs);
void mainline_list_push(struct turner_slot *h, struct turner_node *n, struct rseq_area *rs);
struct turner_node *mainline_list_pop(struct turner_slot *h, struct rseq_area *rs);

static struct turner_slot slots[TURNER_MAX_CPUS], heads[TURNER_MAX_CPUS];
static struct turner_node node;
static struct rseq_area *rs;
static long iters = 1000000, reps = 7, icount;

static uint64_t now(void)
{
	struct timespec ts;

	if (icount)
		return lab_ticks(); /* one tick per instruction under icount (x86) */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

#define LOOP(body) ({ uint64_t t0 = now(); \
	for (long i = 0; i < iters; i++) { body; } now() - t0; })

enum method { BASELINE, T_CPU, R_CPU, G_CPU, T_CNT, R_CNT, G_CNT, T_LIST, R_LIST, G_LIST };

static uint64_t run(enum method m)
{
	unsigned int c;

	switch (m) {
	case BASELINE:
		return LOOP(asm volatile(""));
	case T_CPU:
		return LOOP(c = *(volatile uint32_t *)&turner_cpu; asm volatile("" :: "r"(c)));
	case R_CPU:
		return LOOP(c = *(volatile uint32_t *)&rs->cpu_id; asm volatile("" :: "r"(c)));
	case G_CPU:
		return LOOP(getcpu(&c, NULL); asm volatile("" :: "r"(c)));
	case T_CNT:
		return LOOP(turner_counter_inc(slots));
	case R_CNT:
		return LOOP(mainline_counter_inc(slots, rs));
	case G_CNT:
		return LOOP(getcpu(&c, NULL);
			    __atomic_fetch_add(&slots[c].v, 1, __ATOMIC_RELAXED));
	case T_LIST:
		return LOOP(turner_list_push(heads, &node); turner_list_pop(heads));
	case R_LIST:
		return LOOP(mainline_list_push(heads, &node, rs); mainline_list_pop(heads, rs));
	case G_LIST:
		return LOOP(
			uint64_t old;
			getcpu(&c, NULL);
			old = __atomic_load_n(&heads[c].v, __ATOMIC_RELAXED);
			do
				node.next = (struct turner_node *)old;
			while (!__atomic_compare_exchange_n(&heads[c].v, &old, (uint64_t)&node, 0,
							    __ATOMIC_RELEASE, __ATOMIC_RELAXED));
			/* One thread: the head cannot change under us (no ABA to fear here). */
			old = __atomic_load_n(&heads[c].v, __ATOMIC_ACQUIRE);
			while (old && !__atomic_compare_exchange_n(&heads[c].v, &old,
					(uint64_t)((struct turner_node *)old)->next, 0,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				;
		);
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The shortest of LAB_ICOUNT_TRIES loops of n operations. */
static uint64_t shortest(enum method m, long n)
{
	uint64_t best = UINT64_MAX;

	iters = n;
	for (int k = 0; k < LAB_ICOUNT_TRIES; k++) {
		uint64_t t = run(m);

		best = t < best ? t : best;
	}
	return best;
}

/* An icount row: the count per operation from loops of n/2, n and 2n, or refused (why). */
static void icount_row(const char *table, const char *method, const char *abi, enum method m)
{
	struct lab_icount_fit f = { 0, 0, 0, 0, lab_icount_step(), LAB_ICOUNT_TICK };
	struct lab_icount_result r;
	long want = iters;
	uint64_t p1, p2;
	double per_op;

	iters = 16;
	run(m); /* warm-up */
	p1 = shortest(m, 16);
	p2 = shortest(m, 32);
	per_op = p2 > p1 ? (double)(p2 - p1) / 16 : 0;
	f.n = lab_icount_pick_n(per_op, 2 * (double)p1 - (double)p2, f.tick, want);
	if (!f.n) {
		snprintf(r.why, sizeof(r.why), "two operations do not fit in 1/%d of the tick",
			 LAB_ICOUNT_TICK_SHARE);
	} else {
		f.th = shortest(m, f.n / 2);
		f.t1 = shortest(m, f.n);
		f.t2 = shortest(m, 2 * f.n);
		if (!lab_icount_fit(&f, &r)) {
			printf("%s,%s,%s,%llu,%d,%.2f,%.2f,ok,linear\n", table, method, abi,
			       (unsigned long long)f.n, LAB_ICOUNT_TRIES, r.per_op, r.per_op);
			iters = want;
			return;
		}
	}
	for (char *c = r.why; *c; c++) /* one CSV cell */
		*c = *c == ',' ? ';' : *c;
	printf("%s,%s,%s,%llu,%d,,,refused,%s\n", table, method, abi, (unsigned long long)f.n,
	       LAB_ICOUNT_TRIES, r.why);
	iters = want;
}

static void row(const char *table, const char *method, const char *abi, enum method m,
		const char *missing)
{
	uint64_t t[64];

	if (missing) {
		printf("%s,%s,%s,%ld,%ld,,,%s,\n", table, method, abi, iters, reps, missing);
		return;
	}
	if (icount) {
		icount_row(table, method, abi, m);
		fflush(stdout);
		return;
	}
	run(m);		/* warm-up */
	for (long r = 0; r < reps; r++)
		t[r] = run(m);
	qsort(t, reps, sizeof(t[0]), cmp_u64);
	printf("%s,%s,%s,%ld,%ld,%.2f,%.2f,ok,\n", table, method, abi, iters, reps,
	       (double)t[reps / 2] / iters, (double)t[0] / iters);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *no_turner = NULL, *no_rseq = NULL;
	int cpu = -1;
	cpu_set_t set;

	for (int i = 1; i < argc; i++) {
		char *end = NULL;
		long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;

		if (!end || *end || end == argv[i + 1]) {
			fprintf(stderr, "turner-bench: bad option '%s' (--iters N, --reps N, --cpu N, "
				"--icount 0|1)\n",
				argv[i]);
			return 2;
		}
		if (!strcmp(argv[i], "--iters") && v > 0)
			iters = v;
		else if (!strcmp(argv[i], "--reps") && v > 0 && v <= 64)
			reps = v;
		else if (!strcmp(argv[i], "--cpu") && v >= 0 && v < TURNER_MAX_CPUS)
			cpu = v;
		else if (!strcmp(argv[i], "--icount") && (v == 0 || v == 1))
			icount = v;
		else {
			fprintf(stderr, "turner-bench: bad option '%s %s'\n", argv[i], argv[i + 1]);
			return 2;
		}
		i++;
	}
	sched_getaffinity(0, sizeof(set), &set);
	for (int c = 0; cpu < 0 && c < TURNER_MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			cpu = c;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "turner-bench: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
		return 2;
	}

	if (turner_register_thread())
		no_turner = errno == ENOSYS ? "ENOSYS" : strerrorname_np(errno);
	else if (turner_register_region())
		no_turner = strerrorname_np(errno);
	if (__rseq_size == 0)
		no_rseq = "rseq not registered";
	else
		rs = (struct rseq_area *)((char *)__builtin_thread_pointer() + __rseq_offset);
	if (rs && (int32_t)rs->cpu_id < 0)
		no_rseq = "rseq cpu_id unset";

	printf("table,method,abi,iters,reps,per_op_median,per_op_min,status,check\n");
	row("cpu-read", "empty loop (baseline)", "none", BASELINE, NULL);
	row("cpu-read", "read CPU from the 2015 cpu pointer", "turner-2015", T_CPU, no_turner);
	row("cpu-read", "read CPU from rseq cpu_id", "rseq", R_CPU, no_rseq);
	row("cpu-read", "vDSO getcpu", "getcpu", G_CPU, NULL);
	row("counter", "2015 sequence (incq commit)", "turner-2015", T_CNT, no_turner);
	row("counter", "rseq critical section (incq commit)", "rseq", R_CNT, no_rseq);
	row("counter", "getcpu + lock add", "getcpu", G_CNT, NULL);
	row("list", "2015 sequences push+pop", "turner-2015", T_LIST, no_turner);
	row("list", "rseq critical sections push+pop", "rseq", R_LIST, no_rseq);
	row("list", "getcpu + lock cmpxchg push+pop", "getcpu", G_LIST, NULL);
	return 0;
}
