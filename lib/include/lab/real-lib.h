/* SPDX-License-Identifier: MIT */
/*
 * What the benches of real libraries share (bench/urcu-lfht, bench/jemalloc, bench/lttng-ust):
 * the sched_getcpu() calls the library makes, counted by a hook of the program's own (one of
 * two, by how the library is linked: lib/getcpu-wrap.c for a static one, with
 * -Wl,--wrap=sched_getcpu; lib/getcpu-interpose.c for a shared one), how sched_getcpu() learns
 * the CPU in this process, and the baseline case.
 */
#ifndef LAB_REAL_LIB_H
#define LAB_REAL_LIB_H

#include <stdint.h>

#include "lab/case-bench.h"

/* Every sched_getcpu() call of the program, the library's included. volatile: the compiler
   assumes malloc and free leave a variable alone, and would read the count once around them;
   the hook changes it behind their back. */
extern volatile unsigned long lab_getcpu_calls;

/* The calls one operation of loop makes, counted over n of them. */
double lab_getcpu_per_op(void (*loop)(uint64_t n), uint64_t n);

/* How sched_getcpu() answers in this process: the rseq area or the vDSO (a case's path). */
const char *lab_getcpu_path(void);

/* The baseline every ratio is against: an empty loop. */
void lab_loop_empty(uint64_t n);
#define LAB_CASE_EMPTY                                                                       \
	LAB_CASE("empty", "Baseline (empty loop)", LAB_NEED_ANY, NULL, NULL, NULL,            \
		 lab_loop_empty, 0, NULL, 0)

#endif
