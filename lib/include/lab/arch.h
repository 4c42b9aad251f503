/* SPDX-License-Identifier: MIT */
/*
 * The architecture-specific reads, one file per architecture. Each arch file provides:
 *   lab_ticks()          a cheap monotonic tick counter (the TSC on x86-64), 0 if none
 *   lab_cpu_segment()    CPU from a descriptor the kernel sets per CPU (x86: lsl), -1 if none
 *   lab_cpu_rdpid()      CPU from RDPID, lab_cpu_rdtscp() CPU from RDTSCP's TSC_AUX
 *   lab_has_rdpid(), lab_has_rdtscp(), lab_has_segment(): what CPUID / the arch offers
 */
#ifndef LAB_ARCH_H
#define LAB_ARCH_H

#if defined(__x86_64__)
#include "lab/arch-x86_64.h"
#else
/* Portable fallback: the arch-only rows report "unsupported". */
#define LAB_ARCH_NAME "generic"
static inline unsigned long long lab_ticks(void) { return 0; }
static inline int lab_has_segment(void) { return 0; }
static inline int lab_has_rdpid(void) { return 0; }
static inline int lab_has_rdtscp(void) { return 0; }
static inline int lab_cpu_segment(void) { return -1; }
static inline int lab_cpu_rdpid(void) { return -1; }
static inline int lab_cpu_rdtscp(void) { return -1; }
#endif

#endif
