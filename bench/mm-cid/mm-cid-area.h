/* SPDX-License-Identifier: MIT */
/*
 * The rseq area as today's kernels size it: AT_RSEQ_FEATURE_SIZE/AT_RSEQ_ALIGN in the auxiliary
 * vector (Linux 6.3+), node_id and mm_cid after the original 32 bytes' fields, glibc's own
 * registration at __rseq_offset from the thread pointer (__rseq_size bytes).
 */
#ifndef MM_CID_AREA_H
#define MM_CID_AREA_H

#include <stddef.h>
#include <stdint.h>

#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE 27
#endif
#ifndef AT_RSEQ_ALIGN
#define AT_RSEQ_ALIGN 28
#endif

/* The uapi layout (linux/rseq.h), spelt out so the program builds against 6.1 headers too. */
struct mc_rseq {
	uint32_t cpu_id_start;
	uint32_t cpu_id;
	uint64_t rseq_cs;
	uint32_t flags;
	uint32_t node_id; /* Linux 6.3+ */
	uint32_t mm_cid;  /* Linux 6.3+ */
};
#define MC_OFF_CPU_ID offsetof(struct mc_rseq, cpu_id)
#define MC_OFF_NODE_ID offsetof(struct mc_rseq, node_id)
#define MC_OFF_MM_CID offsetof(struct mc_rseq, mm_cid)

/* What this process's rseq looks like; filled by mc_area_probe(). */
struct mc_info {
	unsigned long feature_size; /* AT_RSEQ_FEATURE_SIZE, 0 on kernels before 6.3 */
	unsigned long align;        /* AT_RSEQ_ALIGN, 0 before 6.3 */
	unsigned long reg_size;     /* what we register with: 32, or feature size aligned */
	unsigned glibc_size;        /* __rseq_size, 0: glibc did not register */
	long glibc_offset;          /* __rseq_offset */
	int glibc;                  /* 1: threads use glibc's area */
};

/* The original ABI's fields (20 bytes): every kernel with rseq writes them. */
#define MC_ORIG_FEATURE_SIZE 20

/* A field is there when the kernel's feature size (20 before 6.3) covers it. */
static inline int mc_has_field(const struct mc_info *in, size_t off)
{
	size_t fs = in->feature_size ? in->feature_size : MC_ORIG_FEATURE_SIZE;

	return fs >= off + sizeof(uint32_t);
}

void mc_area_probe(struct mc_info *in);
/* This thread's area: glibc's, or one registered here at reg_size. NULL and errno on failure. */
volatile struct mc_rseq *mc_area_thread(const struct mc_info *in);
void mc_area_thread_done(const struct mc_info *in);

#endif
