/* SPDX-License-Identifier: MIT */
/* arm64: the generic timer's virtual count for ticks (nanoseconds), "yield" in spin loops; the rest is shared. */
#ifndef LAB_ARCH_ARM64_H
#define LAB_ARCH_ARM64_H

#include <stdint.h>

#define LAB_ARCH_NAME "arm64"

/* The virtual count; isb keeps it from being read before the instructions it follows. */
static inline uint64_t lab_arm_cntvct(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

static inline uint64_t lab_arm_cntfrq(void)
{
	uint64_t f;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
	return f;
}

/* The virtual count in nanoseconds (0 when the frequency reads as 0); split so that nothing
 * overflows: (cnt % frq) * 1e9 < frq * 1e9 < 2^64. */
static inline unsigned long long lab_ticks(void)
{
	uint64_t cnt = lab_arm_cntvct(), frq = lab_arm_cntfrq();

	if (!frq)
		return 0;
	return (cnt / frq) * 1000000000ull + (cnt % frq) * 1000000000ull / frq;
}

static inline void lab_cpu_relax(void)
{
	__asm__ volatile("yield" ::: "memory");
}

#include "lab/arch-arm-common.h"

#endif
