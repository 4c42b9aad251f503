/* SPDX-License-Identifier: MIT */
/*
 * lab-urcu-lfht: the real liburcu (Debian's, linked statically) and its lock-free hash table,
 * one add and one delete an operation, with CDS_LFHT_ACCOUNTING (the table's item count split
 * by CPU: each add and each delete asks sched_getcpu() which split to count in) and without
 * it, with glibc's rseq registration on (sched_getcpu() reads the rseq area's cpu_id) and off
 * (it calls the vDSO's getcpu). The program's sched_getcpu() is wrapped (-Wl,--wrap) to count
 * the calls the library makes: the metadata says how many an operation made.
 */
#define _LGPL_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <urcu.h>
#include <urcu/rculfhash.h>

#include "lab/real-lib.h"

struct item {
	struct cds_lfht_node node;
	unsigned long key;
};

static struct cds_lfht *ht_count, *ht_plain;
static struct item item;

/* The table and this thread's RCU registration, once a process. */
static const char *prepare(void)
{
	if (ht_count)
		return NULL;
	rcu_register_thread();
	ht_count = cds_lfht_new(1024, 1024, 0, CDS_LFHT_ACCOUNTING, NULL);
	ht_plain = cds_lfht_new(1024, 1024, 0, 0, NULL);
	return ht_count && ht_plain ? NULL : "unsupported: cds_lfht_new failed";
}

static const char *path_none(void)
{
	return "no split count: no sched_getcpu";
}

/*
 * One add and one delete of one item. One thread and no reader: nothing can still see the
 * deleted node, so it is added again at once, with no grace period to wait for.
 */
static inline void add_del(struct cds_lfht *ht)
{
	cds_lfht_node_init(&item.node);
	rcu_read_lock();
	cds_lfht_add(ht, item.key, &item.node);
	cds_lfht_del(ht, &item.node);
	rcu_read_unlock();
}

static __attribute__((noinline)) void loop_acct(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		add_del(ht_count);
}

static __attribute__((noinline)) void loop_plain(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		add_del(ht_plain);
}

/*
 * The split count commits to the table's total every 1024 adds (and deletes): a loop's
 * instructions are not linear in n, so under icount the split-count rows are timed (virtual
 * ns) and the others counted.
 */
static const struct lab_case cases[] = {
	LAB_CASE_EMPTY,
	LAB_CASE_GLIBC_ON_OFF("lfht-acct", "liburcu lfht add+del, split count", prepare,
			      lab_getcpu_path, loop_acct, 0, 1),
	LAB_CASE_GLIBC_ON_OFF("lfht-plain", "liburcu lfht add+del, no count", prepare, path_none,
			      loop_plain, 0, 0),
};

/* The getcpu calls an operation makes, over 1000 of each table's. */
static void meta(FILE *f)
{
	const char *why = prepare();

	if (why) {
		fprintf(f, "getcpu_calls_per_op: none (%s)\n", why);
		return;
	}
	fprintf(f, "getcpu_calls_per_op: lfht-acct %.3f, lfht-plain %.3f (counted by wrapping "
		"sched_getcpu)\n", lab_getcpu_per_op(loop_acct, 1000),
		lab_getcpu_per_op(loop_plain, 1000));
	fprintf(f, "liburcu: Debian's liburcu-dev, static (urcu-memb flavour)\n");
}

int main(int argc, char **argv)
{
	static const struct lab_case_bench b = {
		.name = "urcu-lfht", .prog = "lab-urcu-lfht",
		.title = "liburcu's lock-free hash table: add+del, per-CPU split count or none",
		.cases = cases, .ncases = sizeof(cases) / sizeof(cases[0]), .meta = meta,
	};

	return lab_case_bench_main(&b, argc, argv);
}
