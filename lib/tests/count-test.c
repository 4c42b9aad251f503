/* SPDX-License-Identifier: MIT */
/*
 * Unit test of the counted figures: decoding a perf_event group read into
 * cycles and instructions (scaling when multiplexed, nothing when the counters never ran), the
 * icount difference of minima, and the CSV columns they feed (empty when not counted, and no
 * ns figure for icount rows).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/icount.h"
#include "lab/pmu.h"
#include "lab/results.h"
#include "lab/tap.h"

static void test_decode(void)
{
	/* nr, time_enabled, time_running, cycles, instructions */
	const uint64_t full[] = { 2, 1000, 1000, 4200, 3000 };
	const uint64_t half[] = { 2, 1000, 500, 4200, 3000 };
	const uint64_t never[] = { 2, 1000, 0, 0, 0 };
	const uint64_t three[] = { 3, 1000, 1000, 1, 2 };
	double c, i;

	lab_pmu_decode(full, 5, &c, &i);
	tap_ok(c == 4200 && i == 3000, "a full-time group read gives its counts (%g, %g)", c, i);
	lab_pmu_decode(half, 5, &c, &i);
	tap_ok(c == 8400 && i == 6000, "a multiplexed read is scaled by enabled/running (%g, %g)",
	       c, i);
	lab_pmu_decode(never, 5, &c, &i);
	tap_ok(isnan(c) && isnan(i), "counters that never ran give no figure, not zero");
	lab_pmu_decode(three, 5, &c, &i);
	tap_ok(isnan(c) && isnan(i), "a group of another shape gives no figure");
	lab_pmu_decode(full, 3, &c, &i);
	tap_ok(isnan(c) && isnan(i), "a short read gives no figure");
}

static void test_icount(void)
{
	tap_ok(lab_icount_from_minima(3050, 6050, 1000) == 3.0,
	       "(min 2n - min n) / n cancels the fixed cost: 3 instructions/op");
	tap_ok(lab_icount_from_minima(186123, 372123, 1000) == 186.0, "186 instructions/op");
	tap_ok(isnan(lab_icount_from_minima(5000, 4000, 1000)), "a shorter 2n loop is no figure");
	tap_ok(isnan(lab_icount_from_minima(1, 2, 0)), "zero operations is no figure");
}

/* Fixtures of the checks that earn "exact": loops of n/2, n, 2n operations, overhead 50. */
static void test_icount_fit(void)
{
	const double tick = LAB_ICOUNT_TICK;
	struct lab_icount_fit ok = { 50 + 186 * 500, 50 + 186 * 1000, 50 + 186 * 2000, 1000, 0, tick };
	/* 2000 instructions/op, n 1000: 4 M instructions, a whole tick, and the tick's handler
	 * (3120 instructions) inside the 2n loop. */
	struct lab_icount_fit ticked = { 50 + 2000 * 500, 50 + 2000 * 1000, 50 + 2000 * 2000 + 3120, 1000, 0, tick };
	/* The same op with n small enough, but an interrupt in the 2n loop all the same. */
	struct lab_icount_fit irq = { 50 + 2000 * 25, 50 + 2000 * 50, 50 + 2000 * 100 + 3120, 50, 0, tick };
	/* An interrupt in the n loop (or the n/2 one) makes the residual negative: refused too. */
	struct lab_icount_fit irq_n = { 50 + 2000 * 25, 50 + 2000 * 50 + 3120, 50 + 2000 * 100, 50, 0, tick };
	struct lab_icount_fit irq_h = { 50 + 2000 * 25 + 3120, 50 + 2000 * 50, 50 + 2000 * 100, 50, 0, tick };
	/* arm: 7 instructions/op read through a counter in 16-instruction steps. */
	struct lab_icount_fit arm = { 48 + 3504, 48 + 7008, 48 + 14016, 1000, 16, tick };
	struct lab_icount_result r;
	int rc;

	rc = lab_icount_fit(&ok, &r);
	tap_ok(rc == 0 && r.per_op == 186 && r.residual == 0 &&
	       r.uncertainty == 0, "a linear 186-instruction loop: 186 exactly (got %g +- %g)",
	       r.per_op, r.uncertainty);
	rc = lab_icount_fit(&ticked, &r);
	tap_ok(rc == -1 && isnan(r.per_op) && strstr(r.why, "tick"),
	       "a 2n loop that holds a tick is refused (%s)", r.why);
	rc = lab_icount_fit(&irq, &r);
	tap_ok(rc == -1 && isnan(r.per_op) && strstr(r.why, "not linear") &&
	       r.residual == 3120, "an interrupt inside a short 2n loop breaks linearity: refused "
	       "(%s)", r.why);
	rc = lab_icount_fit(&irq_n, &r);
	tap_ok(rc == -1 && isnan(r.per_op) && r.residual == -3 * 3120,
	       "an interrupt inside the n loop: residual -9360, refused (%s)", r.why);
	rc = lab_icount_fit(&irq_h, &r);
	tap_ok(rc == -1 && isnan(r.per_op) && r.residual == 2 * 3120,
	       "an interrupt inside the n/2 loop: residual +6240, refused (%s)", r.why);
	rc = lab_icount_fit(&arm, &r);
	tap_ok(rc == 0 && r.per_op == 7.008 && r.uncertainty == 0.032,
	       "arm's 16-instruction counter step: 7.008 +- 0.032 instructions/op (got %g +- %g)",
	       r.per_op, r.uncertainty);
	/* n: the largest even one with 2n x 2000 + 50 <= 500 000 (an eighth of the tick): 124. */
	tap_ok(lab_icount_pick_n(2000, 50, tick, 1000) == 124 &&
	       lab_icount_pick_n(186, 50, tick, 1000) == 1000 &&
	       lab_icount_pick_n(300000, 50, tick, 1000) == 0,
	       "n per op: 124 for 2000 instructions, 1000 (as asked) for 186, none for 300 000");
}

