/* SPDX-License-Identifier: MIT */
/*
 * The architecture-specific reads, one file per architecture. Each arch file provides:
 *   lab_ticks()          a cheap monotonic tick counter (the TSC on x86-64), 0 if none
 *   lab_cpu_segment()    CPU from a descriptor the kernel sets per CPU (x86: lsl), -1 if none
 *   lab_cpu_rdpid()      CPU from RDPID, lab_cpu_rdtscp() CPU from RDTSCP's TSC_AUX
 *   lab_cpu_segment_sel(sel) the same with the selector given (the dependent reads chain it)
 *   lab_has_rdpid(), lab_has_rdtscp(), lab_has_segment(): what CPUID / the arch offers
 *   lab_has_gs(), lab_gs_set(base), lab_gs_load32_const(off), lab_gs_load32(off, add):
 *                        a per-thread GS base of our own and loads relative to it
 *   lab_cpu_relax()      the spin-wait hint (pause, yield)
 * One file per architecture, chosen here by the compiler's target (the cross compilers of
 * scripts/arch/ select arm64 and arm); nothing else in the lab tests the architecture.
 */
#ifndef LAB_ARCH_H
#define LAB_ARCH_H

#if defined(__x86_64__)
#include "lab/arch-x86_64.h"
#elif defined(__aarch64__)
#include "lab/arch-arm64.h"
#elif defined(__arm__)
#include "lab/arch-arm.h"
#else
/* Portable fallback: the arch-only rows report "unsupported". */
#define LAB_ARCH_NAME "generic"
#define LAB_CPU_SEGMENT_SELECTOR 0
static inline unsigned long long lab_ticks(void) { return 0; }
static inline int lab_has_segment(void) { return 0; }
static inline int lab_has_rdpid(void) { return 0; }
static inline int lab_has_rdtscp(void) { return 0; }
static inline int lab_cpu_segment(void) { return -1; }
static inline int lab_cpu_segment_sel(unsigned long sel) { (void)sel; return -1; }
static inline int lab_has_gs(void) { return 0; }
static inline int lab_gs_by_wrgsbase(void) { return 0; }
static inline int lab_gs_set(const void *base) { (void)base; return -1; }
#define lab_gs_load32_const(off) ((uint32_t)-1)
static inline unsigned lab_gs_load32(unsigned long off, unsigned long add)
{
	(void)off; (void)add; return (unsigned)-1;
}
static inline int lab_cpu_rdpid(void) { return -1; }
static inline int lab_cpu_rdtscp(void) { return -1; }
static inline void lab_cpu_relax(void) { }
#endif

#endif
