/* SPDX-License-Identifier: MIT */
/*
 * arm (ARMv7-A, as Debian's armhf): ticks are CLOCK_MONOTONIC nanoseconds (the vDSO reads the
 * generic timer; a CP15 read of the counter from user space depends on the kernel's and QEMU's
 * settings, and QEMU's user mode refuses it), "yield" in spin loops; the rest is shared with
 * arm64.
 */
#ifndef LAB_ARCH_ARM_H
#define LAB_ARCH_ARM_H

#include <stdint.h>
#include <time.h>

#define LAB_ARCH_NAME "arm"

static inline unsigned long long lab_ticks(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static inline void lab_cpu_relax(void)
{
	__asm__ volatile("yield" ::: "memory");
}

#include "lab/arch-arm-common.h"

#endif
