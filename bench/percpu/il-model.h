/* SPDX-License-Identifier: MIT */
/*
 * The interleaving check's parts, between its files: the child that runs the strategy
 * (il-child.c), the tracer that explores its schedules (explore.c, on il-ptrace.h) and
 * the words of a refusal (il-report.c). explore.h is its face to lab-percpu.
 */
#ifndef LAB_EX_MODEL_H
#define LAB_EX_MODEL_H

#include <stdint.h>
#include <sys/types.h>

#include "il-arch.h"
#include "il-decode.h"
#include "explore.h"
#include "il-ptrace.h"

#if LAB_EX_SUPPORTED

#define IL_NT 3       /* threads: T0 and T1 start on the first CPU, T2 on the second */
#define IL_NODES 4    /* list nodes: two on each CPU's list before the histories start */
#define IL_OPS 2      /* a counter's or lock's history: two operations per thread */

/* What the child and the tracer share (MAP_SHARED before the fork). */
struct il_shared {
	volatile int ready, init_failed;
	char init_msg[256];
	int cpu[IL_NT];                   /* the real CPU each thread starts on */
	pid_t tid[IL_NT];
	uint64_t stack_lo[IL_NT], stack_hi[IL_NT], thread[IL_NT], tls_size;
	uint64_t slots, nodes;            /* the child's lab_pc_slots, lab_pc_nodes */
	int nslots;
	struct lab_pc_percpu percpu;      /* the strategy's own per-CPU data (.percpu) */
	/* The check of a finished schedule, run by the child's main thread. */
	int fail;
	char msg[256];
};

/* The child (il-child.c): never returns. */
void il_child_main(struct il_shared *sh, const struct lab_strategy *c);
/* Where a thread parks once its history is done: the tracer stops stepping it there. */
void il_history_end(void);

/* ---- the refusal's words (il-report.c) ---- */
/* "file.c:12 (`insn`)", or "file.c:12 (header.h:34, fn) (`insn`)" when inlined. */
void il_where(uint64_t pc, const char *insn, char *out, size_t len);

#endif /* LAB_EX_SUPPORTED */

#endif
