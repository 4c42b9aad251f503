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

/* One case in both of glibc's rseq states: NAME-rseq-on and NAME-rseq-off, labelled LABEL
   " (glibc rseq on|off)", each run in its state (a worker for the other one); SEED_OFF the
   seed's figure for the off row (0: none). */
#define LAB_CASE_GLIBC_ON_OFF(name_, label_, prepare_, path_, loop_, seed_off_, icount_timed_) \
	LAB_CASE(name_ "-rseq-on", label_ " (glibc rseq on)", LAB_NEED_GLIBC_RSEQ_ON, prepare_,  \
		 path_, NULL, loop_, 0, NULL, icount_timed_),                                    \
	LAB_CASE(name_ "-rseq-off", label_ " (glibc rseq off)", LAB_NEED_GLIBC_RSEQ_OFF,        \
		 prepare_, path_, NULL, loop_, seed_off_, NULL, icount_timed_)

/* The baseline every ratio is against: an empty loop. */
void lab_loop_empty(uint64_t n);
#define LAB_CASE_EMPTY                                                                       \
	LAB_CASE("empty", "Baseline (empty loop)", LAB_NEED_ANY, NULL, NULL, NULL,            \
		 lab_loop_empty, 0, NULL, 0)

#endif
