/* SPDX-License-Identifier: MIT */
/*
 * Instructions per operation in a guest under QEMU -icount shift=0: there the TSC is QEMU's
 * instruction counter (one tick per guest instruction), so a loop's TSC delta is the number of
 * instructions it executed, user and kernel; on arm and arm64 the counter runs at 62.5 MHz, so
 * it moves in 16-instruction steps and a figure carries +- 2 steps / n. A figure is an exact
 * path length only when its 2n loop held no timer tick and the loops are linear in n; it is
 * the difference of loops of one shape, never of two different loops.
 */
#ifndef LAB_ICOUNT_H
#define LAB_ICOUNT_H

#include <stdint.h>

#include "lab/harness.h"

/* Operations per loop asked for by default; lab_icount_per_op lowers it per case so that the
 * 2n loop stays clear of the timer tick. */
#define LAB_ICOUNT_ITERS 1000
/* Loops of each length; the shortest of each is the one no interrupt landed in. */
#define LAB_ICOUNT_TRIES 7
/* The guest's timer tick in instructions: HZ 250 (the lab's kernels) at -icount shift=0 (one
 * instruction per ns). A 2n loop may last at most 1/LAB_ICOUNT_TICK_SHARE of it. */
#define LAB_ICOUNT_TICK (1000000000.0 / 250)
#define LAB_ICOUNT_TICK_SHARE 8
/* Linearity: the fixed cost from loops of n/2 and n (2 t(n/2) - t(n)) and from loops of n and
 * 2n (2 t(n) - t(2n)) may differ by at most 6 counter steps plus this many instructions (a
 * straight path repeats exactly; an interrupt adds thousands). A loop of 0 operations is no
 * reference: it skips the loop's entry, a loop of another shape. */
#define LAB_ICOUNT_SLACK 2

/*
 * The figure from three minima of loops of n/2, n and 2n operations (n even), with the counter's step
 * (0: the counter counts every instruction, as the TSC does on x86 under icount; 16 on arm and
 * arm64, whose 62.5 MHz counter moves in 16 ns steps) and the tick period, in instructions.
 */
struct lab_icount_fit {
	uint64_t th, t1, t2, n; /* th: the loop of n/2 */
	double step, tick;
};

struct lab_icount_result {
	double per_op;      /* (t2 - t1) / n; NaN when refused */
	double uncertainty; /* +- instructions per op from the counter's step: 2 step / n */
	double residual;    /* t2 - 3 t1 + 2 th: the two fixed costs' difference, 0 when linear */
	char why[200];      /* empty when the figure stands, else why it was refused */
};

/* Fill r from f; 0 when the figure stands, -1 when refused (why says so): the 2n loop is
 * longer than the tick share, shorter than the n loop, or not linear within the bound. */
int lab_icount_fit(const struct lab_icount_fit *f, struct lab_icount_result *r);

/* The n to use for an operation of about per_op instructions after a fixed cost of overhead:
 * the largest even n <= want whose 2n loop lasts at most tick / LAB_ICOUNT_TICK_SHARE; 0 when not
 * even n = 1 does. */
uint64_t lab_icount_pick_n(double per_op, double overhead, double tick, uint64_t want);

/* The counter's step in instructions on this architecture (0: every instruction counted). */
double lab_icount_step(void);

/*
 * Instructions per operation of c: minima of LAB_ICOUNT_TRIES loops of n'/2, n' and 2n'
 * operations, n' = n lowered by lab_icount_pick_n from a probe, checked by lab_icount_fit.
 * Interrupts and faults only ever add instructions, so the minima are the interrupt-free
 * loops, and the difference cancels the constant cost of the loop call and of the TSC reads.
 * A refused figure is NaN, with one line on stderr saying why. Only meaningful under icount;
 * elsewhere it is TSC ticks.
 */
double lab_icount_per_op(const struct lab_case *c, uint64_t n);

/* The same figure from two minima (kept apart to be tested): NaN unless min2n >= min1n. */
double lab_icount_from_minima(uint64_t min1n, uint64_t min2n, uint64_t n);

#endif
