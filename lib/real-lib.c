/* SPDX-License-Identifier: MIT */
/* What the benches of real libraries share; see lab/real-lib.h. */
#include "lab/harness.h"
#include "lab/real-lib.h"

volatile unsigned long lab_getcpu_calls;

double lab_getcpu_per_op(void (*loop)(uint64_t n), uint64_t n)
{
	unsigned long c0 = lab_getcpu_calls;

	loop(n);
	return (double)(lab_getcpu_calls - c0) / (double)n;
}

const char *lab_getcpu_path(void)
{
	return lab_mode_now() == LAB_MODE_ON ? "sched_getcpu: glibc's rseq cpu_id"
					     : "sched_getcpu: vDSO getcpu";
}

void lab_loop_empty(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		lab_sink(i);
}
