/* SPDX-License-Identifier: MIT */
/*
 * Instructions per operation in a guest under QEMU -icount shift=0: there the TSC is QEMU's
 * instruction counter (one tick per guest instruction), so a loop's TSC delta is the number of
 * instructions it executed, user and kernel, exactly.
 */
#ifndef LAB_ICOUNT_H
#define LAB_ICOUNT_H

#include <stdint.h>

#include "lab/harness.h"

/* Operations per loop by default: short enough that many loops see no timer tick at HZ >= 100
 * even for a system call (2 x 1000 x ~200 instructions, against 4 M per tick at HZ=250). */
#define LAB_ICOUNT_ITERS 1000
/* Loops of each length; the shortest of each is the one no interrupt landed in. */
#define LAB_ICOUNT_TRIES 7

/*
 * Instructions per operation of c: the shortest of LAB_ICOUNT_TRIES loops of 2n operations
 * minus the shortest of as many loops of n, over n. Interrupts and faults only ever add
 * instructions, so the minima are the interrupt-free loops, and the difference cancels the
 * constant cost of the loop call and of the TSC reads: the result is the path length, the
 * same on every run. Only meaningful under icount; elsewhere it is TSC ticks.
 */
double lab_icount_per_op(const struct lab_case *c, uint64_t n);

/* The same figure from two minima (kept apart to be tested): NaN unless min2n >= min1n. */
double lab_icount_from_minima(uint64_t min1n, uint64_t min2n, uint64_t n);

#endif