/* The field under column header in the second line of a CSV without quoted fields. */
static char *field(char *csv, const char *header)
{
	static char out[64];
	char *p = strchr(csv, '\n') + 1;
	int col = -1, k;

	/* find the column by name in the header */
	for (const char *h = csv, *end = strchr(csv, '\n'); h < end; col++) {
		size_t len = strcspn(h, ",\n");

		if (len == strlen(header) && !strncmp(h, header, len)) {
			col++;
			break;
		}
		h += len + 1;
	}
	k = col;
	for (int i = 0; i < k && p; i++)
		p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
	if (!p)
		return "(none)";
	snprintf(out, sizeof(out), "%.*s", (int)strcspn(p, ",\n"), p);
	return out;
}

static void test_csv(void)
{
	double ns[] = { 2.0 }, ins[] = { 18.0 }, cyc[] = { 7.5 };
	struct lab_labels l = { "rseq-y", "icount" };
	struct lab_result r;
	char *buf;
	size_t len;
	FILE *f;

	memset(&r, 0, sizeof(r));
	r.method = "m";
	r.label = "m";
	r.glibc_rseq = "on";
	strcpy(r.status, "ok");
	r.threads = 1;
	r.reps = 1;
	r.iters = 1000;
	r.instr = ins;
	r.instr_source = "icount";
	f = open_memstream(&buf, &len);
	lab_results_csv(f, &l, &r, 1, -1);
	fclose(f);
	tap_ok(!strcmp(field(buf, "instructions_per_op"), "18.0000"),
	       "icount row: instructions_per_op 18 (%s)", field(buf, "instructions_per_op"));
	tap_ok(!strcmp(field(buf, "instructions_source"), "icount"), "and its source is icount");
	tap_ok(!strcmp(field(buf, "ns_per_op"), "") && !strcmp(field(buf, "ns_reps"), ""),
	       "icount row: no ns figure at all");
	free(buf);

	r.ns = ns;
	r.instr = NULL;
	r.instr_source = NULL;
	f = open_memstream(&buf, &len);
	lab_results_csv(f, &l, &r, 1, -1);
	fclose(f);
	tap_ok(!strcmp(field(buf, "instructions_per_op"), "") &&
	       !strcmp(field(buf, "pmu_cycles_per_op"), ""),
	       "no PMU: the counter columns are empty, never 0");
	free(buf);

	r.instr = ins;
	r.instr_source = "pmu";
	r.pmu_cycles = cyc;
	f = open_memstream(&buf, &len);
	lab_results_csv(f, &l, &r, 1, -1);
	fclose(f);
	tap_ok(!strcmp(field(buf, "pmu_cycles_per_op"), "7.5000") &&
	       !strcmp(field(buf, "instructions_source"), "pmu"),
	       "with a PMU: cycles 7.5 and instructions from pmu");
	free(buf);
}

int main(void)
{
	test_decode();
	test_icount();
	test_icount_fit();
	test_csv();
	return tap_done();
}
