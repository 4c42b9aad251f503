/* SPDX-License-Identifier: MIT */
/* Exact instruction counts per operation under QEMU icount; see lab/icount.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lab/arch.h"
#include "lab/icount.h"

static uint64_t ticks_of(const struct lab_case *c, uint64_t n)
{
	unsigned long long t0, t1;

	t0 = lab_ticks();
	c->loop(n);
	t1 = lab_ticks();
	return t1 - t0;
}

double lab_icount_from_minima(uint64_t min1n, uint64_t min2n, uint64_t n)
{
	if (n == 0 || min2n < min1n)
		return NAN;
	return (double)(min2n - min1n) / (double)n;
}

int lab_icount_fit(const struct lab_icount_fit *f, struct lab_icount_result *r)
{
	double bound = 6 * f->step + LAB_ICOUNT_SLACK, share = f->tick / LAB_ICOUNT_TICK_SHARE;

	memset(r, 0, sizeof(*r));
	r->per_op = NAN;
	r->residual = (double)f->t2 - 3 * (double)f->t1 + 2 * (double)f->th;
	r->uncertainty = f->n ? 2 * f->step / (double)f->n : NAN;
	if (f->n < 2 || f->n % 2 || f->t2 < f->t1) {
		snprintf(r->why, sizeof(r->why), "the 2n loop (%llu) is not longer than the n loop "
			 "(%llu)", (unsigned long long)f->t2, (unsigned long long)f->t1);
		return -1;
	}
	if ((double)f->t2 > share) {
		snprintf(r->why, sizeof(r->why), "the 2n loop lasts %llu instructions, more than "
			 "1/%d of the %.0f-instruction tick: a tick may be inside it",
			 (unsigned long long)f->t2, LAB_ICOUNT_TICK_SHARE, f->tick);
		return -1;
	}
	if (fabs(r->residual) > bound) {
		snprintf(r->why, sizeof(r->why), "not linear: the fixed cost from n/2 and n and "
			 "from n and 2n differ by %.0f instructions, bound %.0f (an interrupt, or a "
			 "path that changes with n)",
			 r->residual, bound);
		return -1;
	}
	r->per_op = lab_icount_from_minima(f->t1, f->t2, f->n);
	return 0;
}

uint64_t lab_icount_pick_n(double per_op, double overhead, double tick, uint64_t want)
{
	double room = tick / LAB_ICOUNT_TICK_SHARE - overhead, n;

	if (room < 0)
		return 0;
	if (!(per_op > 0))
		return want & ~(uint64_t)1; /* nothing per operation: the length is the overhead */
	if (room < 4 * per_op)
		return 0;
	n = floor(room / (2 * per_op));
	return (n < (double)want ? (uint64_t)n : want) & ~(uint64_t)1;
}

double lab_icount_step(void)
{
#if defined(__aarch64__) || defined(__arm__)
	return 16; /* QEMU's generic timer: 62.5 MHz, 16 ns = 16 instructions at shift=0 */
#else
	return 0;
#endif
}

static uint64_t min_ticks(const struct lab_case *c, uint64_t n)
{
	uint64_t m = UINT64_MAX;

	for (int k = 0; k < LAB_ICOUNT_TRIES; k++) {
		uint64_t t = ticks_of(c, n);

		m = t < m ? t : m;
	}
	return m;
}

#define PROBE_N 16
double lab_icount_per_op(const struct lab_case *c, uint64_t n)
{
	struct lab_icount_fit f = { 0, 0, 0, 0, lab_icount_step(), LAB_ICOUNT_TICK };
	struct lab_icount_result r;
	uint64_t p1, p2;
	double per_op;

	if (c->enter)
		c->enter();
	c->loop(PROBE_N); /* warm-up: first-touch page faults, lazy registration */
	p1 = min_ticks(c, PROBE_N);
	p2 = min_ticks(c, 2 * PROBE_N);
	per_op = p2 > p1 ? (double)(p2 - p1) / PROBE_N : 0;
	f.n = lab_icount_pick_n(per_op, 2 * (double)p1 - (double)p2, f.tick, n);
	if (!f.n) {
		fprintf(stderr, "icount: %s: refused: two operations (~%.0f instructions each) do not "
			"fit in 1/%d of the tick\n", c->name, per_op, LAB_ICOUNT_TICK_SHARE);
		return NAN;
	}
	c->loop(f.n);
	f.th = min_ticks(c, f.n / 2);
	f.t1 = min_ticks(c, f.n);
	f.t2 = min_ticks(c, 2 * f.n);
	if (lab_icount_fit(&f, &r)) {
		fprintf(stderr, "icount: %s (n %llu): refused: %s\n", c->name,
			(unsigned long long)f.n, r.why);
		return NAN;
	}
	return r.per_op;
}
