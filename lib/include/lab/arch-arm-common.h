/* SPDX-License-Identifier: MIT */
/*
 * What arm64 and arm (ARMv7) share: neither has an instruction or a per-CPU descriptor that
 * gives user space its CPU number (no lsl, RDPID, RDTSCP; no GS base of its own), so those
 * rows report "unsupported"; rseq's cpu_id, glibc's sched_getcpu and the system call are the
 * ways there. Each arch file has its lab_ticks() in nanoseconds: under QEMU icount (shift=0)
 * one nanosecond of virtual time is one guest instruction, as a TSC tick is on x86.
 */
#ifndef LAB_ARCH_ARM_COMMON_H
#define LAB_ARCH_ARM_COMMON_H

#include <stdint.h>

#define LAB_CPU_SEGMENT_SELECTOR 0

static inline int lab_has_segment(void) { return 0; }
static inline int lab_has_rdpid(void) { return 0; }
static inline int lab_has_rdtscp(void) { return 0; }
static inline int lab_cpu_segment(void) { return -1; }
static inline int lab_cpu_segment_sel(unsigned long sel) { (void)sel; return -1; }
static inline int lab_cpu_rdpid(void) { return -1; }
static inline int lab_cpu_rdtscp(void) { return -1; }
static inline int lab_has_gs(void) { return 0; }
static inline int lab_gs_by_wrgsbase(void) { return 0; }
static inline int lab_gs_set(const void *base) { (void)base; return -1; }
#define lab_gs_load32_const(off) ((uint32_t)-1)
static inline unsigned lab_gs_load32(unsigned long off, unsigned long add)
{
	(void)off; (void)add; return (unsigned)-1;
}

#endif
