/* SPDX-License-Identifier: MIT */
/*
 * A counter indexed by mm_cid, the concurrency ID the kernel keeps in the rseq area from
 * Linux 6.3 on (offset 24, after node_id): a small number unique among the process's running
 * threads, so the slots in use stay few (at most the thread or CPU count) where CPU numbers
 * may be sparse. The add is atomic: a thread may lose its mm_cid to another between reading
 * it and adding. Before 6.3 (getauxval(AT_RSEQ_FEATURE_SIZE) under 32) there is no mm_cid:
 * it falls back to cpu_id.
 */
#include <sys/auxv.h>

#include <rseq.h>

#include "lab/selftests-rseq.h"
#include "lab/strategy.h"

#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE 27
#endif
#define MM_CID_WORD 6 /* the u32 at offset 24 */
#define CPU_ID_WORD 1 /* the u32 at offset 4 */

static int index_word = CPU_ID_WORD;

static int cid_setup(const struct lab_pc_run *run)
{
	(void)run;
	index_word = getauxval(AT_RSEQ_FEATURE_SIZE) >= 28 ? MM_CID_WORD : CPU_ID_WORD;
	return 0;
}

static const char *cid_path(void)
{
	return getauxval(AT_RSEQ_FEATURE_SIZE) >= 28 ? "rseq mm_cid" : "rseq cpu_id (no mm_cid)";
}

static inline void cid_add(struct lab_pc_thread *t)
{
	uint32_t i = ((const volatile uint32_t *)rseq_get_abi())[index_word];

	if (i >= (uint32_t)t->run->nslots) /* more concurrency IDs than CPU slots */
		i = 0;
	__atomic_fetch_add(&lab_pc_slots[i].v, 1, __ATOMIC_RELAXED);
}

LAB_COUNTER(mm_cid, cid_add, .name = "counter-mm-cid-atomic",
	    .label = "rseq mm_cid-indexed slot + lock add", .versus = "counter-getcpu-atomic",
	    .rseq = 1, .path = cid_path, .setup = cid_setup, .thread_init = lab_pc_rseq_init);
LAB_STRATEGIES(&mm_cid);
