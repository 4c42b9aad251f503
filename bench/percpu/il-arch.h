/* SPDX-License-Identifier: MIT */
/* The interleaving check's per-architecture parts, one file each, chosen by the compiler's
 * target: registers, the trap the child parks at, and the instruction decoder
 * (il-decode-ARCH.c). An architecture without them has no --explore (LAB_EX_SUPPORTED 0). */
#ifndef LAB_EX_ARCH_H
#define LAB_EX_ARCH_H

#if defined(__x86_64__)
#include "il-arch-x86_64.h"
#define LAB_EX_SUPPORTED 1
#else
#define LAB_EX_ARCH "this architecture"
#define LAB_EX_SUPPORTED 0
#endif

#endif
