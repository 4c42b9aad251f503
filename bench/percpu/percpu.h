/* SPDX-License-Identifier: MIT */
/*
 * lab-percpu: per-CPU strategies (counter increment, list push/pop, lock/unlock pair), rseq
 * against the alternatives. Each strategy (lab/strategy.h, one file per row family in
 * strategies/) is one row; its loop runs in every thread of a run, and its shape's check
 * proves afterwards that no operation was lost or counted twice.
 */
#ifndef LAB_PERCPU_H
#define LAB_PERCPU_H

#include <stddef.h>
#include <stdint.h>

#include "lab/strategy.h"

/* Every strategy linked in: the files' lists (the generated strategy table), flattened. */
extern const struct lab_strategy *const *const lab_strategy_files[];
extern const struct lab_strategy **lab_pc_cases;
extern int lab_pc_ncases;

/* Fill lab_pc_cases, refusing a strategy without a name, label or operation, of a shape the
 * lab does not know, or named twice: 0, or -1 with why in msg. */
int lab_pc_cases_load(char *msg, size_t len);

/* Clear the lab's state (slots, nodes), then the strategy's own: 0, or -1 (out of memory). */
int lab_pc_reset(const struct lab_strategy *c, const struct lab_pc_run *run);

/* The shape's exactness check after a run, with every thread's state: 0, or -1 with what
 * was wrong (the first wrong figure) in msg. */
int lab_pc_check(const struct lab_strategy *c, const struct lab_pc_run *run,
		 struct lab_pc_thread *threads, char *msg, size_t len);

#endif
